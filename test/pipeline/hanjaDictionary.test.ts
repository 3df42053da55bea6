/**
 * The pinned hanja dictionary (pipeline/data/libhangul/): kept as published, with Debian's
 * copyright file and its provenance; pin.json is exactly what the file gives (computed, never
 * typed); the load stage checks every line's shape and names the file, line and value of a bad one;
 * the build refuses a file that is not the pinned one.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { buildDist } from "../../pipeline/buildDist.ts";
import { parseHanjaDictionary } from "../../pipeline/load/hanjaDictionary.ts";
import { InputError } from "../../pipeline/load/types.ts";
import { pinText } from "../../pipeline/pin/computePin.ts";
import {
  DICTIONARY_DIR,
  DICTIONARY_PIN_FILE,
  computeDictionaryPin,
  dictionaryCounts,
  pinnedDictionary,
  readDictionaryPin,
  verifyDictionary,
} from "../../pipeline/pin/dictionaryPin.ts";
import { ROOT, SMALL_ZIP } from "./helpers.ts";

const PIN = readDictionaryPin();
const BYTES = readFileSync(pinnedDictionary(PIN));

describe("pipeline/data/libhangul", () => {
  test("holds the file as published, Debian's copyright file and the provenance beside pin.json", () => {
    for (const file of [PIN.file, "copyright", "README.md", DICTIONARY_PIN_FILE]) expect(existsSync(join(DICTIONARY_DIR, file)), file).toBe(true);
    expect(readFileSync(join(DICTIONARY_DIR, "copyright"), "utf8")).toMatch(
      /Files: data\/hanja\/hanja\.txt\nCopyright: 2005-2006 Choe Hwanjin\nLicense: BSD-3/,
    );
    // The notice the BSD licence asks to keep is the file's own first lines.
    expect(BYTES.subarray(0, 200).toString()).toContain("# Copyright (c) 2005,2006 Choe Hwanjin");
    expect(PIN.package).toEqual({
      name: "libhangul-data",
      version: "0.1.0+git20191003-2",
      sha256: "ec925a884fabe7ea75bee835940e5f138d01be39e6ce814368fd5dda113dea29",
      path: "usr/share/libhangul/hanja/hanja.txt",
    });
  });

  test("pin.json is what its file gives: SHA-256 and counts, byte for byte as npm run pin:dictionary writes it", () => {
    const computed = computeDictionaryPin(BYTES, PIN.file, PIN);
    expect(computed).toEqual(PIN);
    expect(readFileSync(join(DICTIONARY_DIR, DICTIONARY_PIN_FILE), "utf8")).toBe(pinText(computed));
    // The published file's figures, as `wc -l` and the issue measured them.
    expect(PIN.counts.lines).toBe(303_529);
    expect(PIN.sha256).toBe("25d258588a37816fdcd49b86195087bdb4374132dc8088c2cfefbb03d9b348f4");
  });

  test("entries keep the dictionary's order: a character's readings and 훈음 as it lists them", () => {
    const { entries } = parseHanjaDictionary(PIN.file, BYTES.toString());
    expect(entries.filter((e) => e.hanja === "樂").map((e) => [e.reading, e.gloss])).toEqual([
      ["낙", "즐길 낙"],
      ["락", "즐거울 락, 즐길 락"],
      ["악", "풍류 악, 즐길 악"],
      ["요", "좋아할 요, 즐길 요"],
    ]);
    expect(entries.find((e) => e.hanja === "水")).toEqual({ reading: "수", hanja: "水", gloss: "물 수, 고를 수", line: expect.any(Number) });
  });
});

describe("reading the dictionary", () => {
  const header = "# a comment\n\n";

  test("comments and empty lines are passed over; an empty gloss is an entry; CRLF is read as LF", () => {
    const dictionary = parseHanjaDictionary("d.txt", `${header}수:水:물 수\r\n수각:水閣:\n`);
    expect(dictionary.entries).toEqual([
      { reading: "수", hanja: "水", gloss: "물 수", line: 3 },
      { reading: "수각", hanja: "水閣", gloss: "", line: 4 },
    ]);
    expect([dictionary.lines, dictionary.comments, dictionary.blanks]).toEqual([4, 1, 1]);
  });

  test.each([
    ["two fields", "수:水"],
    ["four fields", "수:水:물 수:더"],
    ["an empty reading", ":水:물 수"],
    ["an empty word", "수::물 수"],
    ["no colon at all", "수水"],
  ])("a line with %s fails naming the file, the line and its text", (_, line) => {
    let error: unknown;
    try {
      parseHanjaDictionary("hanja.txt", `${header}수:水:물 수\n${line}\n`);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(`hanja.txt:4: expected reading:hanja:gloss (the reading and the word not empty), got ${JSON.stringify(line)}`);
  });

  test("entries of the right shape that cannot be used are left out, each with its line and reason", () => {
    const dictionary = parseHanjaDictionary("d.txt", "무등\u0092:無等\u0092:\n벽사:\uFFFD邪:\n구천:龜川洞:지명\n수:水:물 수\n");
    expect(dictionary.leftOut).toEqual([
      { line: 1, value: "무등\u0092:無等\u0092:", reason: "reading_not_hangul" },
      { line: 2, value: "벽사:\uFFFD邪:", reason: "word_not_han_or_hangul" },
      { line: 3, value: "구천:龜川洞:지명", reason: "uneven_reading" },
    ]);
    expect(dictionary.entries.map((e) => e.hanja)).toEqual(["水"]);
    expect(dictionaryCounts(dictionary).left_out).toEqual({ reading_not_hangul: 1, word_not_han_or_hangul: 1, uneven_reading: 1 });
  });

  test("a reading or word with Hangul letters (ㄱ字집) is an entry", () => {
    expect(parseHanjaDictionary("d.txt", "ㄱ자집:ㄱ字집:\n").entries).toHaveLength(1);
  });
});

describe("the build verifies the dictionary against its pin", () => {
  test("a changed byte fails with both hashes; changed counts fail naming both", () => {
    const changed = Buffer.from(BYTES);
    changed.writeUInt8(changed.readUInt8(changed.length - 2) ^ 1, changed.length - 2);
    const dictionary = parseHanjaDictionary(PIN.file, BYTES.toString());
    expect(() => verifyDictionary(changed, dictionary, PIN)).toThrow(`${PIN.file}: SHA-256 `);
    expect(() => verifyDictionary(changed, dictionary, PIN)).toThrow(`is not the pinned ${PIN.sha256}`);
    const fewer = { ...dictionary, entries: dictionary.entries.slice(1) };
    expect(() => verifyDictionary(BYTES, fewer, PIN)).toThrow(/reading it gives .*"entries":303401.*, the pin says .*"entries":303402/);
  });

  test("a build whose pinned dictionary was altered stops before writing, naming the file", async () => {
    const pinDir = mkdtempSync(join(tmpdir(), "dictionary-"));
    copyFileSync(join(DICTIONARY_DIR, DICTIONARY_PIN_FILE), join(pinDir, DICTIONARY_PIN_FILE));
    writeFileSync(join(pinDir, PIN.file), `${BYTES.toString()}수水\n`);
    const outDir = join(pinDir, "dist");
    const build = buildDist({ unihan: SMALL_ZIP, dictionaryDir: pinDir, dataDir: join(ROOT, "pipeline/data"), outDir, log: () => {} });
    await expect(build).rejects.toThrow(`${PIN.file}:303530: expected reading:hanja:gloss (the reading and the word not empty), got "수水"`);
    expect(existsSync(join(outDir, "manifest.json"))).toBe(false);
  });
});
