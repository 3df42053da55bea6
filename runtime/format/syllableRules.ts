/**
 * The spelling rules of 한글 맞춤법 that change a Han character's sound by its place in a word,
 * on one syllable at a time. The reader applies them to words read character by character, and
 * uses them to pick among the readings the dictionary gives one word.
 */
import { initialSoundForms, jamoOf } from "./hangul.ts";

/** Final consonant positions in Unicode's syllable layout. */
const FINAL_NONE = 0;
const FINAL_N = 4;
const FINAL_S = 19;
/** Initial consonant positions: ㄷ and ㅈ, before which 不 is read 부 (제52항). */
const INITIAL_D = 3;
const INITIAL_J = 12;

/** The spelling a reading takes at the start of a word under the initial-sound law (제10–12항): 력 → 역, 락 → 낙, 녀 → 여. */
export function atWordStart(reading: string): string {
  return initialSoundForms(reading)[1] ?? reading;
}

/** True when a reading breaks the initial-sound law at the start of a word (력, 락, 녀). */
export function breaksInitialLaw(syllable: string): boolean {
  return initialSoundForms(syllable).length > 1;
}

/** True when the syllable ends in a vowel or ㄴ, after which 렬 and 률 are written 열 and 율 (제11항 붙임 1). */
export function endsInVowelOrN(syllable: string): boolean {
  const jamo = jamoOf(syllable);
  return jamo !== null && (jamo.final === FINAL_NONE || jamo.final === FINAL_N);
}

/** 렬 → 열 and 률 → 율 after a vowel or ㄴ (比率 비율, 羅列 나열; but 確率 확률, 法律 법률). */
export function afterSyllable(previous: string, reading: string): string {
  if (!endsInVowelOrN(previous)) return reading;
  if (reading === "렬") return "열";
  if (reading === "률") return "율";
  return reading;
}

/** True when 렬 or 률 follows a vowel or ㄴ somewhere in a reading (비률), which the spelling rules write 열 or 율. */
export function breaksYeolYulRule(syllables: readonly string[]): boolean {
  for (let i = 1; i < syllables.length; i++) {
    const s = syllables[i] as string;
    if ((s === "렬" || s === "률") && endsInVowelOrN(syllables[i - 1] as string)) return true;
  }
  return false;
}

/**
 * The sound of a counter that differs from its reading when a piece starts with it right after a
 * numeral: 年 is the bound noun 년 also where it starts a word (2025年度 2025년도, 1950年代
 * 1950년대, 3年間 3년간: 제10항 다만, 몇 년), 兩 the bound noun 냥 (5兩 5냥: 제10항 다만, 몇 냥),
 * and 列 the bound noun 열 (3列 3열: the numeral is a word of its own, so 列 starts one, 제11항).
 * Any other counter keeps its sound after a numeral (10里 10리: 제11항 다만, 몇 리).
 */
const COUNTER_SOUNDS: ReadonlyMap<string, string> = new Map([
  ["年", "년"],
  ["兩", "냥"],
  ["列", "열"],
]);

/** A piece's reading right after a numeral: its first syllable as the counter `first` (its first character) is spelled there (see `COUNTER_SOUNDS`). */
export function afterNumber(first: string, reading: string): string {
  const sound = COUNTER_SOUNDS.get(first);
  return sound === undefined || reading === "" ? reading : sound + reading.slice(1);
}

/** True when 不 (read 불) comes before a syllable starting with ㄷ or ㅈ, where it is read 부 (不當 부당, 不正 부정). */
export function buBefore(next: string | undefined): boolean {
  const jamo = next === undefined ? null : jamoOf(next);
  return jamo !== null && (jamo.initial === INITIAL_D || jamo.initial === INITIAL_J);
}

/**
 * The Sino-Korean words written with 사이시옷 (제30항 3): the only six; elsewhere a syllable with an
 * added ㅅ (기찻길's 찻 in 汽車 기찻) is a spelling of a compound with a native word, not the hanja
 * word's reading.
 */
const SAISIOT_WORDS = new Set(["곳간", "셋방", "숫자", "찻간", "툇간", "횟수"]);

/**
 * True when the syllable is one of the character's readings with an added final ㅅ (차 → 찻,
 * 가 → 갓), unless the reading is one of the six words written so.
 */
export function addsSaisiot(syllable: string, characterReadings: readonly string[], wordReading: string): boolean {
  if (isSaisiotWord(wordReading)) return false;
  const jamo = jamoOf(syllable);
  if (jamo === null || jamo.final !== FINAL_S) return false;
  const without = String.fromCharCode(syllable.charCodeAt(0) - FINAL_S);
  return characterReadings.includes(without) && !characterReadings.includes(syllable);
}

/** True for one of the six Sino-Korean words written with 사이시옷 (곳간 셋방 숫자 찻간 툇간 횟수). */
export function isSaisiotWord(reading: string): boolean {
  return SAISIOT_WORDS.has(reading);
}
