/**
 * The English meanings (`idioms-en.csv`: `idx,hangul,meaning_en`), checked as the Korean ones are:
 * one for every idiom, naming it by idx and repeating its hangul; within length bounds; and giving
 * nothing away, since a quiz shows a meaning and asks for the idiom: no Hangul or Han character at
 * all, and no romanization of the idiom (its four syllables, or two neighbouring ones as a word).
 */
import type { IdiomRecord } from "../../runtime/format/records.ts";
import type { CsvRow } from "../load/csvTable.ts";
import { InputError } from "../load/types.ts";
import { idiomFinder } from "./idiomLists.ts";
import { romanize } from "./romanize.ts";

export const ENGLISH_FILE = "idioms-en.csv";
export const ENGLISH_COLUMNS = ["idx", "hangul", "meaning_en"] as const;
export type EnglishRow = CsvRow<(typeof ENGLISH_COLUMNS)[number]>;

/** Characters of an English meaning, counted in code points. */
export const ENGLISH_LENGTH = { min: 25, max: 160 } as const;

const KOREAN_OR_HAN = /[\p{Script=Hangul}\p{Script=Han}]/u;

/**
 * The idioms with their English meanings (`meaning_en`). An empty `rows` (no file) gives every
 * idiom null; otherwise every idiom must have exactly one, and every bad row fails the build, all
 * listed with file and line.
 */
export function joinEnglishMeanings(rows: readonly EnglishRow[], idioms: readonly IdiomRecord[]): IdiomRecord[] {
  const meanings = englishByIdx(rows, idioms);
  return idioms.map((idiom) => ({ ...idiom, meaning_en: meanings.get(idiom.idx) ?? null }));
}

/** The checked English meanings by idx (see `joinEnglishMeanings`). */
function englishByIdx(rows: readonly EnglishRow[], idioms: readonly IdiomRecord[]): Map<number, string> {
  const meanings = new Map<number, string>();
  if (rows.length === 0) return meanings;
  const problems: string[] = [];
  const find = idiomFinder(idioms, problems);
  for (const { line, values } of rows) {
    const bad = (why: string) => problems.push(`${ENGLISH_FILE}:${line}: ${why}`);
    const position = find(ENGLISH_FILE, line, values.idx, values.hangul);
    if (position === undefined) continue;
    const idiom = idioms[position] as IdiomRecord;
    if (meanings.has(idiom.idx)) bad(`idx ${idiom.idx} (${idiom.hangul}) has a second English meaning`);
    const why = meaningProblem(values.meaning_en, idiom);
    if (why !== null) bad(`idx ${idiom.idx} (${idiom.hangul}): meaning_en ${why}: ${JSON.stringify(values.meaning_en)}`);
    meanings.set(idiom.idx, values.meaning_en);
  }
  const missing = idioms.filter((idiom) => !meanings.has(idiom.idx));
  if (missing.length > 0) {
    problems.push(`${ENGLISH_FILE}: no English meaning for ${missing.length} idiom(s): ${missing.map((i) => `${i.idx} ${i.hangul}`).join(", ")}`);
  }
  if (problems.length > 0) throw new InputError(problems.join("\n"));
  return meanings;
}

/** Why an English meaning breaks a rule, or null. */
function meaningProblem(meaning: string, idiom: IdiomRecord): string | null {
  const length = [...meaning].length;
  if (meaning !== meaning.trim()) return "has spaces around it";
  if (length < ENGLISH_LENGTH.min || length > ENGLISH_LENGTH.max) {
    return `is ${length} characters long (${ENGLISH_LENGTH.min}–${ENGLISH_LENGTH.max})`;
  }
  if (KOREAN_OR_HAN.test(meaning)) return "contains Hangul or a Han character (it would give the idiom away)";
  const given = romanizedGiveaway(meaning, idiom.hangul);
  return given === null ? null : `romanizes the idiom (${given})`;
}

/**
 * A romanization of `hangul` found in `meaning`: the whole idiom (spaces and hyphens ignored), or
 * two neighbouring syllables standing as one word. Null when there is none.
 */
export function romanizedGiveaway(meaning: string, hangul: string): string | null {
  const syllables = [...hangul].map(romanize);
  const squeezed = meaning.toLowerCase().replace(/[\s-]/g, "");
  const whole = syllables.join("");
  if (squeezed.includes(whole)) return whole;
  const words = new Set(meaning.toLowerCase().split(/[^a-z]+/));
  for (let i = 0; i + 1 < syllables.length; i++) {
    const pair = `${syllables[i]}${syllables[i + 1]}`;
    if (words.has(pair)) return pair;
  }
  return null;
}
