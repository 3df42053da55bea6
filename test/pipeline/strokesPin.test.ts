/**
 * The pinned stroke data (`pipeline/pin/strokesPin.ts`, docs/api.md "Strokes"): animCJK's Korean
 * form first, else hanzi-writer-data's Chinese one, else none; the build refuses a changed animCJK
 * file, another installed hanzi-writer-data version and changed character files, each named; a
 * source entry whose outlines and medians do not pair is refused.
 */
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { STROKES_DIR, hanziWriterData, parseStrokes, readStrokes, strokeCoverage } from "../../pipeline/pin/strokesPin.ts";
import { tempDir } from "./helpers.ts";

async function pinnedCopy(): Promise<string> {
  const dir = await tempDir();
  for (const name of ["pin.json", "animcjk-graphicsKo.txt"]) await copyFile(join(STROKES_DIR, name), join(dir, name));
  return dir;
}

describe("the pinned stroke data", () => {
  test("animCJK's Korean form first, else hanzi-writer-data's Chinese one, else none", () => {
    const { strokes, summary } = readStrokes(["一", "丁", "値"]);
    expect(strokes.get("一")?.source.name).toBe("animCJK");
    expect(strokes.get("一")?.source.form).toBe("ko");
    expect(strokes.get("丁")?.source.name).toBe("hanzi-writer-data");
    expect(strokes.get("丁")?.source.form).toBe("zh");
    expect(strokes.has("値")).toBe(false);
    expect(strokes.get("丁")?.strokes?.length).toBe(strokes.get("丁")?.medians.length);
    expect(summary).toBe("animcjk-graphicsKo.txt: 535 Korean forms (animCJK ec5e17c); hanzi-writer-data 2.0.1: 1 characters");
    const coverage = strokeCoverage(
      [
        { character: "一", education_hanja: true },
        { character: "丁", education_hanja: false },
        { character: "値", education_hanja: true },
      ],
      strokes,
    );
    expect(coverage).toEqual({ all: { ko: 1, ja: 0, zh: 1, none: 1 }, education_hanja: { ko: 1, ja: 0, zh: 0, none: 1 } });
  });

  test("a changed animCJK file is refused by its hash", async () => {
    const dir = await pinnedCopy();
    const text = await readFile(join(dir, "animcjk-graphicsKo.txt"), "utf8");
    await writeFile(join(dir, "animcjk-graphicsKo.txt"), text.replace('"M512,368C', '"M513,368C'));
    expect(() => readStrokes(["一"], dir)).toThrow(/animcjk-graphicsKo\.txt: SHA-256 [0-9a-f]{64} is not the pinned 7e703f34/);
  });

  test("another installed version of hanzi-writer-data, or a changed character file, is refused", async () => {
    const dir = await pinnedCopy();
    const installed = hanziWriterData();
    expect(() => readStrokes(["一"], dir, { ...installed, version: "2.0.0" })).toThrow("hanzi-writer-data 2.0.0 is installed, the pin says 2.0.1: run npm ci");
    // A package folder with one character file changed (the others left out, so fewer files too).
    const fake = join(await tempDir(), "hanzi-writer-data");
    await mkdir(fake);
    const one = await readFile(join(installed.dir, "丁.json"), "utf8");
    await writeFile(join(fake, "丁.json"), one.replace("[", "[ "));
    expect(() => readStrokes(["丁"], dir, { dir: fake, version: "2.0.1" })).toThrow(
      /its 1 character files hash to [0-9a-f]{64}, the pin says 9574 files, 5424e195[0-9a-f]+; run npm ci/,
    );
  });

  test("an entry whose outlines and medians do not pair, or whose outline is not a path, is refused naming where", () => {
    expect(() => parseStrokes('{"strokes":["M 1 2 Z"],"medians":[]}', "x.json")).toThrow('x.json: needs "strokes" (SVG paths) and as many "medians"');
    expect(() => parseStrokes('{"strokes":["L 1 2"],"medians":[[[1,2]]]}', "x.json")).toThrow("x.json: needs");
    expect(parseStrokes('{"strokes":["M 1 2 Z"],"medians":[[[1,2],[3,4]]]}', "x.json").medians).toEqual([
      [
        [1, 2],
        [3, 4],
      ],
    ]);
  });
});
