/**
 * `npm run pin:kanjivg -- --repo <a clone of github.com/KanjiVG/kanjivg> --commit <40-hex commit>`:
 * writes pipeline/data/kanjivg/kanjivg-strokes.jsonl and its pin.json from KanjiVG's plain
 * `kanji/<code point>.svg` files at that commit (read with git, so the clone's work tree does not
 * matter; variants such as `-Kaisho` are never taken), and copies its licence text (COPYING). The
 * extract holds the dataset's characters (dist/characters.jsonl: build first) that neither animCJK
 * nor hanzi-writer-data draws. Review the counts it prints, then rebuild and test.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { pinText } from "../pipeline/pin/computePin.ts";
import { KANJIVG_DIR, KANJIVG_FILE, KANJIVG_PIN_FILE, type KanjiVgPin, kanjiVgEntry, plainKanjiFiles } from "../pipeline/pin/kanjivgPin.ts";
import { readStrokes } from "../pipeline/pin/strokesPin.ts";
import { sha256 } from "../pipeline/write/writeDist.ts";
import { DIST } from "./ensureDist.ts";

const { values } = parseArgs({ options: { repo: { type: "string" }, commit: { type: "string" } } });
if (values.repo === undefined || values.commit === undefined || !/^[0-9a-f]{40}$/.test(values.commit)) {
  console.error("usage: npm run pin:kanjivg -- --repo <KanjiVG clone> --commit <40-hex commit>");
  process.exit(2);
}
const { repo, commit } = values;
const git = (args: string[], input?: string): Buffer => {
  const result = spawnSync("git", ["-C", repo, ...args], { input, maxBuffer: 1 << 30 });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr.toString()}`);
  return result.stdout;
};

// The dataset's characters that the Arphic PL sources leave without strokes.
const characters = readFileSync(join(DIST, "characters.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => (JSON.parse(line) as { character: string }).character);
const drawn = readStrokes(characters).strokes;
const wanted = characters.filter((c) => !drawn.has(c));

// KanjiVG's plain files at the commit: kanji/<5 hex digits>.svg, by character.
const blobs = plainKanjiFiles(git(["ls-tree", commit, "kanji/"]).toString("utf8"));
const found = wanted.filter((c) => blobs.has(c));
// One `git cat-file --batch` for every file: `<blob> blob <size>\n<bytes>\n` each.
const batch = git(["cat-file", "--batch"], `${found.map((c) => blobs.get(c)?.blob).join("\n")}\n`);
let offset = 0;
const lines = found.map((character) => {
  const header = batch.subarray(offset, batch.indexOf(10, offset)).toString("utf8");
  const size = Number(header.split(" ")[2]);
  const start = offset + header.length + 1;
  offset = start + size + 1;
  const { path } = blobs.get(character) as { path: string };
  return `${JSON.stringify(kanjiVgEntry(character, path, batch.subarray(start, start + size).toString("utf8")))}\n`;
});
const extract = lines.join("");
writeFileSync(join(KANJIVG_DIR, KANJIVG_FILE), extract);
writeFileSync(join(KANJIVG_DIR, "COPYING.txt"), git(["show", `${commit}:COPYING`]));
const pin: KanjiVgPin = {
  repository: "https://github.com/KanjiVG/kanjivg",
  commit,
  path: "kanji/<code point, 5 hex digits>.svg (the plain files, no variant)",
  file: KANJIVG_FILE,
  sha256: sha256(extract),
  characters: found.length,
  license: "CC-BY-SA-3.0",
  selection: "the dataset's characters that neither animCJK nor hanzi-writer-data draws",
};
writeFileSync(join(KANJIVG_DIR, KANJIVG_PIN_FILE), pinText(pin));
console.log(`pinned ${KANJIVG_FILE} ${pin.sha256}: ${found.length} of the ${wanted.length} characters without other strokes (KanjiVG ${commit.slice(0, 7)})`);
