/**
 * `GET /hanja/{character}` (docs/rules.md "Interface A", "Records"): one percent-decoded code point, no
 * normalisation, 400 for anything but one character, 404 outside the dataset; the body is the
 * record plus every idiom containing the character, in idx order.
 */
import { describe, expect, test } from "vitest";
import type { HanjaRecord, WordItem } from "../../runtime/format/records.ts";
import { call, getJson, testApp } from "../helpers/app.ts";
import { spotRecord } from "../helpers/pin.ts";
import { BASE, SOURCE, expectProblem, fileRecords, idiomItem, idiomsInOrder, recordOf } from "./hanja-expect.ts";

const app = testApp();
type Detail = HanjaRecord & { idioms: ReturnType<typeof idiomItem>[]; words: WordItem[]; word_count: number; stroke_order: "ko" | "ja" | "zh" | null };

async function detail(segment: string): Promise<Detail> {
  const { status, body, headers } = await getJson<Detail>(app, `${BASE}/hanja/${segment}`);
  expect(status).toBe(200);
  expect(headers.get("content-type")).toBe("application/json; charset=utf-8");
  return body;
}

/** The idioms (interface A items) whose hanja contains the character, in idx order. */
function idiomsWith(character: string): ReturnType<typeof idiomItem>[] {
  return idiomsInOrder(app)
    .filter((idiom) => [...idiom.hanja].includes(character))
    .map(idiomItem);
}

/** docs/rules.md "Records" field by field, plus the product's extras (docs/rules.md "Source data"): the fields that break it. */
function shapeProblems(r: Record<string, unknown>): string[] {
  const bad: string[] = [];
  const check = (ok: boolean, what: string) => void (ok || bad.push(`${String(r.codepoint)}: ${what}`));
  for (const field of ["character", "codepoint", "radical", "radical_strokes_raw", "readings_raw", "strokes_raw", "variants", "source", "license_url"]) {
    check(typeof r[field] === "string", `${field} is not a string`);
  }
  const character = String(r.character);
  check([...character].length === 1, "character is not one code point");
  check(r.codepoint === `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`, "codepoint does not name the character");
  check([...String(r.radical)].length === 1, "radical is not one character");
  check(r.source === SOURCE, "source");
  check(r.license_url === "https://www.unicode.org/license.txt", "license_url");
  check(Array.isArray(r.readings) && r.readings.length > 0 && r.readings.every((x) => typeof x === "string"), "readings");
  check(Number.isInteger(r.strokes) && (r.strokes as number) >= 1, "strokes");
  check(String(r.strokes) === String(r.strokes_raw).split(/\s+/)[0], "strokes is not the first strokes_raw value");
  check(Number.isInteger(r.radical_number) && (r.radical_number as number) >= 1 && (r.radical_number as number) <= 214, "radical_number");
  check(typeof r.starter === "boolean", "starter");
  for (const field of ["meaning_ko", "meaning_ko_source", "definition_en"]) check(r[field] === null || typeof r[field] === "string", `${field} type`);
  check((r.meaning_ko === null) === !r.starter && (r.meaning_ko_source === null) === !r.starter, "meaning_ko is set exactly for starters");
  check(typeof r.education_hanja === "boolean" && typeof r.name_hanja === "boolean", "education_hanja / name_hanja");
  check(typeof r.variants_detail === "object" && r.variants_detail !== null, "variants_detail");
  return bad;
}

function expectHanjaShape(r: object): void {
  expect(shapeProblems(r as Record<string, unknown>)).toEqual([]);
}

describe("the record", () => {
  test("水, percent-encoded: every field with its value, and no idiom invented", async () => {
    const body = await detail("%E6%B0%B4");
    expectHanjaShape(body);
    // The Unihan fields as the pin records them (computed from the pinned zip), the gloss from starter.csv.
    expect(body).toMatchObject({ ...spotRecord("水"), starter: true, meaning_ko: "물 수", source: SOURCE });
    expect(typeof body.meaning_ko_source).toBe("string");
    const { idioms, words: _, word_count: __, stroke_order: strokeOrder, ...record } = body;
    // The stroke form comes from stroke-forms.txt, not characters.jsonl (test/http/hanja-strokes.test.ts).
    expect([null, "ko", "ja", "zh"]).toContain(strokeOrder);
    expect(record).toEqual(recordOf("水"));
    expect(idioms).toEqual(idiomsWith("水"));
  });

  test("the raw UTF-8 path gives the same body as the percent-encoded one", async () => {
    expect(await detail("水")).toEqual(await detail("%E6%B0%B4"));
    expect(await detail("%e6%b0%b4")).toEqual(await detail("%E6%B0%B4"));
  });

  test("an astral character: 𮕩 U+2E569 is education hanja without an English definition", async () => {
    const body = await detail(encodeURIComponent("𮕩"));
    expectHanjaShape(body);
    expect(body).toMatchObject({ character: "𮕩", codepoint: "U+2E569", education_hanja: true, definition_en: null, starter: false, meaning_ko: null });
    expect(await detail("𮕩")).toEqual(body);
  });

  test("a compatibility ideograph is its own record, distinct from its NFC form", async () => {
    const compat = await detail("%EF%A4%80"); // U+F900
    const unified = await detail(encodeURIComponent("\uF900".normalize("NFC"))); // U+8C48
    expect(compat.codepoint).toBe("U+F900");
    expect(compat.character).toBe("\uF900");
    expect(unified.codepoint).toBe("U+8C48");
    expect(unified.character).toBe("\u8C48");
    const { idioms: _a, words: _c, word_count: _d, stroke_order: _g, ...compatRecord } = compat;
    const { idioms: _b, words: _e, word_count: _f, stroke_order: _h, ...unifiedRecord } = unified;
    expect(compatRecord).toEqual(recordOf("\uF900"));
    expect(unifiedRecord).toEqual(recordOf("\u8C48"));
  });

  test("spot values: 樂 readings, 范 strokes, 王 raw radical-stroke value", async () => {
    expect((await detail(encodeURIComponent("樂"))).readings).toEqual(["낙", "락", "악", "요"]);
    expect((await detail(encodeURIComponent("范"))).strokes).toBe(9);
    const wang = await detail(encodeURIComponent("王"));
    expect(wang.radical_strokes_raw).toBe("96.-1");
    expect(wang.radical_number).toBe(96);
  });

  test("every record has the published fields with the right types", () => {
    expect(fileRecords().flatMap((record) => shapeProblems({ ...record }))).toEqual([]);
  });

  test("a sample of details equals the file's records", async () => {
    const records = fileRecords();
    for (let i = 0; i < records.length; i += 97) {
      const record = records[i]!;
      const { idioms, words: _, word_count: __, stroke_order: strokeOrder, ...rest } = await detail(encodeURIComponent(record.character));
      expect(rest).toEqual(record);
      expect([null, "ko", "ja", "zh"]).toContain(strokeOrder);
      expect(idioms).toEqual(idiomsWith(record.character));
    }
  });
});

describe("idioms in the detail", () => {
  test("every character used by a loaded idiom lists exactly its idioms, in idx order, idx as a string with chosung", async () => {
    const used = new Set(idiomsInOrder(app).flatMap((idiom) => [...idiom.hanja]));
    expect(used.size).toBeGreaterThan(0);
    for (const character of used) {
      const body = await detail(encodeURIComponent(character));
      expect(body.idioms, character).toEqual(idiomsWith(character));
      for (const item of body.idioms) {
        expect(typeof item.idx).toBe("string");
        expect(item.idx).toMatch(/^[1-9]\d*$/);
      }
    }
  });

  test("the character in the most idioms", async () => {
    const counts = new Map<string, number>();
    for (const idiom of idiomsInOrder(app)) for (const c of new Set(idiom.hanja)) counts.set(c, (counts.get(c) ?? 0) + 1);
    const [character, count] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    const body = await detail(encodeURIComponent(character));
    expect(body.idioms).toHaveLength(count);
    expect(body.idioms.map((i) => Number(i.idx))).toEqual([...body.idioms.map((i) => Number(i.idx))].sort((a, b) => a - b));
  });

  test("a character in no idiom has an empty list", async () => {
    const used = new Set(idiomsInOrder(app).flatMap((idiom) => [...idiom.hanja]));
    const unused = fileRecords().find((r) => !used.has(r.character))!;
    expect((await detail(encodeURIComponent(unused.character))).idioms).toEqual([]);
  });
});

describe("bad segments", () => {
  test("no segment (`/hanja/`) is the list, not an empty character: a trailing slash is ignored", async () => {
    const list = await call(app, `${BASE}/hanja/`);
    expect(list.status).toBe(200);
    expect(await list.text()).toBe(await (await call(app, `${BASE}/hanja`)).text());
  });

  test("two characters → 400", async () => {
    for (const segment of ["%E6%B0%B4%E7%81%AB", "水火", "ab", encodeURIComponent("𮕩𮕩"), "%E6%B0%B4%20"]) {
      await expectProblem(await call(app, `${BASE}/hanja/${segment}`), 400, "invalid_parameter", "character");
    }
  });

  test("a character plus a combining mark is two code points → 400", async () => {
    await expectProblem(await call(app, `${BASE}/hanja/${encodeURIComponent("水\u0301")}`), 400, "invalid_parameter", "character");
  });

  test("malformed percent-encoding → 400", async () => {
    for (const segment of ["%E6%B0", "%E6", "%ZZ", "%", "%ED%A0%80", "%FF"]) {
      await expectProblem(await call(app, `${BASE}/hanja/${segment}`), 400, "invalid_parameter", "character");
    }
  });

  test("not in the dataset → 404 problem", async () => {
    for (const segment of ["a", encodeURIComponent("가"), "%F0%9F%98%80", "%2F", "1"]) {
      const body = await expectProblem(await call(app, `${BASE}/hanja/${segment}`), 404, "not_found", "character");
      expect(body.detail).toMatch(/U\+[0-9A-F]{4,6}/);
    }
  });

  test("a Han character without a Korean reading → 404", async () => {
    const known = new Set(fileRecords().map((r) => r.character));
    let missing = "";
    for (let c = 0x4e00; c <= 0x9fff && missing === ""; c++) if (!known.has(String.fromCodePoint(c))) missing = String.fromCodePoint(c);
    await expectProblem(await call(app, `${BASE}/hanja/${encodeURIComponent(missing)}`), 404, "not_found", "character");
  });

  test("a deeper path is not a route → 404", async () => {
    await expectProblem(await call(app, `${BASE}/hanja/%E6%B0%B4/extra`), 404, "not_found");
  });
});
