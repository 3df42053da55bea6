import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import unzipper from "unzipper";
import { describe, expect, it } from "vitest";
import { InputError } from "../../pipeline/load/types.ts";
import { UNIHAN_FILES, readUnihanZip } from "../../pipeline/load/unihanZip.ts";
import { RECORD_PROPERTIES } from "../../pipeline/parse/hanjaRecords.ts";
import { SMALL_ZIP, WATER, errorOf, readAll, tempDir, unihanFiles, writeZip, zipBytes } from "./helpers.ts";

/** Reads a zip made of `files` to the end and returns its version. */
async function versionOf(files: Record<string, string>) {
  const reader = readUnihanZip(await writeZip(files));
  await readAll(reader);
  return reader.version();
}

/** The error reading a zip made of `files` raises (filtered as the build filters). */
async function readError(files: Record<string, string | Buffer>, onlyWith: string | null = "kHangul"): Promise<Error> {
  const reader = readUnihanZip(await writeZip(files));
  return errorOf(() => readAll(reader, onlyWith ? RECORD_PROPERTIES : undefined, onlyWith ?? undefined));
}

describe("readUnihanZip on the small fixture", () => {
  it("reads Unihan 16.0.0 from the files' headers", async () => {
    const reader = readUnihanZip(SMALL_ZIP);
    const entries = await readAll(reader);
    expect(reader.version()).toEqual({ version: "16.0.0", method: "header" });
    expect(new Set(entries.map((e) => e.file))).toEqual(new Set(UNIHAN_FILES));
  });

  it("reports for every entry the file and line it came from", async () => {
    const directory = await unzipper.Open.file(SMALL_ZIP);
    const lines = new Map<string, string[]>();
    for (const file of directory.files) lines.set(file.path, (await file.buffer()).toString("utf8").split("\n"));
    const entries = await readAll(readUnihanZip(SMALL_ZIP));
    expect(entries.length).toBeGreaterThan(1000);
    for (const e of entries) {
      const hex = e.codepoint.toString(16).toUpperCase().padStart(4, "0");
      expect(lines.get(e.file)?.[e.line - 1]).toBe(`U+${hex}\t${e.property}\t${e.value}`);
    }
  });

  it("yields only the wanted properties of code points with kHangul", async () => {
    const entries = await readAll(readUnihanZip(SMALL_ZIP), RECORD_PROPERTIES, "kHangul");
    const withHangul = new Set(entries.filter((e) => e.property === "kHangul").map((e) => e.codepoint));
    for (const e of entries) {
      expect(RECORD_PROPERTIES.has(e.property)).toBe(true);
      expect(withHangul.has(e.codepoint)).toBe(true);
    }
    expect(withHangul.has(0x3400)).toBe(false);
    expect(withHangul.has(0x2e569)).toBe(true);
  });

  it("reads the same from the zip's bytes as from its path", async () => {
    const bytes = new Uint8Array(await readFile(SMALL_ZIP));
    const fromBytes = readUnihanZip(bytes);
    expect(fromBytes.label).toBe("Unihan.zip");
    expect(await readAll(fromBytes)).toEqual(await readAll(readUnihanZip(SMALL_ZIP)));
    expect(fromBytes.version().version).toBe("16.0.0");
  });

  it("refuses version() before the entries are read", () => {
    expect(() => readUnihanZip(SMALL_ZIP).version()).toThrow(/before the entries were read/);
  });
});

describe("Unihan version detection", () => {
  it("reads the 16.0+ header style (# Unicode Version 17.0.0)", async () => {
    expect(await versionOf(unihanFiles(WATER, "# Unicode Version 17.0.0"))).toEqual({ version: "17.0.0", method: "header" });
  });

  it("reads the 15.x header style (# Unicode version: 15.0.0)", async () => {
    expect(await versionOf(unihanFiles(WATER, "# Unicode version: 15.0.0"))).toEqual({ version: "15.0.0", method: "header" });
  });

  it("reads a newer release without code changes", async () => {
    expect(await versionOf(unihanFiles(WATER, "# Unicode Version 18.0.0"))).toEqual({ version: "18.0.0", method: "header" });
  });

  it("fails when the files disagree, naming them and their versions", async () => {
    const files = unihanFiles(WATER, "# Unicode Version 17.0.0", { "Unihan_Variants.txt": "# Unicode Version 16.0.0" });
    const reader = readUnihanZip(await writeZip(files, "mixed.zip"));
    await readAll(reader);
    const error = (() => {
      try {
        reader.version();
      } catch (e) {
        return e as Error;
      }
      throw new Error("no error");
    })();
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toContain("mixed.zip");
    expect(error.message).toContain("disagree");
    expect(error.message).toContain("Unihan_Variants.txt: 16.0.0");
    expect(error.message).toContain("Unihan_Readings.txt: 17.0.0");
  });

  it("falls back to the fingerprint without headers: kTayNumeric ⇒ 17.0.0", async () => {
    const files = unihanFiles({ ...WATER, "Unihan_NumericValues.txt": ["U+3405\tkTayNumeric\t5"] }, null);
    expect(await versionOf(files)).toEqual({ version: "17.0.0", method: "fingerprint" });
  });

  it("falls back to the fingerprint without headers: kGB7 or kJa ⇒ 16.0.0", async () => {
    expect(await versionOf(unihanFiles({ ...WATER, "Unihan_OtherMappings.txt": ["U+57AF\tkGB7\t0101"] }, null))).toEqual({
      version: "16.0.0",
      method: "fingerprint",
    });
    expect(await versionOf(unihanFiles({ ...WATER, "Unihan_OtherMappings.txt": ["U+382F\tkJa\t2256"] }, null))).toEqual({
      version: "16.0.0",
      method: "fingerprint",
    });
  });

  it("dates by the properties of every file when one file has no header", async () => {
    const files = unihanFiles({ ...WATER, "Unihan_NumericValues.txt": ["U+3405\tkTayNumeric\t5"] }, "# Unicode Version 17.0.0", {
      "Unihan_Variants.txt": null,
    });
    expect(await versionOf(files)).toEqual({ version: "17.0.0", method: "fingerprint" });
  });

  it("fails when neither headers nor fingerprint tell the version", async () => {
    const reader = readUnihanZip(await writeZip(unihanFiles(WATER, null), "bare.zip"));
    await readAll(reader);
    expect(() => reader.version()).toThrow(/cannot tell the Unihan version of bare\.zip/);
  });
});

describe("reading the input", () => {
  it("ignores which file a property sits in (kTotalStrokes moved to IRGSources in 13.0)", async () => {
    const files = unihanFiles({
      "Unihan_DictionaryLikeData.txt": ["U+6C34\tkTotalStrokes\t4"],
      "Unihan_RadicalStrokeCounts.txt": ["U+6C34\tkRSUnicode\t85.0"],
      "Unihan_Readings.txt": ["U+6C34\tkHangul\t수:0E"],
    });
    const entries = await readAll(readUnihanZip(await writeZip(files)), RECORD_PROPERTIES, "kHangul");
    expect(entries.map((e) => [e.property, e.file])).toEqual([
      ["kTotalStrokes", "Unihan_DictionaryLikeData.txt"],
      ["kRSUnicode", "Unihan_RadicalStrokeCounts.txt"],
      ["kHangul", "Unihan_Readings.txt"],
    ]);
  });

  it("accepts CRLF line ends, files in a folder, and extra Unihan files of a newer release", async () => {
    const files = Object.fromEntries(Object.entries(unihanFiles(WATER)).map(([name, text]) => [`Unihan/${name}`, text.replaceAll("\n", "\r\n")]));
    files["Unihan/Unihan_Extra.txt"] = "# Unicode Version 17.0.0\r\nU+6C34\tkNewProperty\tx\r\n";
    const reader = readUnihanZip(await writeZip(files));
    const entries = await readAll(reader);
    expect(entries.find((e) => e.property === "kHangul")?.value).toBe("수:0E");
    expect(entries.find((e) => e.property === "kNewProperty")).toMatchObject({ file: "Unihan_Extra.txt", line: 2, value: "x" });
    expect(reader.version().version).toBe("17.0.0");
  });

  it("keeps tabs-free values exactly, quotes included", async () => {
    const files = unihanFiles({ ...WATER, "Unihan_Readings.txt": ['U+6C34\tkDefinition\t"water", liquid', "U+6C34\tkHangul\t수:0E"] });
    const entries = await readAll(readUnihanZip(await writeZip(files)), RECORD_PROPERTIES, "kHangul");
    expect(entries.find((e) => e.property === "kDefinition")?.value).toBe('"water", liquid');
  });
});

describe("bad input fails with a message naming where and what", () => {
  it("a file that does not exist", async () => {
    const path = join(await tempDir(), "missing.zip");
    const error = await errorOf(() => readAll(readUnihanZip(path)));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe("unihan: cannot open missing.zip as a zip: file not found");
  });

  it("a file that is not a zip", async () => {
    const path = join(await tempDir(), "Unihan.zip");
    await writeFile(path, "U+6C34\tkHangul\t수:0E\n");
    const error = await errorOf(() => readAll(readUnihanZip(path)));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(/^unihan: cannot open Unihan\.zip as a zip: .*not a zip, or corrupt or truncated/);
  });

  it.each([0.5, 0.9, 0.999])("a zip truncated to %s of its length", async (fraction) => {
    const bytes = await readFile(SMALL_ZIP);
    const path = join(await tempDir(), "truncated.zip");
    await writeFile(path, bytes.subarray(0, Math.floor(bytes.length * fraction)));
    const error = await errorOf(() => readAll(readUnihanZip(path)));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(/^unihan: cannot open truncated\.zip as a zip/);
  });

  it.each([
    ["bytes flipped inside deflated data", 2000, 100],
    ["a few bytes damaged (still inflates)", 8000, 4],
  ])("a corrupt zip: %s", async (_, at, count) => {
    const bytes = Buffer.from(await readFile(SMALL_ZIP));
    for (let i = at; i < at + count; i++) bytes[i] = (bytes[i] ?? 0) ^ 0x5a;
    const path = join(await tempDir(), "corrupt.zip");
    await writeFile(path, bytes);
    const error = await errorOf(() => readAll(readUnihanZip(path)));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(
      /^unihan: (cannot decompress Unihan_\w+\.txt in corrupt\.zip|Unihan_\w+\.txt in corrupt\.zip fails its size or CRC-32 check)/,
    );
  });

  it.each(UNIHAN_FILES.map((f) => [f]))("a zip without %s", async (missing) => {
    const files = unihanFiles(WATER);
    delete files[missing];
    const error = await readError(files);
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toContain(`Unihan.zip has no ${missing}`);
  });

  it("a zip without any Unihan file", async () => {
    const error = await readError({ "README.txt": "nothing here" });
    expect(error.message).toContain("no Unihan_*.txt files");
  });

  it.each([
    ["spaces instead of tabs", "U+6C34 kHangul 수:0E", "expected U+XXXX<TAB>kProperty<TAB>value"],
    ["a missing value", "U+6C34\tkHangul", "expected U+XXXX<TAB>kProperty<TAB>value"],
    ["an extra field", "U+6C34\tkHangul\t수:0E\tx", "expected U+XXXX<TAB>kProperty<TAB>value"],
    ["an empty value", "U+6C34\tkHangul\t", "empty value for kHangul"],
    ["a bad code point", "U+6C3G\tkHangul\t수:0E", "expected U+XXXX<TAB>kProperty<TAB>value"],
    ["a lower-case code point", "U+6c34\tkHangul\t수:0E", "expected U+XXXX<TAB>kProperty<TAB>value"],
    ["no U+", "6C34\tkHangul\t수:0E", "expected U+XXXX<TAB>kProperty<TAB>value"],
    ["a bad property name", "U+6C34\tHangul\t수:0E", 'bad property name "Hangul"'],
  ])("a malformed line: %s", async (_, line, why) => {
    const files = unihanFiles({ ...WATER, "Unihan_Readings.txt": ["U+6C34\tkDefinition\twater", line, "U+6C34\tkHangul\t수:0E"] });
    const error = await readError(files);
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(`unihan: malformed line at Unihan_Readings.txt:5: ${why}: ${JSON.stringify(line)}`);
  });

  it("a kept line that is not UTF-8 (it would be published), naming file and line", async () => {
    const files: Record<string, string | Buffer> = unihanFiles({ ...WATER, "Unihan_Readings.txt": ["U+6C34\tkDefinition\t@@water", "U+6C34\tkHangul\t수:0E"] });
    const text = files["Unihan_Readings.txt"] as string;
    const at = Buffer.from(text.slice(0, text.indexOf("@@")), "utf8").length;
    const bytes = Buffer.from(text, "utf8");
    bytes[at] = 0xff;
    bytes[at + 1] = 0xfe;
    files["Unihan_Readings.txt"] = bytes;
    const error = await readError(files);
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(
      'unihan: malformed line at Unihan_Readings.txt:4: not valid UTF-8 (shown with U+FFFD where the bytes are bad): "U+6C34\\tkDefinition\\t\uFFFD\uFFFDwater"',
    );
  });

  it.each([
    ["a surrogate", "U+D800"],
    ["past U+10FFFF", "U+110000"],
  ])("a code point that is no Unicode scalar value: %s", async (_, cp) => {
    const error = await readError(unihanFiles({ ...WATER, "Unihan_Readings.txt": [...WATER["Unihan_Readings.txt"], `${cp}\tkHangul\t가:0`] }));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(
      `unihan: malformed line at Unihan_Readings.txt:6: ${cp} is not a Unicode scalar value: ${JSON.stringify(`${cp}\tkHangul\t가:0`)}`,
    );
  });

  it("a malformed line is reported before a bad value earlier in the same file", async () => {
    const files = unihanFiles({ ...WATER, "Unihan_Readings.txt": ["U+6C34\tkHangul\t", "U+6C34\tkDefinition water"] });
    const error = await readError(files);
    expect(error.message).toBe('unihan: malformed line at Unihan_Readings.txt:5: expected U+XXXX<TAB>kProperty<TAB>value: "U+6C34\\tkDefinition water"');
  });

  it("a malformed line of a property the build does not read", async () => {
    const files = unihanFiles({ ...WATER, "Unihan_DictionaryIndices.txt": ["U+6C34\tkKangXi\t0608.010", "U+6C34 kMorohashi 17078"] });
    const error = await readError(files);
    expect(error.message).toBe('unihan: malformed line at Unihan_DictionaryIndices.txt:5: expected U+XXXX<TAB>kProperty<TAB>value: "U+6C34 kMorohashi 17078"');
  });

  it("a malformed line of a code point without kHangul, read unfiltered", async () => {
    const files = unihanFiles({ ...WATER, "Unihan_Readings.txt": ["U+3400\tkDefinition\thillock", "U+34ZZ\tkDefinition\tx"] });
    const error = await readError(files, null);
    expect(error.message).toBe('unihan: malformed line at Unihan_Readings.txt:5: expected U+XXXX<TAB>kProperty<TAB>value: "U+34ZZ\\tkDefinition\\tx"');
  });

  it.each([
    ["three hex digits", "U+4E0\tkDefinition\tone"],
    ["seven hex digits", "U+0003400\tkDefinition\thillock"],
    ["eight hex digits", "U+00003400\tkDefinition\thillock"],
    ["a bad hex digit", "U+34G0\tkDefinition\thillock"],
  ])("a misspelt code point on a line the build does not keep (%s): the build fails rather than drop the value", async (_, line) => {
    const error = await readError(unihanFiles({ ...WATER, "Unihan_Readings.txt": ["U+6C34\tkDefinition\twater", line, "U+6C34\tkHangul\t수:0E"] }));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(`unihan: malformed line at Unihan_Readings.txt:5: expected U+XXXX<TAB>kProperty<TAB>value: ${JSON.stringify(line)}`);
  });

  it("a code point past U+10FFFF on a line the build does not keep", async () => {
    const error = await readError(
      unihanFiles({ ...WATER, "Unihan_Readings.txt": ["U+6C34\tkDefinition\twater", "U+110000\tkDefinition\tx", "U+6C34\tkHangul\t수:0E"] }),
    );
    expect(error.message).toBe('unihan: malformed line at Unihan_Readings.txt:5: U+110000 is not a Unicode scalar value: "U+110000\\tkDefinition\\tx"');
  });

  it("shortens a very long malformed line in the message", async () => {
    const line = `U+6C34 ${"x".repeat(500)}`;
    const error = await readError(unihanFiles({ ...WATER, "Unihan_Readings.txt": [line] }));
    expect(error.message).toContain(`${JSON.stringify(`${line.slice(0, 120)}…`)}`);
    expect(error.message.length).toBeLessThan(250);
  });

  it("zip bytes built here are valid (guards the helpers)", async () => {
    expect((await zipBytes({ a: "b" })).subarray(0, 2).toString("latin1")).toBe("PK");
  });
});
