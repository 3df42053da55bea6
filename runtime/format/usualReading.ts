/**
 * The reading a character takes when no word of the dictionary covers it: the one its words use
 * most, each use counted in its basic form (the form before the spelling rules that depend on its
 * place: 歷 in 역사 counts as 력, 率 in 비율 as 률, 不 in 부정 as 불). So 樂 reads 락 (the rules then
 * write 낙 at the start of a word), 率 률, 不 불, 金 금.
 */
import { afterSyllable, atWordStart, buBefore } from "./syllableRules.ts";

/** A word with one of its readings, both as arrays of code points / syllables of equal length. */
export interface WordUse {
  hanja: readonly string[];
  reading: readonly string[];
}

/**
 * The basic form of the syllable a character has at `index` of a word's reading: the character's
 * reading that the place-dependent rules turn into it, or the syllable itself.
 */
export function basicForm(character: string, readings: readonly string[], reading: readonly string[], index: number): string {
  const syllable = reading[index] as string;
  if (character === "不" && syllable === "부" && buBefore(reading[index + 1])) return "불";
  for (const candidate of readings) {
    if (candidate === syllable) continue;
    if (index === 0 ? atWordStart(candidate) === syllable : afterSyllable(reading[index - 1] as string, candidate) === syllable) return candidate;
  }
  return syllable;
}

/**
 * The usual reading of `character` from the words that hold it; ties go to the reading listed
 * first. Without words, the first of its readings that is not the initial-sound form of another.
 */
export function usualReadingOf(character: string, readings: readonly string[], words: Iterable<WordUse>): string | undefined {
  const counts = new Map<string, number>();
  for (const word of words) {
    word.hanja.forEach((ch, i) => {
      if (ch === character) countUse(counts, basicForm(character, readings, word.reading, i));
    });
  }
  return usualReadingFrom(readings, counts);
}

/** Counts one use of a character in the basic form `basic`. */
export function countUse(counts: Map<string, number>, basic: string): void {
  counts.set(basic, (counts.get(basic) ?? 0) + 1);
}

/** The usual reading of a character with these `readings`, from how many uses of each basic form its words have (`usualReadingOf`'s choice). */
export function usualReadingFrom(readings: readonly string[], counts: ReadonlyMap<string, number> | undefined): string | undefined {
  let best: string | undefined;
  let bestCount = 0;
  for (const reading of readings) {
    const count = counts?.get(reading) ?? 0;
    if (count > bestCount) [best, bestCount] = [reading, count];
  }
  return best ?? readings.find((r) => !readings.some((other) => other !== r && atWordStart(other) === r)) ?? readings[0];
}
