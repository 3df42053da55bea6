/**
 * Hangul helpers shared by the pipeline and the runtime: initial consonants (chosung)
 * and the initial-sound law (두음법칙).
 */

const SYLLABLE_FIRST = 0xac00;
const SYLLABLE_LAST = 0xd7a3;
const INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ";
const INITIAL_N = 2;
const INITIAL_R = 5;
const INITIAL_NG = 11;
/** Medial vowels ㅑ ㅕ ㅖ ㅛ ㅠ ㅣ: before them ㄹ and ㄴ fall away (량 → 양, 녀 → 여). */
const Y_VOWELS = new Set([2, 6, 7, 12, 17, 20]);

/** The positions of a syllable's initial consonant, medial vowel and final consonant (0: none) in Unicode's syllable layout. */
export interface Jamo {
  initial: number;
  medial: number;
  final: number;
}

/** The jamo positions of one precomposed syllable (`각` → initial 0, medial 0, final 1), or null for anything else. */
export function jamoOf(syllable: string): Jamo | null {
  if (!isSyllable(syllable)) return null;
  const code = syllable.charCodeAt(0) - SYLLABLE_FIRST;
  return { initial: Math.floor(code / 588), medial: Math.floor((code % 588) / 28), final: code % 28 };
}

/** True for one precomposed Hangul syllable (가–힣). */
export function isSyllable(ch: string): boolean {
  const c = ch.codePointAt(0) ?? 0;
  return ch.length === 1 && c >= SYLLABLE_FIRST && c <= SYLLABLE_LAST;
}

/** True when the text is non-empty and made only of compatibility initial consonants (ㄱ…ㅎ). */
export function isChosungQuery(text: string): boolean {
  if (text.length === 0) return false;
  for (const ch of text) if (!INITIALS.includes(ch)) return false;
  return true;
}

/** Initial consonants of every syllable (`각골난망` → `ㄱㄱㄴㅁ`); other characters are kept as they are. */
export function chosung(text: string): string {
  let out = "";
  for (const ch of text) {
    out += isSyllable(ch) ? INITIALS[Math.floor((ch.charCodeAt(0) - SYLLABLE_FIRST) / 588)] : ch;
  }
  return out;
}

/**
 * The spellings a reading may take in a word under the initial-sound law: the reading itself,
 * plus `ㄹ→ㄴ/ㅇ` and `ㄴ→ㅇ` where Korean applies it (`례` → `예`, `락` → `낙`, `녀` → `여`).
 */
export function initialSoundForms(reading: string): string[] {
  const jamo = jamoOf(reading);
  if (jamo === null) return [reading];
  const { initial, medial } = jamo;
  const rest = (reading.charCodeAt(0) - SYLLABLE_FIRST) % 588;
  const withInitial = (i: number) => String.fromCharCode(SYLLABLE_FIRST + i * 588 + rest);
  if (initial === INITIAL_R) return [reading, withInitial(Y_VOWELS.has(medial) ? INITIAL_NG : INITIAL_N)];
  if (initial === INITIAL_N && Y_VOWELS.has(medial)) return [reading, withInitial(INITIAL_NG)];
  return [reading];
}
