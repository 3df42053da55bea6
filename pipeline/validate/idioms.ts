import type { HanjaRecord, IdiomRecord } from "../../runtime/format/records.ts";
import { chosung, initialSoundForms, isSyllable } from "../../runtime/format/hangul.ts";
import type { CsvRow } from "../load/csvTable.ts";
import { InputError } from "../load/types.ts";
import { giveaways } from "./giveaways.ts";

export const IDIOM_COLUMNS = ["idx", "hanja", "hangul", "literal", "meaning"] as const;
export type IdiomRow = CsvRow<(typeof IDIOM_COLUMNS)[number]>;

/** Bounds on an idiom's meaning, in code points. */
export const MEANING_LENGTH = { min: 5, max: 80 } as const;
/** Bounds on an idiom's literal reading (when it has one), in code points. */
export const LITERAL_LENGTH = { min: 4, max: 120 } as const;

/**
 * A reading the dictionary gives an idiom's character that Unihan's `kHangul` does not list
 * (143 琴瑟之樂: the standard headword is 금실지락, while 瑟 reads 슬), from reading-exceptions.csv.
 */
export interface ReadingException {
  idx: number;
  character: string;
  reading: string;
}

/**
 * The spellings a character with `readings` may take at `position` in an idiom. The initial-sound
 * law (두음법칙) changes the first syllable of a word, not one inside it: 落落長松 is 낙락장송, the
 * first 落 낙 and the second 락. Unihan often lists the law's form as a reading of its own (兩 량
 * and 양), so inside the idiom such a form counts as the law's too and is refused. An idiom made of
 * two words whose second starts with a changed syllable (一目瞭然 일목요연: 요연하다 is a headword
 * of its own) is listed in reading-exceptions.csv with its dictionary source, so a wrong spelling
 * cannot pass as the law.
 */
function spellings(readings: readonly string[], position: number): string[] {
  if (position === 0) return readings.flatMap(initialSoundForms);
  return readings.filter((r) => !readings.some((other) => other !== r && initialSoundForms(other).includes(r)));
}

/**
 * Checks every idiom row against docs/rules.md "Source data" and the giveaway rules (see `giveaways`) and returns the
 * idioms in `idx` order. Fails with the full list of bad rows (file, line, value, rule) rather than
 * the first one. `exceptions` are the documented readings outside `kHangul`; one that no row uses
 * is reported too, so the list cannot go stale.
 */
export function validateIdioms(
  rows: IdiomRow[],
  byCharacter: ReadonlyMap<string, HanjaRecord>,
  file = "idioms.csv",
  exceptions: readonly ReadingException[] = [],
): IdiomRecord[] {
  const problems: string[] = [];
  const unused = new Set(exceptions);
  const excepted = (idx: number, ch: string, syllable: string) => {
    const hit = exceptions.find((e) => e.idx === idx && e.character === ch && e.reading === syllable);
    if (hit) unused.delete(hit);
    return hit !== undefined;
  };
  const byIdx = new Map<number, number>();
  const byHanja = new Map<string, number>();
  const idioms: IdiomRecord[] = [];
  if (rows.length === 0) problems.push(`${file}:2: no idioms after the header`);
  for (const { line, values } of rows) {
    const bad = (why: string) => problems.push(`${file}:${line}: ${why}`);
    const { idx: idxText, hanja, hangul, literal, meaning } = values;
    const idx = /^[1-9]\d{0,5}$/.test(idxText) ? Number(idxText) : Number.NaN;
    if (Number.isNaN(idx)) bad(`idx ${JSON.stringify(idxText)} is not a positive integer`);
    else if (byIdx.has(idx)) bad(`idx ${idx} repeats line ${byIdx.get(idx)}`);
    else byIdx.set(idx, line);
    const chars = [...hanja];
    const syllables = [...hangul];
    if (chars.length !== 4) bad(`hanja ${JSON.stringify(hanja)} is not four characters`);
    if (syllables.length !== 4 || !syllables.every(isSyllable)) bad(`hangul ${JSON.stringify(hangul)} is not four Hangul syllables`);
    if (chars.length === 4 && syllables.length === 4) {
      chars.forEach((ch, i) => {
        const record = byCharacter.get(ch);
        const syllable = syllables[i] ?? "";
        if (!record) bad(`${JSON.stringify(ch)} in ${hanja} is not in the character dataset`);
        else if (!spellings(record.readings, i).includes(syllable) && !excepted(idx, ch, syllable)) {
          const lawForm = i > 0 && record.readings.some((r) => initialSoundForms(r).includes(syllable));
          bad(
            lawForm
              ? `${syllable} is the initial-sound (두음법칙) form of ${ch} (${record.readings.join(", ")}) inside ${hanja} ${hangul}, where the law does not apply; if the dictionary spells the idiom so, list it in reading-exceptions.csv with that source`
              : `${syllable} is not a reading of ${ch} (${record.readings.join(", ")}) in ${hanja} ${hangul}`,
          );
        }
      });
    }
    const key = hanja.normalize("NFKC");
    if (byHanja.has(key)) bad(`${hanja} repeats line ${byHanja.get(key)}`);
    else byHanja.set(key, line);
    const length = [...meaning.trim()].length;
    if (meaning !== meaning.trim()) bad(`meaning has leading or trailing spaces: ${JSON.stringify(meaning)}`);
    if (length < MEANING_LENGTH.min || length > MEANING_LENGTH.max) {
      bad(`meaning of ${hanja} is ${length} characters (allowed ${MEANING_LENGTH.min}–${MEANING_LENGTH.max})`);
    }
    for (const why of giveaways(hanja, hangul, meaning)) bad(`meaning of ${idxText} ${hanja} ${hangul} ${why}: ${JSON.stringify(meaning)}`);
    if (literal !== literal.trim()) bad(`literal has leading or trailing spaces: ${JSON.stringify(literal)}`);
    const literalLength = [...literal].length;
    if (literal !== "" && (literalLength < LITERAL_LENGTH.min || literalLength > LITERAL_LENGTH.max)) {
      bad(
        `literal of ${hanja} is ${literalLength} characters (allowed ${LITERAL_LENGTH.min}–${LITERAL_LENGTH.max}; empty when the idiom means just what its characters say)`,
      );
    }
    if (literal !== "" && literal === meaning)
      bad(`literal of ${hanja} repeats its meaning; leave literal empty when the idiom means just what its characters say`);
    // The English meaning is joined from idioms-en.csv once the idioms are known (englishMeanings.ts).
    idioms.push({ idx, hanja, hangul, chosung: chosung(hangul), literal: literal === "" ? null : literal, meaning, meaning_en: null });
  }
  // A published idx is never removed or renumbered: the idx values run 1…n without gaps. (Checked
  // once every idx is a distinct number, so a bad idx is not reported twice.)
  if (byIdx.size === rows.length) {
    let previous = 0;
    for (const idx of [...byIdx.keys()].sort((a, b) => a - b)) {
      if (idx > previous + 1) {
        const missing = idx === previous + 2 ? `${previous + 1} is` : `${previous + 1}…${idx - 1} are`;
        problems.push(`${file}:${byIdx.get(idx)}: idx ${idx} leaves a gap: ${missing} missing (idx runs 1…n; a published idx is never removed)`);
      }
      previous = idx;
    }
  }
  for (const e of unused)
    problems.push(`reading-exceptions.csv: ${e.idx} ${e.character} ${e.reading} is not used by ${file} (the idiom's hangul no longer needs it): remove it`);
  if (problems.length > 0) throw new InputError(`${file}: ${problems.length} bad row(s):\n  ${problems.join("\n  ")}`);
  return idioms.sort((a, b) => a.idx - b.idx);
}
