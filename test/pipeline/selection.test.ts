/**
 * The zip reader's selection (`onlyWith: "kHangul"`): it reads the property's usual file first and
 * scans the others as they inflate; a release that moves the property to another file must give
 * the same entries.
 */
import { describe, expect, it } from "vitest";
import { readUnihanZip } from "../../pipeline/load/unihanZip.ts";
import { RECORD_PROPERTIES } from "../../pipeline/parse/hanjaRecords.ts";
import { readAll, unihanFiles, writeZip } from "./helpers.ts";

const KEY = (e: { codepoint: number; property: string; value: string }) => `${e.codepoint}|${e.property}|${e.value}`;

const TREE = {
  "Unihan_IRGSources.txt": [
    "U+6728\tkRSUnicode\t75.0",
    "U+6728\tkTotalStrokes\t4",
    "U+6C34\tkRSUnicode\t85.0",
    "U+6C34\tkTotalStrokes\t4",
    "U+9F98\tkRSUnicode\t212.16",
    "U+9F98\tkTotalStrokes\t32",
  ],
  "Unihan_Readings.txt": [
    "U+6728\tkDefinition\ttree",
    "U+6728\tkHangul\t목:0E",
    "U+6C34\tkDefinition\twater",
    "U+6C34\tkHangul\t수:0E",
    "U+9F98\tkDefinition\tdragon",
  ],
  "Unihan_Variants.txt": ["U+6C34\tkSemanticVariant\tU+6C35<kMatthews", "U+9F98\tkSemanticVariant\tU+9F8D"],
} as const;

describe("selection by kHangul", () => {
  it("keeps only the code points with kHangul, from every file", async () => {
    const entries = await readAll(readUnihanZip(await writeZip(unihanFiles(TREE))), RECORD_PROPERTIES, "kHangul");
    expect(new Set(entries.map((e) => e.codepoint))).toEqual(new Set([0x6728, 0x6c34]));
    expect(entries.map(KEY).sort()).toEqual(
      [
        "26408|kDefinition|tree",
        "26408|kHangul|목:0E",
        "26408|kRSUnicode|75.0",
        "26408|kTotalStrokes|4",
        "27700|kDefinition|water",
        "27700|kHangul|수:0E",
        "27700|kRSUnicode|85.0",
        "27700|kTotalStrokes|4",
        "27700|kSemanticVariant|U+6C35<kMatthews",
      ].sort(),
    );
  });

  it("gives the same entries when a release moves kHangul to another file, even partly", async () => {
    const expected = (await readAll(readUnihanZip(await writeZip(unihanFiles(TREE))), RECORD_PROPERTIES, "kHangul")).map(KEY).sort();
    const readings = TREE["Unihan_Readings.txt"];
    // 木's kHangul moves to the last file read; 水's stays.
    const moved = unihanFiles({
      ...TREE,
      "Unihan_Readings.txt": readings.filter((l) => !l.startsWith("U+6728\tkHangul")),
      "Unihan_Variants.txt": [...TREE["Unihan_Variants.txt"], "U+6728\tkHangul\t목:0E"],
    });
    const entries = await readAll(readUnihanZip(await writeZip(moved)), RECORD_PROPERTIES, "kHangul");
    expect(entries.map(KEY).sort()).toEqual(expected);
    // …and when every kHangul lives elsewhere.
    const away = unihanFiles({
      ...TREE,
      "Unihan_Readings.txt": readings.filter((l) => !l.includes("kHangul")),
      "Unihan_OtherMappings.txt": readings.filter((l) => l.includes("kHangul")),
    });
    expect((await readAll(readUnihanZip(await writeZip(away)), RECORD_PROPERTIES, "kHangul")).map(KEY).sort()).toEqual(expected);
  });
});
