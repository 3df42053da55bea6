/**
 * School levels (docs/rules.md "School levels", `pipeline/parse/schoolLevels.ts`,
 * `pipeline/pin/schoolLevelsPin.ts`): the pinned extract is refused unless its hash and counts are
 * the pin's; the project's map completes it; every bad row, a character left without a level and a
 * split other than 900 / 900 fail the build, each named by file, line and value.
 */
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseCsvTable } from "../../pipeline/load/csvTable.ts";
import { InputError } from "../../pipeline/load/types.ts";
import { SCHOOL_LEVEL_FILES, SCHOOL_LEVEL_MAP_COLUMNS, joinSchoolLevels } from "../../pipeline/parse/schoolLevels.ts";
import { SCHOOL_LEVELS_DIR, type SourceLevel, extractSchoolLevels, readSchoolLevels } from "../../pipeline/pin/schoolLevelsPin.ts";
import type { HanjaRecord } from "../../runtime/format/records.ts";
import { hanja, tempDir } from "./helpers.ts";

const record = (character: string, education = true): HanjaRecord => ({ ...hanja(character, ["가"]), education_hanja: education });
const records = [record("水"), record("學"), record("絕"), record("謂"), record("㒚", false)];
const source = new Map<string, SourceLevel>([
  ["水", "m"],
  ["學", "m"],
  ["衰", "h"], // not a record of this input: left out, counted
]);
const map = (...rows: string[]) => parseCsvTable(SCHOOL_LEVEL_FILES.map, [SCHOOL_LEVEL_MAP_COLUMNS.join(","), ...rows].join("\n"), SCHOOL_LEVEL_MAP_COLUMNS);
const GOOD = ["絕,middle,絶,the list's middle-school 절", "謂,high,,the list's high-school 위"];

function problems(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return error.message.split("\n");
  }
  throw new Error("expected an InputError, none was thrown");
}

describe("joinSchoolLevels", () => {
  test("gives each education hanja its level, from the source or the map, and every other record null", () => {
    const { records: joined, counts } = joinSchoolLevels(records, source, map(...GOOD));
    expect(Object.fromEntries(joined.map((r) => [r.character, r.school_level]))).toEqual({ 水: "middle", 學: "middle", 絕: "middle", 謂: "high", 㒚: null });
    expect(counts).toEqual({ middle: 3, high: 1, fromSource: 2, fromMap: 2, notInInput: 1 });
  });

  test("without a map (a data folder without the file) the source's levels are given and the others left null", () => {
    const { records: joined } = joinSchoolLevels(records, source, []);
    expect(joined.map((r) => r.school_level)).toEqual(["middle", "middle", null, null, null]);
  });

  test("lists every bad row, by file and line", () => {
    const found = problems(() =>
      joinSchoolLevels(
        records,
        source,
        map(
          "㒚,high,,not an education hanja",
          "水,high,,already in the source",
          "絕,middle,絶,first",
          "絕,high,絶,twice",
          "謂,senior,,a level that is not one",
          "楓,high,,not a record",
        ),
      ),
    );
    expect(found).toEqual([
      'school-levels-map.csv:2: "㒚" is not one of the education hanja in the character dataset',
      "school-levels-map.csv:3: 水 already has a level in the pinned source (m); the map gives only the ones it lacks",
      "school-levels-map.csv:5: 絕 is listed twice",
      'school-levels-map.csv:6: level "senior" is neither middle nor high',
      'school-levels-map.csv:7: "楓" is not one of the education hanja in the character dataset',
      "school-levels-map.csv: 1 education hanja without a school level: 謂",
    ]);
  });

  test("a row without a reason, and a source character that is a record but not an education hanja, fail", () => {
    expect(problems(() => joinSchoolLevels(records, source, map("絕,middle,絶,", GOOD[1] as string)))).toEqual([
      "school-levels-map.csv:2: 絕 has no reason",
      "school-levels-map.csv: 1 education hanja without a school level: 絕",
    ]);
    expect(problems(() => joinSchoolLevels(records, new Map([...source, ["㒚", "h"]]), map(...GOOD)))).toEqual([
      "okpyeon/school-levels.csv: 㒚 is not one of the education hanja in the character dataset",
    ]);
  });

  test("with all 1,800 education hanja, a split other than 900 / 900 fails", () => {
    const many = Array.from({ length: 1800 }, (_, i) => record(String.fromCodePoint(0x4e00 + i)));
    const levels = new Map<string, SourceLevel>(many.slice(0, 1799).map((r, i) => [r.character, i < 901 ? "m" : "h"]));
    const last = (many[1799] as HanjaRecord).character;
    expect(problems(() => joinSchoolLevels(many, levels, map(`${last},high,,the last`)))).toEqual([
      "school-levels-map.csv: the levels give 901 middle and 899 high; the list has 900 of each",
    ]);
    const even = new Map<string, SourceLevel>(many.slice(0, 1799).map((r, i) => [r.character, i < 900 ? "m" : "h"]));
    expect(joinSchoolLevels(many, even, map(`${last},high,,the last`)).counts).toMatchObject({ middle: 900, high: 900 });
  });
});

describe("the pinned extract", () => {
  test("is okpyeon's m and h characters, in code point order; its a and r are left out", () => {
    const json = JSON.stringify({ chars: { 學: { lvl: "m" }, 水: { lvl: "m" }, 衰: { lvl: "a" }, 𮕩: { lvl: "r" }, 謂: { lvl: "h" } } });
    expect(extractSchoolLevels(json)).toBe("character,lvl\n學,m\n水,m\n謂,h\n");
  });

  test("the pinned folder reads: 899 middle and 895 high", () => {
    const { levels } = readSchoolLevels();
    expect([...levels.values()].filter((l) => l === "m").length).toBe(899);
    expect([...levels.values()].filter((l) => l === "h").length).toBe(895);
  });

  test("a changed extract is refused by its hash; a pin with other counts by its counts", async () => {
    const dir = await tempDir();
    for (const name of ["pin.json", "school-levels.csv"]) await copyFile(join(SCHOOL_LEVELS_DIR, name), join(dir, name));
    const text = await readFile(join(dir, "school-levels.csv"), "utf8");
    await writeFile(join(dir, "school-levels.csv"), text.replace("\n水,m\n", "\n水,h\n"));
    expect(() => readSchoolLevels(dir)).toThrow(/SHA-256 [0-9a-f]{64} is not the pinned/);
    await writeFile(join(dir, "school-levels.csv"), text);
    const pin = JSON.parse(await readFile(join(dir, "pin.json"), "utf8"));
    await writeFile(join(dir, "pin.json"), JSON.stringify({ ...pin, counts: { m: 900, h: 894 } }));
    expect(() => readSchoolLevels(dir)).toThrow("899 m and 895 h, the pin says 900 and 894");
  });
});
