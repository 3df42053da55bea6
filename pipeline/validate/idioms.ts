import type { HanjaRecord, IdiomRecord } from "../../runtime/core/data/records.ts";
import { chosung, initialSoundForms, isSyllable } from "../../runtime/core/text/hangul.ts";
import type { CsvRow } from "../load/csvTable.ts";
import { InputError } from "../load/types.ts";

export const IDIOM_COLUMNS = ["idx", "hanja", "hangul", "meaning"] as const;
export type IdiomRow = CsvRow<(typeof IDIOM_COLUMNS)[number]>;

/** Bounds on an idiom's meaning, in code points. */
export const MEANING_LENGTH = { min: 15, max: 80 } as const;

/**
 * Checks every idiom row against SPEC §2 and returns the idioms in `idx` order. Fails with the full
 * list of bad rows (file, line, value, rule) rather than the first one.
 */
export function validateIdioms(rows: IdiomRow[], byCharacter: ReadonlyMap<string, HanjaRecord>, file = "idioms.csv"): IdiomRecord[] {
  const problems: string[] = [];
  const byIdx = new Map<number, number>();
  const byHanja = new Map<string, number>();
  const idioms: IdiomRecord[] = [];
  if (rows.length === 0) problems.push(`${file}:2: no idioms after the header`);
  for (const { line, values } of rows) {
    const bad = (why: string) => problems.push(`${file}:${line}: ${why}`);
    const { idx: idxText, hanja, hangul, meaning } = values;
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
        else if (!record.readings.some((r) => initialSoundForms(r).includes(syllable))) {
          bad(`${syllable} is not a reading of ${ch} (${record.readings.join(", ")}) in ${hanja} ${hangul}`);
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
    idioms.push({ idx, hanja, hangul, chosung: chosung(hangul), meaning });
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
  if (problems.length > 0) throw new InputError(`${file}: ${problems.length} bad row(s):\n  ${problems.join("\n  ")}`);
  return idioms.sort((a, b) => a.idx - b.idx);
}
