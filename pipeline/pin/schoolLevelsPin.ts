/**
 * The pinned school levels: the 중학교용 / 고등학교용 split of the 1,800 education hanja as okpyeon
 * (github.com/jjm4000/okpyeon) compiles it, data under CC BY-SA 4.0. Only that split is kept, in
 * `pipeline/data/okpyeon/school-levels.csv` (`character,lvl`, the characters whose `lvl` is `m` or
 * `h` in okpyeon's `extension/data/hanja.json`, code point order), with `pin.json` beside it: the
 * repository, commit and path it was taken from, the source file's SHA-256, the extract's SHA-256
 * and its counts. `npm run pin:school-levels -- <hanja.json>` writes both from the published file;
 * the build refuses an extract whose hash or counts are not the pin's.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseCsvTable } from "../load/csvTable.ts";
import { InputError } from "../load/types.ts";
import { sha256 } from "../write/writeDist.ts";

/** The folder holding the extract, its pin, okpyeon's data licence and attribution. */
export const SCHOOL_LEVELS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../data/okpyeon");
export const SCHOOL_LEVELS_FILE = "school-levels.csv";
export const SCHOOL_LEVELS_PIN_FILE = "pin.json";
export const SCHOOL_LEVEL_COLUMNS = ["character", "lvl"] as const;

/** okpyeon's values: `m` 중학교용, `h` 고등학교용 (its `a` and `r` are outside the 1,800 and not kept). */
export type SourceLevel = "m" | "h";

/** `pin.json`. */
export interface SchoolLevelsPin {
  /** The extract's file name in the pin folder. */
  file: string;
  /** SHA-256 of the extract, hex. */
  sha256: string;
  /** Where the extract was taken from: repository, commit, path, the file's SHA-256 and its licence. */
  source: { repository: string; commit: string; path: string; sha256: string; url: string; license: string };
  /** Characters per level in the extract. */
  counts: Record<SourceLevel, number>;
}

/** The extract of okpyeon's `hanja.json` text: its `m` and `h` characters, code point order, as CSV. */
export function extractSchoolLevels(hanjaJson: string): string {
  const { chars } = JSON.parse(hanjaJson) as { chars: Record<string, { lvl?: string }> };
  const rows = Object.entries(chars)
    .filter(([, entry]) => entry.lvl === "m" || entry.lvl === "h")
    .sort(([a], [b]) => (a.codePointAt(0) as number) - (b.codePointAt(0) as number))
    .map(([character, entry]) => `${character},${entry.lvl}`);
  return `${SCHOOL_LEVEL_COLUMNS.join(",")}\n${rows.join("\n")}\n`;
}

/** The characters of an extract by level, each row checked (one character, `m` or `h`, no repeat). */
export function parseSchoolLevels(text: string, file = SCHOOL_LEVELS_FILE): Map<string, SourceLevel> {
  const levels = new Map<string, SourceLevel>();
  const problems: string[] = [];
  for (const { line, values } of parseCsvTable(file, text, SCHOOL_LEVEL_COLUMNS)) {
    const { character, lvl } = values;
    if ([...character].length !== 1) problems.push(`${file}:${line}: ${JSON.stringify(character)} is not one character`);
    else if (lvl !== "m" && lvl !== "h") problems.push(`${file}:${line}: lvl ${JSON.stringify(lvl)} is neither m nor h`);
    else if (levels.has(character)) problems.push(`${file}:${line}: ${character} is listed twice`);
    else levels.set(character, lvl);
  }
  if (problems.length > 0) throw new InputError(problems.join("\n"));
  return levels;
}

/** The counts of an extract by level. */
export function schoolLevelCounts(levels: ReadonlyMap<string, SourceLevel>): Record<SourceLevel, number> {
  const counts = { m: 0, h: 0 };
  for (const level of levels.values()) counts[level]++;
  return counts;
}

/** Reads and checks `pin.json` in `dir`, naming the file and field at fault. */
export function readSchoolLevelsPin(dir = SCHOOL_LEVELS_DIR): SchoolLevelsPin {
  const path = join(dir, SCHOOL_LEVELS_PIN_FILE);
  if (!existsSync(path)) throw new InputError(`${path}: missing; it pins the school levels the build uses (npm run pin:school-levels writes it)`);
  const pin = JSON.parse(readFileSync(path, "utf8")) as Partial<SchoolLevelsPin>;
  if (typeof pin.file !== "string" || !/^[0-9a-f]{64}$/.test(pin.sha256 ?? "") || typeof pin.source?.commit !== "string") {
    throw new InputError(`${path}: needs "file", a hex "sha256" and "source" (repository, commit, path, sha256, url, license)`);
  }
  if (typeof pin.counts?.m !== "number" || typeof pin.counts?.h !== "number") throw new InputError(`${path}: "counts" needs "m" and "h"`);
  return pin as SchoolLevelsPin;
}

/**
 * The pinned extract, verified: its SHA-256 and counts must be the pin's. Returns the levels, the
 * hash for the manifest and a line for the build's summary.
 */
export function readSchoolLevels(dir = SCHOOL_LEVELS_DIR): { levels: Map<string, SourceLevel>; hash: string; summary: string } {
  const pin = readSchoolLevelsPin(dir);
  const path = join(dir, pin.file);
  if (!existsSync(path)) throw new InputError(`${path}: missing; ${SCHOOL_LEVELS_PIN_FILE} pins it`);
  const bytes = readFileSync(path);
  const hash = sha256(bytes);
  if (hash !== pin.sha256)
    throw new InputError(`${path}: SHA-256 ${hash} is not the pinned ${pin.sha256}; run npm run pin:school-levels on the published file`);
  const levels = parseSchoolLevels(new TextDecoder("utf-8", { fatal: true }).decode(bytes), pin.file);
  const counts = schoolLevelCounts(levels);
  if (counts.m !== pin.counts.m || counts.h !== pin.counts.h) {
    throw new InputError(`${path}: ${counts.m} m and ${counts.h} h, the pin says ${pin.counts.m} and ${pin.counts.h}`);
  }
  const summary = `${pin.file}: ${counts.m} middle, ${counts.h} high (okpyeon ${pin.source.commit.slice(0, 7)})`;
  return { levels, hash, summary };
}
