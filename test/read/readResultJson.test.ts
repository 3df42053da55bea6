/** The `/read` answer's JSON, written member by member: the same text as `JSON.stringify` of the reading. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { readHanja } from "../../runtime/core/index.ts";
import { READ_FORMATS } from "../../runtime/core/read/formatReading.ts";
import { readResultJson } from "../../runtime/core/read/readResultJson.ts";
import type { ReadResult, ReadSegment } from "../../runtime/format/records.ts";
import { testApp } from "../helpers/app.ts";

const data = testApp().data;

describe("readResultJson", () => {
  test("is JSON.stringify of every reading of the phrase set and of random mixed texts, in every format", () => {
    const phrases = readFileSync(join(import.meta.dirname, "../content/reader-phrases.csv"), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split(",")[0] as string);
    let segments = 0;
    for (const format of READ_FORMATS) {
      for (const phrase of phrases) {
        const result = readHanja(phrase, data, { format });
        segments += result.segments.length;
        expect(readResultJson(result), phrase).toBe(JSON.stringify(result));
      }
    }
    expect(segments).toBeGreaterThan(1000);
    // Texts of quotes, backslashes, controls, lone and paired surrogates, compatibility and astral ideographs around words.
    const piece = fc.constantFrom(
      '"',
      "\\",
      "\n",
      "\u0001",
      "\uD800",
      "\uDC00",
      "𠀀",
      "\uF914",
      "水",
      "歷史",
      "樂山樂水",
      "金大中",
      "不正",
      "1919年",
      "<b>",
      " ",
      "a",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), fc.constantFrom(...READ_FORMATS), (pieces, format) => {
        const result = readHanja(pieces.join(""), data, { format });
        expect(readResultJson(result)).toBe(JSON.stringify(result));
      }),
      { numRuns: 300 },
    );
  });

  test("quotes any string as JSON does, whatever it holds, a segment's members in the order the reader makes them", () => {
    // Any code unit, lone surrogates included, with the ones JSON escapes made common.
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
      fc.constantFrom('"', "\\", "\u001f", "\uD800", "\uDC00", "𠀀", "수"),
    );
    const text = fc.string({ unit, maxLength: 12 });
    const segment = fc
      .record({
        hanja: text,
        hangul: text,
        source: fc.constantFrom("dictionary", "characters", "none"),
        other_readings: fc.array(text, { maxLength: 3 }),
        offset: fc.nat(),
        link: fc.option(fc.oneof(fc.record({ href: text }), fc.record({ idiom_idx: fc.integer({ min: 1, max: 910 }) }))),
      })
      .map(({ link, ...members }) => ({ ...members, ...(link ?? {}) }) as ReadSegment);
    fc.assert(
      fc.property(text, text, fc.array(segment, { maxLength: 4 }), (sent, hangul, segments) => {
        const result: ReadResult = { text: sent, hangul, segments };
        expect(readResultJson(result)).toBe(JSON.stringify(result));
      }),
      { numRuns: 1000 },
    );
  });
});
