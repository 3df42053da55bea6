import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApp } from "../../runtime/core/app.ts";
import { DIST_FILES, RUNTIME_FILES } from "../../runtime/format/dist.ts";
import { loadData } from "../../runtime/core/data/load.ts";
import { ROOT, distFiles, distText } from "../helpers/app.ts";
import { CHARACTERS, EDUCATION_HANJA, NAME_HANJA } from "../helpers/pin.ts";

describe("loading dist/", () => {
  it("slices every record from its detail body exactly as the pipeline wrote characters.jsonl", () => {
    const data = loadData(distFiles());
    const written = readFileSync(join(ROOT, "dist", DIST_FILES.characters), "utf8")
      .trimEnd()
      .split("\n");
    expect(data.characters.records.length).toBe(CHARACTERS);
    expect(data.characters.records).toEqual(written);
  });

  it("finds every character's position by binary search as the map does, and nothing for anything else", () => {
    const { characters } = loadData(distFiles());
    expect(characters.characters.filter((c, i) => characters.position(c) !== i || characters.positionOf.get(c) !== i)).toEqual([]);
    for (const other of ["", "a", "水水", "\uD800", "\u{10FFFF}", "가"]) expect(characters.position(other)).toBeUndefined();
  });

  it("refuses tables whose characters are not in code point order", () => {
    const tables = JSON.parse(distText(DIST_FILES.tables)) as { characters: string[] };
    const [first, second, ...rest] = tables.characters;
    const swapped = JSON.stringify({ ...tables, characters: [second, first, ...rest] });
    expect(() => createApp({ dist: { ...distFiles(), [DIST_FILES.tables]: swapped } })).toThrow(
      /tables\.json character 2 .* is not one code point after the one before/,
    );
  });

  it("does not read characters.jsonl at run time", () => {
    expect(RUNTIME_FILES).not.toContain(DIST_FILES.characters);
    expect(Object.keys(distFiles())).not.toContain(DIST_FILES.characters);
  });

  it("measures its counts from the loaded data", () => {
    const data = loadData(distFiles());
    expect(data.counts).toMatchObject({
      characters: CHARACTERS,
      starters: 128,
      education_hanja: EDUCATION_HANJA,
      middle_school_hanja: 900,
      high_school_hanja: 900,
      name_hanja: NAME_HANJA,
      idioms: data.idioms.idioms.length,
    });
  });

  it("refuses an unknown format version, and a missing file, with a message saying what to do", () => {
    const manifest = JSON.parse(distText(DIST_FILES.manifest)) as Record<string, unknown>;
    expect(() => createApp({ dist: { ...distFiles(), [DIST_FILES.manifest]: JSON.stringify({ ...manifest, format: 999 }) } })).toThrow(
      /format 999 .*npm run build/,
    );
    const { [DIST_FILES.tables]: _dropped, ...rest } = distFiles();
    expect(() => createApp({ dist: rest })).toThrow(/tables\.json is missing/);
  });

  it("refuses details whose count does not match the tables", () => {
    const details = distText(DIST_FILES.details).split("\n").slice(1).join("\n");
    expect(() => createApp({ dist: { ...distFiles(), [DIST_FILES.details]: details } })).toThrow(/do not match/);
  });
});
