/** The build reads the radicals' ideographs besides the selected characters, for their strokes. */
import { describe, expect, it } from "vitest";
import type { UnihanEntry, UnihanReader } from "../../pipeline/load/types.ts";
import { readUnihanJson } from "../../pipeline/load/unihanJson.ts";
import { readUnihanZip } from "../../pipeline/load/unihanZip.ts";
import { RECORD_PROPERTIES, type UnihanTable } from "../../pipeline/parse/hanjaRecords.ts";
import { RADICAL_CODEPOINTS, radicalStrokes } from "../../pipeline/parse/radicals.ts";
import { radicalCharacter } from "../../runtime/format/radicals.ts";
import { SMALL_JSON, SMALL_ZIP, readAll } from "./helpers.ts";

const entriesOf = async (reader: UnihanReader, also?: ReadonlySet<number>) => {
  const entries: UnihanEntry[] = [];
  for await (const entry of reader.entries(RECORD_PROPERTIES, { onlyWith: "kHangul", alsoCodepoints: also })) entries.push(entry);
  return entries;
};

describe("alsoCodepoints", () => {
  it.each([
    ["zip", () => readUnihanZip(SMALL_ZIP)],
    ["JSON", () => readUnihanJson(SMALL_JSON)],
  ])("reads a code point without kHangul from the %s input when asked, and only then", async (_kind, open) => {
    const all = await readAll(open());
    const withHangul = new Set(all.filter((e) => e.property === "kHangul").map((e) => e.codepoint));
    const other = all.find((e) => e.property === "kTotalStrokes" && !withHangul.has(e.codepoint));
    expect(other).toBeDefined();
    const codepoint = other?.codepoint as number;
    expect((await entriesOf(open())).some((e) => e.codepoint === codepoint)).toBe(false);
    const asked = await entriesOf(open(), new Set([codepoint]));
    expect(asked.find((e) => e.codepoint === codepoint && e.property === "kTotalStrokes")?.value).toBe(other?.value);
  });
});

describe("radicalStrokes", () => {
  const table = (strokes: Record<number, string>): UnihanTable =>
    new Map(
      Object.entries(strokes).map(([n, value]) => {
        const codepoint = radicalCharacter(Number(n)).codePointAt(0) as number;
        return [codepoint, new Map([["kTotalStrokes", { codepoint, property: "kTotalStrokes", value, file: "f", line: 1 }]])];
      }),
    );
  const every = Object.fromEntries(Array.from({ length: 214 }, (_, i) => [i + 1, String((i % 17) + 1)]));

  it("reads 214 ideographs, each radical's first kTotalStrokes value, in radical order", () => {
    expect(RADICAL_CODEPOINTS.size).toBe(214);
    expect(RADICAL_CODEPOINTS.has(0x6c34)).toBe(true);
    const { strokes, warnings } = radicalStrokes(table({ ...every, 85: "4 5" }), "17.0.0", "17.0.0");
    expect(strokes).toHaveLength(214);
    expect(strokes[84]).toBe(4);
    expect(strokes[0]).toBe(1);
    expect(warnings).toEqual([]);
  });

  it("fails the build when the pinned version lacks one, and warns with null strokes on another version", () => {
    const { [3]: _, ...without3 } = every;
    expect(() => radicalStrokes(table(without3), "17.0.0", "17.0.0")).toThrow("no kTotalStrokes for 1 radical ideographs (3 丶)");
    const { strokes, warnings } = radicalStrokes(table(without3), "16.0.0", "17.0.0");
    expect(strokes[2]).toBeNull();
    expect(warnings).toEqual(["unihan 16.0.0: no kTotalStrokes for 1 radical ideographs (3 丶); their strokes are null"]);
  });
});
