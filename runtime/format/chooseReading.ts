/**
 * Which of the dictionary's readings a word is read with. The dictionary lists some words under
 * several readings: the South Korean spelling beside the North Korean one (역사 and 력사 for 歷史,
 * 비율 and 비률 for 比率), a word's own sound beside each character's usual sound (변소 and 편소 for
 * 便所, 시월 and 십월 for 十月), forms with 사이시옷 (기차 and 기찻 for 汽車), colloquial spellings (선상
 * for 先生). The rule, in order; each step keeps the readings that pass it, when any does:
 *
 * 1. the first syllable obeys the initial-sound law (역사, not 력사; 한글 맞춤법 제10–12항);
 * 2. 렬 and 률 never follow a vowel or ㄴ (비율, not 비률; 제11항 붙임 1);
 * 3. no syllable is a reading with an added ㅅ (기차, not 기찻), and the six words written with one
 *    are (횟수, not 회수; 제30항 3);
 * 4. a reading that 제52항 names as a word's customary sound (시월, 모과, 의논, 곤란 …) is the one;
 * 5. inside the word, a syllable is spelled by the initial-sound law exactly where the rest of the
 *    word is a word of the dictionary (副領事 부영사, 高山流水 고산유수, 男女老少 남녀노소: 제12항
 *    붙임 2; but 冷冷 냉랭, 西五陵 서오릉);
 * 6. the longer words of the dictionary that hold the word and have one reading show which reading
 *    it takes: the one most of them agree with (便所 변소 by 公衆便所, 標識 표지 by 道路標識);
 * 7. else the reading made of the characters' usual sounds (`usualReading.ts`), if it is one;
 * 8. else the dictionary's order.
 */
import { customaryReading } from "./customaryReadings.ts";
import { addsSaisiot, afterSyllable, atWordStart, breaksInitialLaw, breaksYeolYulRule, buBefore, isSaisiotWord } from "./syllableRules.ts";

/**
 * What the rule reads of the words and characters: the reader's source at run time
 * (`runtime/core/read/source.ts`), the dictionary's words as the build holds them.
 */
export interface WordReadingSource {
  /** The dictionary's readings of a word of two or more characters, or undefined when it is not a word. */
  wordReadings(hanja: string): readonly string[] | undefined;
  /** The words of two or more characters that hold this character (for step 6). */
  wordsWith(character: string): Iterable<string>;
  /** How many words hold this character (to scan the fewest in `wordsWith`). */
  wordCount(character: string): number;
  /** Every reading of one character, or undefined for a character without a Korean reading. */
  characterReadings(character: string): readonly string[] | undefined;
  /** The reading a character takes alone, in its basic form (`usualReading.ts`), or undefined. */
  usualReading(character: string): string | undefined;
}

/** The reading chosen and the others, in the dictionary's order. */
export interface ChosenReading {
  reading: string;
  others: string[];
}

/**
 * Chooses among a word's readings (see the module's rule). `characters` are the word's characters,
 * `literal` its reading from the characters' usual sounds.
 */
export function chooseReading(characters: readonly string[], readings: readonly string[], literal: string, source: WordReadingSource): ChosenReading {
  let candidates = readings.map((r) => [...r]);
  const keep = (test: (syllables: string[]) => boolean) => {
    const kept = candidates.filter(test);
    if (kept.length > 0) candidates = kept;
  };
  keep((s) => !breaksInitialLaw(s[0] as string));
  keep((s) => !breaksYeolYulRule(s));
  keep((s) => !s.some((syllable, i) => addsSaisiot(syllable, source.characterReadings(characters[i] as string) ?? [], s.join(""))));
  keep((s) => isSaisiotWord(s.join("")));
  keep((s) => customaryReading(s.join("")));
  keep((s) => followsCompounds(characters, s, candidates, source));
  if (candidates.length > 1) {
    const supported = bySupport(characters, candidates, source);
    if (supported !== undefined) candidates = [supported];
  }
  keep((s) => s.join("") === literal);
  const reading = (candidates[0] as string[]).join("");
  return { reading, others: readings.filter((r) => r !== reading) };
}

/**
 * Step 5: at each place inside the word where the candidates differ only by the initial-sound law
 * (랭 and 냉), the law's form where the rest of the word is a dictionary word, the other elsewhere.
 */
function followsCompounds(characters: readonly string[], syllables: readonly string[], candidates: readonly string[][], source: WordReadingSource): boolean {
  for (let i = 1; i < syllables.length; i++) {
    const own = syllables[i] as string;
    for (const other of candidates) {
      const theirs = other[i] as string;
      const ownIsLaw = atWordStart(theirs) === own && theirs !== own;
      const theirsIsLaw = atWordStart(own) === theirs && theirs !== own;
      if (!ownIsLaw && !theirsIsLaw) continue;
      const restIsWord = characters.length - i >= 2 && source.wordReadings(characters.slice(i).join("")) !== undefined;
      if (ownIsLaw !== restIsWord) return false;
    }
  }
  return true;
}

/** Step 6: the candidate most of the longer single-reading words holding the word agree with, if one has the most. */
function bySupport(characters: readonly string[], candidates: readonly string[][], source: WordReadingSource): string[] | undefined {
  const word = characters.join("");
  let rarest = characters[0] as string;
  for (const c of characters) if (source.wordCount(c) < source.wordCount(rarest)) rarest = c;
  const support = new Array<number>(candidates.length).fill(0);
  for (const longer of source.wordsWith(rarest)) {
    if (longer === word || !longer.includes(word)) continue;
    const readings = source.wordReadings(longer);
    if (readings?.length !== 1) continue;
    const at = [...longer.slice(0, longer.indexOf(word))].length;
    const part = [...(readings[0] as string)].slice(at, at + characters.length);
    candidates.forEach((candidate, k) => {
      const agrees = candidate.every((s, i) => s === part[i] || (i === 0 && s === atWordStart(part[0] as string)));
      if (agrees) support[k] = (support[k] as number) + 1;
    });
  }
  const most = Math.max(...support);
  if (most === 0 || support.filter((n) => n === most).length > 1) return undefined;
  return candidates[support.indexOf(most)];
}

/** The reading the rule gives a word of the source among `readings` (what the build lists first: docs/rules.md "Words"). */
export function chooseWordReading(word: string, readings: readonly string[], source: WordReadingSource): ChosenReading {
  const chars = [...word];
  return chooseReading(chars, readings, literalReading(chars, source), source);
}

/** A word's reading character by character, as if no dictionary word covered it (step 7). */
export function literalReading(chars: readonly string[], source: Pick<WordReadingSource, "usualReading">): string {
  const syllables: string[] = [];
  chars.forEach((c, i) => {
    const usual = source.usualReading(c) ?? c;
    syllables.push(i === 0 ? atWordStart(usual) : afterSyllable(syllables[i - 1] as string, usual));
  });
  chars.forEach((c, i) => {
    if (c === "不" && syllables[i] === "불" && buBefore(syllables[i + 1])) syllables[i] = "부";
  });
  return syllables.join("");
}
