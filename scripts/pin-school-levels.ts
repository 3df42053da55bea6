/**
 * `npm run pin:school-levels -- <hanja.json> --commit <sha>`: writes pipeline/data/okpyeon/school-levels.csv
 * (the `m` and `h` characters of okpyeon's `extension/data/hanja.json`) and its pin.json from the
 * published file at that commit (`git show <commit>:extension/data/hanja.json > hanja.json`).
 * Review the counts it prints and the diff of both files, then `npm test`.
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
import { sha256 } from "../pipeline/write/writeDist.ts";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { commit: { type: "string" } } });
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
