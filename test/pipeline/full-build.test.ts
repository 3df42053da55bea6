/**
 * Whole builds through `buildDist`: from the pinned Unihan release kept in the repository (counts
 * and spot records against pin.json, determinism), and from the small 16.0.0 fixtures (zip by
 * header, JSON by fingerprint). Nothing here names a value a new release may change: those come
 * from pin.json, which the release job recomputes from the data. The project's own CSVs come from
 * the small fixtures so these tests do not move with pipeline/data.
 */
import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type BuildSummary, buildDist } from "../../pipeline/buildDist.ts";
import { InputError } from "../../pipeline/load/types.ts";
import { releaseCounts, unihanFields } from "../../pipeline/pin/computePin.ts";
import { readPin } from "../../pipeline/pin/pin.ts";
import { DIST_FILES } from "../../runtime/format/dist.ts";
import type { HanjaRecord } from "../../runtime/format/records.ts";
import { SMALL_JSON, SMALL_ZIP, errorOf, smallDataDir, tempDir, unihanFiles, writeZip } from "./helpers.ts";

const EPOCH = 1_700_000_000;
const PIN = readPin();

/** A build of `unihan` (undefined: the pinned release). */
async function build(unihan: string | undefined, dataDir: string, outDir: string): Promise<BuildSummary> {
  return buildDist({ unihan, dataDir, outDir, sourceDateEpoch: EPOCH, log: () => {} });
}

async function readRecords(outDir: string): Promise<HanjaRecord[]> {
  const text = await readFile(join(outDir, DIST_FILES.characters), "utf8");
  return text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as HanjaRecord);
}

/** Every file under `dir`, relative paths, sorted. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe(`full build from the pinned release (${PIN.file})`, () => {
  let summary: BuildSummary;
  let outA: string;
  let outB: string;
  let records: HanjaRecord[];

  beforeAll(async () => {
    const dataDir = await smallDataDir();
    const root = await tempDir("hanja-full-");
    outA = join(root, "a", "dist");
    outB = join(root, "b", "dist");
    summary = await build(undefined, dataDir, outA);
    await build(undefined, dataDir, outB);
    records = await readRecords(outA);
  });

  it("gives the pinned counts, without warnings", () => {
    expect(new Set(records.map((r) => r.character)).size).toBe(PIN.counts.characters);
    expect(releaseCounts(records)).toEqual(PIN.counts);
    expect(summary.warnings).toEqual([]);
    const { characters, education_hanja, name_hanja } = PIN.counts;
    // with_hunum: the characters with 훈음 in the pinned dictionary (counted apart in test/http/hanja-hunum.test.ts).
    // 900 and 900: the pinned school levels and the project's map (school-levels-map.csv) are not in the fixtures' data folder, so 1,794.
    expect(summary.manifest.counts).toEqual({
      characters,
      education_hanja,
      middle_school_hanja: 899,
      high_school_hanja: 895,
      name_hanja,
      starters: 12,
      idioms: 17,
      with_hunum: 7173,
    });
  });

  it("reports the pinned version read from the headers, with the zip's hash", async () => {
    expect(summary.manifest.unihan).toEqual({ version: PIN.version, detected_by: "header", origin: PIN.file, sha256: PIN.sha256 });
    expect(summary.manifest.built_at).toBe(new Date(EPOCH * 1000).toISOString());
    const meta = JSON.parse(await readFile(join(outA, DIST_FILES.meta), "utf8")) as { data: { unihan_version: string; source: string } };
    expect(meta.data).toMatchObject({ unihan_version: PIN.version, source: `Unicode Unihan ${PIN.version}` });
    for (const r of records) expect(r.source).toBe(`Unicode Unihan ${PIN.version}`);
  });

  it("builds every spot record of the pin exactly (水, 樂 in file order, 王 96.-1, 着, 范, 骨, a compatibility and an astral ideograph …)", () => {
    const byChar = new Map(records.map((r) => [r.character, r]));
    expect(Object.keys(PIN.spot_records).length).toBeGreaterThanOrEqual(10);
    for (const [character, expected] of Object.entries(PIN.spot_records)) {
      const record = byChar.get(character);
      expect(record, `${character} was not built`).toBeDefined();
      expect(unihanFields(record as HanjaRecord), character).toEqual(expected);
    }
  });

  it("keeps the compatibility ideographs as records of their own, and every invariant of the fields", () => {
    const compat = records.filter((r) => /^[\u{F900}-\u{FAFF}]$/u.test(r.character));
    expect(compat).toHaveLength(PIN.counts.compatibility);
    for (const r of compat) expect(r.character.normalize("NFC")).not.toBe(r.character);
    for (const r of records) {
      expect(r.radical_number).toBeGreaterThanOrEqual(1);
      expect(r.radical_number).toBeLessThanOrEqual(214);
      expect(r.variants.split(" ")).not.toContain(r.character);
      expect(String(r.strokes)).toBe(r.strokes_raw.split(" ")[0]);
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

  it("without SOURCE_DATE_EPOCH: dated by the zip's newest entry (the release's date), two builds byte-identical", async () => {
    const [a, b] = [join(root, "undated-a"), join(root, "undated-b")];
    for (const outDir of [a, b]) await buildDist({ unihan: SMALL_ZIP, dataDir, outDir, log: () => {} });
    const files = await listFiles(a);
    expect(files).toEqual(await listFiles(b));
    for (const file of files) {
      const [x, y] = await Promise.all([readFile(join(a, file)), readFile(join(b, file))]);
      expect(x.equals(y), `${file} differs between the two builds`).toBe(true);
    }
    // The fixture's entries are dated 2024-09-10, the day Unicode 16.0.0 was released (zipinfo -T).
    const manifest = JSON.parse(await readFile(join(a, DIST_FILES.manifest), "utf8")) as { built_at: string };
    expect(manifest.built_at).toBe("2024-09-10T00:00:00.000Z");
    const meta = JSON.parse(await readFile(join(a, DIST_FILES.meta), "utf8")) as { data: { built_at: string } };
    expect(meta.data.built_at).toBe("2024-09-10T00:00:00.000Z");
  });

  it("from the zip: reports 16.0.0 by header and the count differences as warnings", async () => {
    const summary = await build(SMALL_ZIP, dataDir, join(root, "zip"));
    expect(summary.manifest.unihan).toMatchObject({ version: "16.0.0", detected_by: "header", origin: basename(SMALL_ZIP) });
    // The pinned school levels give 91 of the fixture's 94 education hanja (its data folder has no map for the others).
    expect(summary.manifest.counts).toEqual({
      characters: 297,
      education_hanja: 94,
      middle_school_hanja: 68,
      high_school_hanja: 23,
      name_hanja: 184,
      starters: 12,
      idioms: 17,
      with_hunum: 192,
    });
    expect(summary.warnings.slice(0, 3)).toEqual([
      `unihan 16.0.0: characters: 297 (Unihan ${PIN.version} has ${PIN.counts.characters})`,
      `unihan 16.0.0: education_hanja: 94 (Unihan ${PIN.version} has ${PIN.counts.education_hanja})`,
      `unihan 16.0.0: name_hanja: 184 (Unihan ${PIN.version} has ${PIN.counts.name_hanja})`,
    ]);
    const records = await readRecords(join(root, "zip"));
    expect(records.find((r) => r.character === "范")).toMatchObject({ strokes: 8, strokes_raw: "8 9", source: "Unicode Unihan 16.0.0" });
    expect(records.find((r) => r.character === "水")).toMatchObject({ starter: true, meaning_ko: "물 수" });
  });

  it("from the JSON: reports 16.0.0 by fingerprint and builds the same records", async () => {
    const summary = await build(SMALL_JSON, dataDir, join(root, "json"));
    expect(summary.manifest.unihan).toEqual({ version: "16.0.0", detected_by: "fingerprint", origin: basename(SMALL_JSON), sha256: null });
    expect(summary.warnings.length).toBeGreaterThanOrEqual(3);
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
    await writeFile(
      join(badData, "idioms.csv"),
      `${idioms}18,一石四鳥,일석사조,,한 가지 일로 네 가지 이득을 얻는다는 말\n19,東問西答,동문서답,,묻는 말에 전혀 엉뚱한 대답을 하는 것\n`,
    );
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
    await writeFile(join(badData, "idioms.csv"), `${idioms}18,一石四鳥,일석사조,,한 가지 일로 네 가지 이득을 얻는다는 말\n`);
    const error = await errorOf(() => build(SMALL_ZIP, badData, join(root, "both")));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(/^starter\.csv: 1 bad row\(s\):\n {2}starter\.csv:\d+: "込" is not in the character dataset\nidioms\.csv: 1 bad row\(s\):\n/);
    expect(error.message).toContain('"四" in 一石四鳥 is not in the character dataset');
  });

  it("reads the lists beside idioms.csv: groups and withheld idioms go to quiz.json; a bad list row and a close pair fail naming file and line", async () => {
    const listsData = await smallDataDir();
    await writeFile(join(listsData, "idiom-groups.csv"), "group,idx,hangul\n말을 흘려들음,6,동문서답\n말을 흘려들음,7,마이동풍\n");
    await writeFile(join(listsData, "idioms-withheld.csv"), "idx,hangul,reason\n9,삼인성호,(for the test)\n");
    await build(SMALL_ZIP, listsData, join(root, "lists"));
    const quiz = JSON.parse(await readFile(join(root, "lists", DIST_FILES.quiz), "utf8"));
    expect(quiz.group[5]).toEqual([6]);
    expect(quiz.mature).toEqual([8]);
    expect(quiz.lookalike).toHaveLength(17);

    await writeFile(join(listsData, "idiom-groups.csv"), "group,idx,hangul\n말을 흘려들음,6,동문서답\n말을 흘려들음,7,마이동풍x\n");
    const listError = await errorOf(() => build(SMALL_ZIP, listsData, join(root, "lists-bad")));
    expect(listError).toBeInstanceOf(InputError);
    expect(listError.message).toContain('idiom-groups.csv:3: idx 7 is 마이동풍 (馬耳東風), not "마이동풍x"');

    // The lists valid again, 自業自得 given 一石二鳥's meaning: a close pair, checked once the lists are valid.
    await writeFile(join(listsData, "idiom-groups.csv"), "group,idx,hangul\n");
    const idioms = await readFile(join(listsData, "idioms.csv"), "utf8");
    await writeFile(
      join(listsData, "idioms.csv"),
      idioms.replace("자기가 저지른 일의 결과를 자기가 받음을 이르는 말", "한 가지 일로 두 가지 이득을 함께 얻음"),
    );
    const closeError = await errorOf(() => build(SMALL_ZIP, listsData, join(root, "lists-close")));
    expect(closeError.message).toMatch(/idioms\.csv:16\/17: the meanings of 15 일석이조 and 16 자업자득 are close \(IDF-weighted bigram Dice 0\.\d\d ≥ 0\.17/);
  });

  it("on input of the pinned version short of characters, says so beside the rows that name the missing ones", async () => {
    // A zip labelled with the pinned version with 水 only: the totals fail, and the idioms name characters it lacks.
    const zip = await writeZip(
      unihanFiles(
        {
          "Unihan_IRGSources.txt": ["U+6C34\tkRSUnicode\t85.0", "U+6C34\tkTotalStrokes\t4"],
          "Unihan_Readings.txt": ["U+6C34\tkHangul\t수:0E"],
        },
        `# Unicode Version ${PIN.version}`,
      ),
    );
    const error = await errorOf(() => build(zip, dataDir, join(root, "short")));
    expect(error).toBeInstanceOf(InputError);
    expect(
      error.message.startsWith(
        `unihan: the ${PIN.version} input does not give the pinned totals (pin.json): characters: 1 (Unihan ${PIN.version} has ${PIN.counts.characters}); `,
      ),
    ).toBe(true);
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
    expect((await errorOf(() => build(missing, dataDir, join(root, "missing")))).message).toBe(
      `unihan: ${missing}: file not found (from --unihan or UNIHAN_ZIP)`,
    );
  });
});
