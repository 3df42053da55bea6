/**
 * Readings that 한글 맞춤법 제52항 names as words' customary sounds (속음), which the dictionary
 * lists beside each character's own sound (의논 and 의론 for 議論): the word is written as it sounds.
 * The list is the article's examples; a word not in it is read by the other steps of
 * `chooseReading`.
 */
const CUSTOMARY = new Set([
  "승낙",
  "만난",
  "곤란",
  "논란",
  "안녕",
  "의령",
  "회령",
  "대로",
  "희로애락",
  "토론",
  "의논",
  "오뉴월",
  "유월",
  "모과",
  "시방정토",
  "시왕",
  "시월",
  "초파일",
]);

/** True when the reading is a customary sound that 제52항 names. */
export function customaryReading(reading: string): boolean {
  return CUSTOMARY.has(reading);
}
