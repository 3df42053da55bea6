/**
 * One Hangul syllable in the Revised Romanization of Korean, letter for letter (no sound changes
 * across syllables): 각 → gak, 골 → gol. Enough to see whether an English text spells an idiom out;
 * anything that is not a precomposed syllable comes back as it is.
 */
import { jamoOf } from "../../runtime/format/hangul.ts";

const INITIALS = ["g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p", "h"];
const VOWELS = ["a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we", "wi", "yu", "eu", "ui", "i"];
const FINALS = ["", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p", "p", "t", "t", "ng", "t", "t", "k", "t", "p", "t"];

/** The romanization of `syllable` (one code point). */
export function romanize(syllable: string): string {
  const jamo = jamoOf(syllable);
  return jamo === null ? syllable : `${INITIALS[jamo.initial]}${VOWELS[jamo.medial]}${FINALS[jamo.final]}`;
}
