/**
 * `npm run pin:school-levels -- <hanja.json> [--words <words.json>] --commit <sha>`: writes
 * pipeline/data/okpyeon/school-levels.csv (the `m` and `h` characters of okpyeon's
 * `extension/data/hanja.json`) and its pin.json from the published file at that commit
 * (`git show <commit>:extension/data/hanja.json > hanja.json`), and with `--words` the words'
 * English glosses (`extension/data/words.json` → words-en.tsv and words-en.pin.json).
 * Review the counts it prints and the diff of the files, then `npm test`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { pinText } from "../pipeline/pin/computePin.ts";
import {
  SCHOOL_LEVELS_DIR,
  SCHOOL_LEVELS_FILE,
  SCHOOL_LEVELS_PIN_FILE,
  type SchoolLevelsPin,
  extractSchoolLevels,
  parseSchoolLevels,
  schoolLevelCounts,
} from "../pipeline/pin/schoolLevelsPin.ts";
import { WORD_GLOSSES_FILE, WORD_GLOSSES_PIN_FILE, extractWordGlosses, wordGlossesPin } from "../pipeline/pin/wordGlossesPin.ts";
import { sha256 } from "../pipeline/write/writeDist.ts";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { commit: { type: "string" }, words: { type: "string" } } });
const [path] = positionals;
if (path === undefined || values.commit === undefined || !/^[0-9a-f]{40}$/.test(values.commit)) {
  console.error("usage: npm run pin:school-levels -- <okpyeon's extension/data/hanja.json> --commit <its 40-hex commit>");
  process.exit(2);
}
const source = readFileSync(path);
const extract = extractSchoolLevels(source.toString("utf8"));
const repository = "https://github.com/jjm4000/okpyeon";
const file = "extension/data/hanja.json";
const pin: SchoolLevelsPin = {
  file: SCHOOL_LEVELS_FILE,
  sha256: sha256(new TextEncoder().encode(extract)),
  source: {
    repository,
    commit: values.commit,
    path: file,
    sha256: sha256(source),
    url: `${repository}/blob/${values.commit}/${file}`,
    license: "CC-BY-SA-4.0",
  },
  counts: schoolLevelCounts(parseSchoolLevels(extract)),
};
writeFileSync(join(SCHOOL_LEVELS_DIR, SCHOOL_LEVELS_FILE), extract);
writeFileSync(join(SCHOOL_LEVELS_DIR, SCHOOL_LEVELS_PIN_FILE), pinText(pin));
console.log(`pinned ${pin.file} ${pin.sha256}: ${pin.counts.m} middle, ${pin.counts.h} high, from ${file} ${pin.source.sha256}`);
if (values.words !== undefined) {
  const words = readFileSync(values.words);
  const glosses = extractWordGlosses(words.toString("utf8"));
  const wordsPin = wordGlossesPin(words, glosses, values.commit);
  writeFileSync(join(SCHOOL_LEVELS_DIR, WORD_GLOSSES_FILE), glosses);
  writeFileSync(join(SCHOOL_LEVELS_DIR, WORD_GLOSSES_PIN_FILE), pinText(wordsPin));
  console.log(
    `pinned ${wordsPin.file} ${wordsPin.sha256}: ${wordsPin.counts.entries} glossed entries of ${wordsPin.counts.words} words, from ${wordsPin.source.path} ${wordsPin.source.sha256}`,
  );
}
