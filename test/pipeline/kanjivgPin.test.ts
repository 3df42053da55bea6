/**
 * KanjiVG's Japanese forms (`pipeline/pin/kanjivgPin.ts`, pipeline/data/kanjivg/README.md): the plain
 * files only, the stroke paths in the order of their numbers, each centre line moved into Make Me a
 * Hanzi's frame as a median (outline null); the build refuses a changed extract, and a path or file
 * it cannot read, naming where.
 */
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { KANJIVG_DIR, kanjiVgEntry, plainKanjiFiles, readKanjiVg, samplePath } from "../../pipeline/pin/kanjivgPin.ts";
import { strokesLine } from "../../pipeline/pin/strokesPin.ts";
import { tempDir } from "./helpers.ts";

/** KanjiVG's frame into Make Me a Hanzi's, as the README states it. */
const frame = (x: number, y: number) => [Math.round((x * 1024) / 109), Math.round(900 - (y * 1024) / 109)];

describe("KanjiVG's Japanese forms", () => {
  test("the pinned extract: 値's ten strokes as medians in the 1024 frame, outline null, under CC BY-SA 3.0; a character it lacks is left out", () => {
    const { strokes, summary } = readKanjiVg(["値", "水"]);
    expect(summary).toBe("kanjivg-strokes.jsonl: 631 Japanese forms (KanjiVG 1957802), 1 used");
    expect(strokes.has("水")).toBe(false);
    const ne = strokes.get("値");
    expect(ne?.source).toMatchObject({ name: "KanjiVG", form: "ja", license: "CC-BY-SA-3.0" });
    expect(ne?.strokes).toBe(null);
    expect(ne?.medians).toHaveLength(10);
    expect(ne?.medians[0]?.[0]).toEqual(frame(35, 15.5));
    const body = JSON.parse(strokesLine("値", ne as NonNullable<typeof ne>));
    expect(body.form).toBe("ja");
    expect(body.strokes[0].outline).toBe(null);
    expect(body.strokes[0].median).toEqual(ne?.medians[0]);
    expect(body.source.attribution).toContain("KanjiVG (https://kanjivg.tagaini.net");
  });

  test("a changed extract is refused by its hash", async () => {
    const dir = await tempDir();
    for (const name of ["pin.json", "kanjivg-strokes.jsonl"]) await copyFile(join(KANJIVG_DIR, name), join(dir, name));
    const text = await readFile(join(dir, "kanjivg-strokes.jsonl"), "utf8");
    await writeFile(join(dir, "kanjivg-strokes.jsonl"), text.replace("M35,15.5c", "M36,15.5c"));
    expect(() => readKanjiVg(["値"], dir)).toThrow(/kanjivg-strokes\.jsonl: SHA-256 [0-9a-f]{64} is not the pinned 35e76987.*run npm run pin:kanjivg/);
  });

  test("only the plain kanji/<code point>.svg files are taken, never a variant such as -Kaisho", () => {
    const listing = [
      "100644 blob aaaa\tkanji/05024-Kaisho.svg",
      "100644 blob bbbb\tkanji/05024.svg",
      "100644 blob cccc\tkanji/06c34-Jinmei.svg",
      "100644 blob dddd\tkanji/2e569.svg",
    ].join("\n");
    expect([...plainKanjiFiles(listing)]).toEqual([
      ["値", { path: "kanji/05024.svg", blob: "bbbb" }],
      ["𮕩", { path: "kanji/2e569.svg", blob: "dddd" }],
    ]);
  });

  test("a file's stroke paths are taken in the order of their numbers; paths of another character, or numbers with a gap, are refused", () => {
    const svg = (ids: string[]) => `<svg><g>${ids.map((id, i) => `<path id="kvg:${id}" kvg:type="㇐" d="M${10 + i},20c5,0,10,0,20,0"/>`).join("\n")}</g></svg>`;
    const entry = kanjiVgEntry("値", "kanji/05024.svg", svg(["05024-s2", "05024-s1", "05024-g1-s9"]));
    expect(entry.strokes).toEqual(["M11,20c5,0,10,0,20,0", "M10,20c5,0,10,0,20,0"]);
    expect(entry.file).toBe("kanji/05024.svg");
    expect(entry.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(() => kanjiVgEntry("値", "kanji/05024.svg", svg(["05024-s1", "05024-s3"]))).toThrow(
      "kanji/05024.svg: its stroke paths (kvg:05024-s1…) are missing or not numbered 1 to 2",
    );
    expect(() => kanjiVgEntry("値", "kanji/05024.svg", svg(["06c34-s1"]))).toThrow("kanji/05024.svg: its stroke paths");
  });

  test("a centre line: absolute and relative curves, S's reflected control, a straight run kept as its two ends", () => {
    // A straight line drawn as a curve: its ends only.
    expect(samplePath("M10,20c5,0,10,0,20,0", "x")).toEqual([frame(10, 20), frame(30, 20)]);
    expect(samplePath("M10,20C15,20,20,20,30,20", "x")).toEqual([frame(10, 20), frame(30, 20)]);
    // A quarter bend: more points, each on the curve, the ends exact.
    const bend = samplePath("M10,10c0,20,0,20,20,20", "x");
    expect(bend.length).toBeGreaterThan(3);
    expect(bend[0]).toEqual(frame(10, 10));
    expect(bend.at(-1)).toEqual(frame(30, 30));
    // s reflects the previous control point: c then s makes one smooth S-bend ending where it says.
    const s = samplePath("M0,0c10,0,10,10,10,10s0,10,10,10", "x");
    expect(s.at(-1)).toEqual(frame(20, 20));
    // Coordinates written without separators (KanjiVG's 0.87-0.01) read as two numbers.
    expect(samplePath("M1.5,2c0.87-0.01,1.5.5,3,0", "x").at(-1)).toEqual(frame(4.5, 2));
  });

  test("a path with a command the build does not read, or not starting with M, is refused naming where", () => {
    expect(() => samplePath("M10,10a5,5,0,0,1,10,10", "kanji/x.svg")).toThrow(
      'kanji/x.svg: path "M10,10a5,5,0,0,1,10,10…" uses a, which the build does not read',
    );
    expect(() => samplePath("c1,2,3,4,5,6", "kanji/x.svg")).toThrow('kanji/x.svg: path "c1,2,3,4,5,6" does not start with M');
  });
});
