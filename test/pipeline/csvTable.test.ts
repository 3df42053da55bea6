import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCsvTable, readSourceText } from "../../pipeline/load/csvTable.ts";
import { InputError } from "../../pipeline/load/types.ts";
import { IDIOM_COLUMNS } from "../../pipeline/validate/idioms.ts";
import { STARTER_COLUMNS } from "../../pipeline/validate/starters.ts";
import { FIXTURES, errorOf, tempDir } from "./helpers.ts";

async function csv(text: string, name = "idioms.csv"): Promise<string> {
  const path = join(await tempDir(), name);
  await writeFile(path, text);
  return path;
}

describe("readCsvTable", () => {
  it("reads the fixture rows keyed by column, with their lines", async () => {
    const rows = await readCsvTable(join(FIXTURES, "idioms-small.csv"), IDIOM_COLUMNS);
    expect(rows.length).toBe(17);
    expect(rows[0]).toEqual({
      line: 2,
      values: { idx: "1", hanja: "家家戶戶", hangul: "가가호호", literal: "", meaning: "집집마다 빠짐없이 모두를 이르는 말" },
    });
    expect(rows.map((r) => r.line)).toEqual(rows.map((_, i) => i + 2));
  });

  it("reads quoted fields with commas (several senses of a gloss)", async () => {
    const rows = await readCsvTable(join(FIXTURES, "starter-small.csv"), STARTER_COLUMNS);
    expect(rows.find((r) => r.values.character === "樂")?.values.meaning_ko).toBe("즐길 락, 노래 악");
  });

  it("accepts a BOM and CRLF, skips blank lines and keeps true line numbers", async () => {
    const path = await csv("\uFEFFcharacter,meaning_ko\r\n水,물 수\r\n\r\n火,불 화\r\n", "starter.csv");
    expect(await readCsvTable(path, STARTER_COLUMNS)).toEqual([
      { line: 2, values: { character: "水", meaning_ko: "물 수" } },
      { line: 4, values: { character: "火", meaning_ko: "불 화" } },
    ]);
  });

  it.each([
    ["a wrong column name", "idx,hanja,reading,meaning\n1,家家戶戶,가가호호,집집마다\n", '"idx,hanja,reading,meaning"'],
    ["columns in another order", "hanja,idx,hangul,meaning\n", '"hanja,idx,hangul,meaning"'],
    ["a missing column", "idx,hanja,hangul\n", '"idx,hanja,hangul"'],
    ["no header row", "1,家家戶戶,가가호호,집집마다\n", '"1,家家戶戶,가가호호,집집마다"'],
    ["an empty file", "", '""'],
  ])("fails on %s in the header, naming file and line 1", async (_, text, found) => {
    const error = await errorOf(async () => readCsvTable(await csv(text), IDIOM_COLUMNS));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(`idioms.csv:1: header must be "idx,hanja,hangul,literal,meaning", found ${found}`);
  });

  it.each([
    ["too few fields", "1,家家戶戶,가가호호,", 4],
    ["too many fields", "1,家家戶戶,가가호호,,집집마다,extra", 6],
  ])("fails on a row with %s, naming file, line and the row", async (_, row, count) => {
    const text = `idx,hanja,hangul,literal,meaning\n2,東問西答,동문서답,,묻는 말에 엉뚱한 대답을 하는 것\n${row}\n`;
    const error = await errorOf(async () => readCsvTable(await csv(text), IDIOM_COLUMNS));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(`idioms.csv:3: expected 5 fields (idx,hanja,hangul,literal,meaning), found ${count}: ${JSON.stringify(row)}`);
  });

  it("lists every row of the wrong width, not only the first", async () => {
    const text = "idx,hanja,hangul,literal,meaning\n1,家家戶戶,가가호호\n2,東問西答,동문서답,,묻는 말에 엉뚱한 대답을 하는 것\n3,一石二鳥,일석이조,x,y,z\n";
    const error = await errorOf(async () => readCsvTable(await csv(text), IDIOM_COLUMNS));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(
      'idioms.csv: 2 rows of the wrong width:\n  idioms.csv:2: expected 5 fields (idx,hanja,hangul,literal,meaning), found 3: "1,家家戶戶,가가호호"\n  idioms.csv:4: expected 5 fields (idx,hanja,hangul,literal,meaning), found 6: "3,一石二鳥,일석이조,x,y,z"',
    );
  });

  it("fails on a broken quote, naming file and line", async () => {
    const text = 'character,meaning_ko\n水,물 수\n火,"불 화\n';
    const error = await errorOf(async () => readCsvTable(await csv(text, "starter.csv"), STARTER_COLUMNS));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(/^starter\.csv:\d+: /);
    expect(error.message).toMatch(/quote/i);
  });

  it("fails on a file that does not exist", async () => {
    const path = join(await tempDir(), "idioms.csv");
    const error = await errorOf(() => readCsvTable(path, IDIOM_COLUMNS));
    expect(error.message).toBe(`idioms.csv: cannot read ${path}: ENOENT`);
  });

  it("fails on bytes that are not UTF-8, naming file, line and the line as read, instead of publishing U+FFFD", async () => {
    const path = join(await tempDir(), "starter.csv");
    await writeFile(path, Buffer.concat([Buffer.from("character,meaning_ko\n水,물 수\n火,"), Buffer.from([0xbf, 0xe6]), Buffer.from(" 화\n")]));
    const error = await errorOf(() => readCsvTable(path, STARTER_COLUMNS));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(`starter.csv:3: not valid UTF-8 (shown as \uFFFD): ${JSON.stringify("火,\uFFFD\uFFFD 화")}`);
  });
});

describe("readSourceText", () => {
  it("reads UTF-8 text (TERMS.md) and names a missing file without a stack trace", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "TERMS.md"), "# 약관\n");
    expect(await readSourceText(join(dir, "TERMS.md"))).toBe("# 약관\n");
    const error = await errorOf(() => readSourceText(join(dir, "missing", "TERMS.md")));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(`TERMS.md: cannot read ${join(dir, "missing", "TERMS.md")}: ENOENT`);
  });
});
