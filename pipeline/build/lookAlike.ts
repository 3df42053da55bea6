/**
 * When two idioms look alike on the page, as a `hard` quiz wants its wrong choices for
 * `meaning_to_idiom` and `hangul_to_hanja`: they share a hanja character, a hangul syllable, or
 * the first two initial consonants (what a learner types in a chosung search).
 */
import type { IdiomRecord } from "../../runtime/format/records.ts";

type Written = Pick<IdiomRecord, "hanja" | "hangul" | "chosung">;

/**
 * How alike `b` looks to `a`: 3 per shared hanja character, 2 per shared syllable, 1 for the same
 * first two initial consonants; 0 when they share none of these.
 */
export function lookAlike(a: Written, b: Written): number {
  let score = 0;
  const chars = [...a.hanja];
  const syllables = [...a.hangul];
  // Each distinct character or syllable of `a` counts once (家家戶戶 shares 家 once).
  chars.forEach((ch, i) => {
    if (chars.indexOf(ch) === i && b.hanja.includes(ch)) score += 3;
  });
  syllables.forEach((syllable, i) => {
    if (syllables.indexOf(syllable) === i && b.hangul.includes(syllable)) score += 2;
  });
  if (a.chosung.slice(0, 2) === b.chosung.slice(0, 2)) score += 1;
  return score;
}
