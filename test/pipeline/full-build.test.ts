/**
 * Whole builds through `buildDist`: from the real Unihan 17.0.0 release beside the project (counts,
 * spot values, determinism), and from the small 16.0.0 fixtures (zip by header, JSON by fingerprint).
 * The project's own CSVs come from the small fixtures so these tests do not move with pipeline/data.
 */
import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type BuildSummary, buildDist } from "../../pipeline/build.ts";
import { InputError } from "../../pipeline/load/types.ts";
import { DIST_FILES } from "../../runtime/core/data/format.ts";
import type { HanjaRecord } from "../../runtime/core/data/records.ts";
import { HAS_SHARED_UNIHAN, SHARED_UNIHAN, SMALL_JSON, SMALL_ZIP, errorOf, smallDataDir, tempDir, unihanFiles, writeZip } from "./helpers.ts";

const EPOCH = 1_700_000_000;
const SHARED_SHA256 = "e77bf1a0b2d1fe0a58b39d9b798cab3624c8ce684bbd4776d7b899c83fe2e90f";

async function build(unihan: string, dataDir: string, outDir: string): Promise<BuildSummary> {
  return buildDist({ unihan, dataDir, outDir, cacheDir: join(outDir, "..", "cache"), localCopies: [], sourceDateEpoch: EPOCH, log: () => {} });
}

async function readRecords(outDir: string): Promise<HanjaRecord[]> {
  const text = await readFile(join(outDir, DIST_FILES.characters), "utf8");
  return text.trimEnd().split("\n").map((line) => JSON.parse(line) as HanjaRecord);
}

/** Every file under `dir`, relative paths, sorted. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
}

const describeShared = HAS_SHARED_UNIHAN ? describe : describe.skip;
if (!HAS_SHARED_UNIHAN) console.warn(`full-build: skipping the Unihan 17.0.0 builds: ${SHARED_UNIHAN} does not exist (CI has ../shared beside the clone)`);

describeShared(`full build from ${HAS_SHARED_UNIHAN ? "../shared/unihan/Unihan-17.0.0.zip" : "Unihan 17.0.0 (skipped: ../shared/unihan/Unihan-17.0.0.zip not found)"}`, () => {
  let summary: BuildSummary;
  let outA: string;
  let outB: string;
  let records: HanjaRecord[];
  const byChar = new Map<string, HanjaRecord>();
  const get = (ch: string): HanjaRecord => {
    const record = byChar.get(ch);
    if (!record) throw new Error(`${ch} was not built`);
    return record;
  };

  beforeAll(async () => {
    const dataDir = await smallDataDir();
    const root = await tempDir("hanja-full-");
    outA = join(root, "a", "dist");
    outB = join(root, "b", "dist");
    summary = await build(SHARED_UNIHAN, dataDir, outA);
    await build(SHARED_UNIHAN, dataDir, outB);
    records = await readRecords(outA);
    for (const r of records) byChar.set(r.character, r);
  });

  it("builds 8,525 records: 1,800 education hanja, 6,367 name hanja, without warnings", () => {
    expect(records).toHaveLength(8525);
    expect(byChar.size).toBe(8525);
    expect(records.filter((r) => r.education_hanja)).toHaveLength(1800);
    expect(records.filter((r) => r.name_hanja)).toHaveLength(6367);
    expect(summary.warnings).toEqual([]);
    expect(summary.manifest.counts).toEqual({ characters: 8525, education_hanja: 1800, name_hanja: 6367, starters: 12, idioms: 17 });
  });

  it("reports Unihan 17.0.0 read from the headers, with the input's hash", async () => {
    expect(summary.manifest.unihan).toEqual({ version: "17.0.0", detected_by: "header", origin: basename(SHARED_UNIHAN), sha256: SHARED_SHA256 });
    expect(summary.manifest.built_at).toBe(new Date(EPOCH * 1000).toISOString());
    const meta = JSON.parse(await readFile(join(outA, DIST_FILES.meta), "utf8")) as { data: { unihan_version: string; source: string } };
    expect(meta.data).toMatchObject({ unihan_version: "17.0.0", source: "Unicode Unihan 17.0.0" });
    for (const r of records) expect(r.source).toBe("Unicode Unihan 17.0.0");
  });

  it("derives 水 U+6C34: strokes 4, radical 水 85, reading 수, education hanja", () => {
    expect(get("水")).toMatchObject({ codepoint: "U+6C34", strokes: 4, radical: "水", radical_number: 85, readings: ["수"], readings_raw: "수:0E", education_hanja: true });
  });

  it("gives 樂 its four readings in file order", () => {
    expect(get("樂").readings).toEqual(["낙", "락", "악", "요"]);
  });

  it("takes 17.0.0's stroke counts (范 9, 骨 10, single values)", () => {
    expect(get("范")).toMatchObject({ strokes: 9, strokes_raw: "9" });
    expect(get("骨").strokes).toBe(10);
    for (const r of records) expect(r.strokes_raw).toMatch(/^\d+$/);
  });

  it("builds 𮕩 U+2E569: education hanja, no definition", () => {
    expect(get("𮕩")).toMatchObject({ codepoint: "U+2E569", education_hanja: true, definition_en: null, readings: ["쇠"] });
  });

  it("keeps 王's negative residual and 着's several kRSUnicode tokens", () => {
    expect(get("王")).toMatchObject({ radical_strokes_raw: "96.-1", radical_number: 96 });
    expect(get("着")).toMatchObject({ radical_strokes_raw: "109.7 123.5 109.6", radical_number: 109 });
    expect(records.filter((r) => r.radical_strokes_raw.includes(" "))).toHaveLength(53);
  });

  it("keeps the 270 compatibility ideographs as records of their own and 60 astral ones", () => {
    const compat = records.filter((r) => {
      const cp = r.character.codePointAt(0) ?? 0;
      return cp >= 0xf900 && cp <= 0xfaff;
    });
    expect(compat).toHaveLength(270);
    for (const r of compat) expect(r.character.normalize("NFC")).not.toBe(r.character);
    expect(records.filter((r) => (r.character.codePointAt(0) ?? 0) > 0xffff)).toHaveLength(60);
  });

  it("matches the measured edge-case counts of UNIHAN-FIELDS.md", () => {
    expect(records.filter((r) => r.readings.length > 1)).toHaveLength(383);
    expect(records.filter((r) => r.definition_en === null)).toHaveLength(727);
    expect(records.filter((r) => r.variants !== "")).toHaveLength(4303);
    const selfRefs = records.flatMap((r) => Object.values(r.variants_detail).flat().filter((v) => v.character === r.character));
    expect(selfRefs).toHaveLength(393);
    for (const r of records) {
      expect(r.radical_number).toBeGreaterThanOrEqual(1);
      expect(r.radical_number).toBeLessThanOrEqual(214);
      expect(r.variants.split(" ")).not.toContain(r.character);
    }
  });

  it("is deterministic: two builds with the same SOURCE_DATE_EPOCH are byte-identical", async () => {
    const filesA = await listFiles(outA);
    expect(filesA).toEqual(await listFiles(outB));
    expect(filesA).toEqual(Object.values(DIST_FILES).sort());
    for (const file of filesA) {
      const [a, b] = await Promise.all([readFile(join(outA, file)), readFile(join(outB, file))]);
      expect(a.equals(b), `${file} differs between the two builds`).toBe(true);
    }
  });
});

describe("build from the small fixtures (Unihan 16.0.0 content)", () => {
  let dataDir: string;
  let root: string;
  beforeAll(async () => {
    dataDir = await smallDataDir();
    root = await tempDir("hanja-small-");
  });

  it("from the zip: reports 16.0.0 by header and the count differences as warnings", async () => {
    const summary = await build(SMALL_ZIP, dataDir, join(root, "zip"));
    expect(summary.manifest.unihan).toMatchObject({ version: "16.0.0", detected_by: "header", origin: basename(SMALL_ZIP) });
    expect(summary.manifest.counts).toEqual({ characters: 297, education_hanja: 94, name_hanja: 184, starters: 12, idioms: 17 });
    expect(summary.warnings).toEqual([
      "unihan 16.0.0: characters: 297 (Unihan 17.0.0 has 8525)",
      "unihan 16.0.0: education_hanja: 94 (Unihan 17.0.0 has 1800)",
      "unihan 16.0.0: name_hanja: 184 (Unihan 17.0.0 has 6367)",
    ]);
    const records = await readRecords(join(root, "zip"));
    expect(records.find((r) => r.character === "范")).toMatchObject({ strokes: 8, strokes_raw: "8 9", source: "Unicode Unihan 16.0.0" });
    expect(records.find((r) => r.character === "水")).toMatchObject({ starter: true, meaning_ko: "물 수" });
  });

  it("from the JSON: reports 16.0.0 by fingerprint and builds the same records", async () => {
    const summary = await build(SMALL_JSON, dataDir, join(root, "json"));
    expect(summary.manifest.unihan).toEqual({ version: "16.0.0", detected_by: "fingerprint", origin: basename(SMALL_JSON), sha256: null });
    expect(summary.warnings).toHaveLength(3);
    const fromJson = await readFile(join(root, "json", DIST_FILES.characters));
    const fromZip = await readFile(join(root, "zip", DIST_FILES.characters));
    expect(fromJson.equals(fromZip)).toBe(true);
  });

  it("fails on a bad CSV row, listing it, and leaves the previous output in place", async () => {
    const out = join(root, "kept");
    await mkdir(out, { recursive: true });
    await writeFile(join(out, DIST_FILES.meta), "previous build");
    const badData = await smallDataDir();
    const idioms = await readFile(join(badData, "idioms.csv"), "utf8");
    await writeFile(join(badData, "idioms.csv"), `${idioms}18,一石四鳥,일석사조,한 가지 일로 네 가지 이득을 얻는다는 뜻의 말\n19,東問西答,동문서답,묻는 말에 전혀 엉뚱한 대답을 하는 것\n`);
    const error = await errorOf(() => build(SMALL_ZIP, badData, out));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toContain("idioms.csv: 2 bad row(s)");
    expect(error.message).toContain('idioms.csv:19: "四" in 一石四鳥 is not in the character dataset');
    expect(error.message).toContain("idioms.csv:20: 東問西答 repeats line 7");
    expect(await readFile(join(out, DIST_FILES.meta), "utf8")).toBe("previous build");
  });

  it("lists the bad rows of starter.csv and of idioms.csv in one run", async () => {
    const badData = await smallDataDir();
    const starters = await readFile(join(badData, "starter.csv"), "utf8");
    await writeFile(join(badData, "starter.csv"), `${starters}込,넣을 입\n`);
    const idioms = await readFile(join(badData, "idioms.csv"), "utf8");
    await writeFile(join(badData, "idioms.csv"), `${idioms}18,一石四鳥,일석사조,한 가지 일로 네 가지 이득을 얻는다는 뜻의 말\n`);
    const error = await errorOf(() => build(SMALL_ZIP, badData, join(root, "both")));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(/^starter\.csv: 1 bad row\(s\):\n {2}starter\.csv:\d+: "込" is not in the character dataset\nidioms\.csv: 1 bad row\(s\):\n/);
    expect(error.message).toContain('"四" in 一石四鳥 is not in the character dataset');
  });

  it("on 17.0.0 input short of characters, says so beside the rows that name the missing ones", async () => {
    // A "17.0.0" zip with 水 only: the totals fail, and the idioms name characters it lacks.
    const zip = await writeZip(unihanFiles({
      "Unihan_IRGSources.txt": ["U+6C34\tkRSUnicode\t85.0", "U+6C34\tkTotalStrokes\t4"],
      "Unihan_Readings.txt": ["U+6C34\tkHangul\t수:0E"],
    }));
    const error = await errorOf(() => build(zip, dataDir, join(root, "short")));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(/^unihan: the 17\.0\.0 input does not give the published totals: characters: 1 \(Unihan 17\.0\.0 has 8525\); /);
    expect(error.message).toMatch(/\nstarter\.csv: \d+ bad row\(s\):\n/);
    expect(error.message).toMatch(/\nidioms\.csv: \d+ bad row\(s\):\n/);
  });

  it("fails on a CSV with a wrong header", async () => {
    const badData = await smallDataDir();
    await writeFile(join(badData, "starter.csv"), "char,gloss\n水,물 수\n");
    const error = await errorOf(() => build(SMALL_ZIP, badData, join(root, "header")));
    expect(error.message).toBe('starter.csv:1: header must be "character,meaning_ko", found "char,gloss"');
  });

  it("fails on a zip missing a Unihan file and on a path that does not exist", async () => {
    const files = unihanFiles({});
    delete files["Unihan_Readings.txt"];
    const zip = await writeZip(files, "partial.zip");
    expect((await errorOf(() => build(zip, dataDir, join(root, "partial")))).message).toMatch(/^unihan: partial\.zip has no Unihan_Readings\.txt/);
    const missing = join(root, "nothing.zip");
    expect((await errorOf(() => build(missing, dataDir, join(root, "missing")))).message).toBe(`unihan: ${missing}: file not found (from --unihan or UNIHAN_ZIP)`);
  });
});
