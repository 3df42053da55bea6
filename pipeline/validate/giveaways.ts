/**
 * Giveaway checks on an idiom's meaning (issue: quizzes a teacher would trust). The meaning is a
 * quiz prompt for `meaning_to_idiom`, so it must not hand over the answer: none of the idiom's
 * hanja, no two consecutive syllables of its hangul, and no lead-in that reads the characters
 * word for word (that reading belongs in `literal`, which quizzes never show).
 */

/**
 * A lead-in restating the characters or the story before the figurative sense, closed by a comma:
 * "…라는 뜻으로,", "…한 데서,", "…라는 말로,", "…고사에서,", "…에서 유래하여,", "…처럼,", "…듯이,".
 */
const LITERAL_LEAD_IN = /(?:뜻으로|뜻에서|데서|말로|말에서|고사에서|구절에서|유래하여|유래한|처럼|듯이)\s*,/u;

/** Why `meaning` gives away the idiom `hanja`/`hangul`; empty when it does not. */
export function giveaways(hanja: string, hangul: string, meaning: string): string[] {
  const found: string[] = [];
  const characters = [...new Set(hanja)].filter((ch) => meaning.includes(ch));
  if (characters.length > 0) found.push(`contains its own hanja ${characters.join(", ")}`);
  const syllables = [...hangul];
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < syllables.length; i++) {
    const pair = `${syllables[i]}${syllables[i + 1]}`;
    if (meaning.includes(pair)) pairs.add(pair);
  }
  if (pairs.size > 0) found.push(`contains two consecutive syllables of its hangul: ${[...pairs].map((p) => `"${p}"`).join(", ")}`);
  const lead = LITERAL_LEAD_IN.exec(meaning);
  if (lead) found.push(`opens with a literal reading ("${meaning.slice(0, lead.index + lead[0].length)}"); move it to literal`);
  return found;
}
