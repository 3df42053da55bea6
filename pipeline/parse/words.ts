/**
 * The hanja words of libhangul's dictionary that the service serves (docs/rules.md "Words"): the
 * entries of two characters or more made only of the dataset's characters, one word per written
 * form with every reading the dictionary gives it, the South Korean standard spelling first, and
 * how many other words contain each (the order they are listed in, `format/words.ts`, ranks by it).
 */
import { jamoOf } from "../../runtime/format/hangul.ts";
import { PLACE_NAME_NOTE, type Word } from "../../runtime/format/words.ts";
import type { DictionaryEntry } from "../load/hanjaDictionary.ts";

const INITIAL_N = 2;
const INITIAL_R = 5;
/** Medial vowels ㅑ ㅕ ㅖ ㅛ ㅠ ㅣ: the standard drops an initial ㄹ or ㄴ before them at the start of a word. */
const Y_VOWELS = new Set([2, 6, 7, 12, 17, 20]);
const RYEOL_RYUL = new Set(["렬", "률"]);

/**
 * How many syllables of a word's reading break the South Korean standard spelling (한글 맞춤법
 * §10–12), which the North's keeps: a first syllable starting with ㄹ (력사, standard 역사), or
 * with ㄴ before ㅑㅕㅖㅛㅠㅣ (녀자, standard 여자); 렬 or 률 after a vowel or ㄴ (비률, standard
 * 비율; 선률, standard 선율). The dictionary lists both spellings of many words.
 */
export function northernSpellings(reading: string): number {
  const syllables = [...reading];
  let count = 0;
  const first = jamoOf(syllables[0] ?? "");
  if (first !== null && (first.initial === INITIAL_R || (first.initial === INITIAL_N && Y_VOWELS.has(first.medial)))) count++;
  for (let i = 1; i < syllables.length; i++) {
    const before = jamoOf(syllables[i - 1] as string);
    // Final ㄴ is position 4 in the syllable layout.
    if (RYEOL_RYUL.has(syllables[i] as string) && before !== null && (before.final === 0 || before.final === 4)) count++;
  }
  return count;
}

/** The readings with the standard spelling first: fewer northern spellings first, the dictionary's order otherwise (a stable sort). */
export function standardFirst(readings: readonly string[]): string[] {
  return readings
    .map((reading, i) => ({ reading, i, northern: northernSpellings(reading) }))
    .sort((a, b) => a.northern - b.northern || a.i - b.i)
    .map(({ reading }) => reading);
}

/**
 * The words of the dictionary's entries made of two or more of `characters` (Hangul in a word, as
 * in `水閣집`, or a character outside the dataset leaves it out): entries of one written form are
 * one word with their readings in the dictionary's order, a repeat once, then `standardFirst`; its
 * note is the first non-empty gloss. In the dictionary's order.
 */
export function collectWords(entries: readonly DictionaryEntry[], characters: ReadonlySet<string>): Word[] {
  const byHanja = new Map<string, Word>();
  for (const { hanja, reading, gloss } of entries) {
    if (reading.length < 2 || !madeOf(hanja, characters)) continue;
    const word = byHanja.get(hanja);
    if (word === undefined) byHanja.set(hanja, { hanja, readings: [reading], note: gloss === "" ? null : gloss });
    else {
      if (!word.readings.includes(reading)) word.readings.push(reading);
      if (word.note === null && gloss !== "") word.note = gloss;
    }
  }
  const words = [...byHanja.values()];
  for (const word of words) if (word.readings.length > 1) word.readings = standardFirst(word.readings);
  return words;
}

/** Whether every character of `hanja` is one of `characters`. */
function madeOf(hanja: string, characters: ReadonlySet<string>): boolean {
  for (const c of hanja) if (!characters.has(c)) return false;
  return true;
}

/** For each word, how many longer words that are not place names contain it (what `listedOrder` ranks by). */
export function compoundCounts(words: readonly Word[]): Map<string, number> {
  const known = new Set(words.map((w) => w.hanja));
  const counts = new Map<string, number>();
  const inside = new Set<string>();
  const starts: number[] = [];
  for (const word of words) {
    if (word.note === PLACE_NAME_NOTE) continue;
    const { hanja } = word;
    if (hanja.length === 2) continue; // two BMP characters: no shorter word inside
    // Where each character starts, in code units (a word may hold astral characters).
    starts.length = 0;
    for (let at = 0; at < hanja.length; at += (hanja.codePointAt(at) as number) > 0xffff ? 2 : 1) starts.push(at);
    starts.push(hanja.length);
    inside.clear();
    for (let start = 0; start < starts.length - 2; start++) {
      for (let end = start + 2; end < starts.length; end++) {
        if (start === 0 && end === starts.length - 1) continue;
        const part = hanja.slice(starts[start], starts[end]);
        if (known.has(part)) inside.add(part);
      }
    }
    for (const part of inside) counts.set(part, (counts.get(part) ?? 0) + 1);
  }
  return counts;
}
