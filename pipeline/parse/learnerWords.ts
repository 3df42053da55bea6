/**
 * The words as a learner meets them (docs/rules.md "Words"): each word's standard reading first,
 * and each education hanja's core words, the project's own lists beside the dictionary.
 *
 * - The reading a word is read with is the reader's choice (`chooseReading`: the spelling rules,
 *   the customary sounds of 한글 맞춤법 제52항, the longer words that hold it, the characters'
 *   usual sounds), unless `word-readings.csv`, written by one editor and reviewed by a second,
 *   gives the standard reading of 표준국어대사전 where the rule picks another (電車 전차, not 전거).
 *   That reading is listed first; the others keep their order. The reader then takes the first.
 * - `core-words.csv` lists, per education hanja, up to five words a learner meets first with it
 *   (學: 學生, 學校, 學習, …), commonest first, each with its standard reading: the stated source
 *   of commonness (the dictionary has no frequencies).
 */
import type { CsvRow } from "../load/csvTable.ts";
import { InputError } from "../load/types.ts";
import { type WordReadingSource, chooseWordReading } from "../../runtime/format/chooseReading.ts";
import type { HanjaRecord } from "../../runtime/format/records.ts";
import type { Word } from "../../runtime/format/words.ts";

/** The project's files on the words. */
export const WORD_FILES = { readings: "word-readings.csv", core: "core-words.csv" } as const;
export const WORD_READING_COLUMNS = ["hanja", "reading", "reason"] as const;
export const CORE_WORD_COLUMNS = ["character", "rank", "word", "reading"] as const;
export type WordReadingRow = CsvRow<(typeof WORD_READING_COLUMNS)[number]>;
export type CoreWordRow = CsvRow<(typeof CORE_WORD_COLUMNS)[number]>;

/** The most core words an education hanja lists. */
export const CORE_WORDS_PER_CHARACTER = 5;

/** The project's rows on the words (absent file = none). */
export interface WordLists {
  readings: readonly WordReadingRow[];
  core: readonly CoreWordRow[];
}

/** What the lists did, for the build's summary. */
export interface LearnerWordCounts {
  /** Words of several readings. */
  several: number;
  /** Of those, words whose first reading the rule changed (from the dictionary's South Korean spelling first). */
  byRule: number;
  /** Words whose reading the editors gave where the rule picks another. */
  byEditors: number;
  /** Education hanja with core words, and the core words (a word listed by two characters counts once). */
  coreCharacters: number;
  coreWords: number;
}

/**
 * The words with the reading each is read with first (see the module), and each education
 * hanja's core words. Fails, naming file, line and value, on a row for a word the dictionary does
 * not have or a reading it does not give, a reading the rule already picks (the row is not needed),
 * a repeated word, a core word that does not hold its character or is not an education hanja's, a
 * rank out of sequence, more than `CORE_WORDS_PER_CHARACTER` words, or a core word's reading that
 * is not the word's first.
 */
export function learnerWords(
  words: readonly Word[],
  records: readonly HanjaRecord[],
  lists: WordLists,
): { words: Word[]; core: Map<string, string[]>; counts: LearnerWordCounts } {
  const problems: string[] = [];
  const byHanja = new Map(words.map((w) => [w.hanja, w]));
  const recordOf = new Map(records.map((r) => [r.character, r]));
  const holding = new Map<string, string[]>();
  for (const { hanja } of words) {
    for (const c of new Set(hanja)) {
      const list = holding.get(c);
      if (list === undefined) holding.set(c, [hanja]);
      else list.push(hanja);
    }
  }
  // What the reader's source answers at run time, from the words and records at hand.
  const source: WordReadingSource = {
    wordReadings: (hanja) => byHanja.get(hanja)?.readings,
    wordsWith: (character) => holding.get(character) ?? [],
    wordCount: (character) => holding.get(character)?.length ?? 0,
    characterReadings: (character) => recordOf.get(character)?.readings,
    usualReading: (character) => recordOf.get(character)?.reading,
  };
  const ruled = new Map<string, string>();
  for (const { hanja, readings } of words) if (readings.length > 1) ruled.set(hanja, chooseWordReading(hanja, readings, source).reading);

  const edited = new Map<string, string>();
  const lines = new Map<string, number>();
  for (const { line, values } of lists.readings) {
    const bad = (why: string) => problems.push(`${WORD_FILES.readings}:${line}: ${why}`);
    const { hanja, reading, reason } = values;
    const word = byHanja.get(hanja);
    if (word === undefined) {
      bad(`${JSON.stringify(hanja)} is not a word of the dictionary`);
      continue;
    }
    if (lines.has(hanja)) bad(`${hanja} repeats line ${lines.get(hanja)}`);
    else lines.set(hanja, line);
    if (!word.readings.includes(reading)) bad(`${hanja}: reading ${JSON.stringify(reading)} is not one of its readings (${word.readings.join(", ")})`);
    else if (ruled.get(hanja) === reading) bad(`${hanja}: the rule already reads it ${reading}; remove the row`);
    if (reason.trim() === "") bad(`${hanja}: reason is empty (say why the standard reading is ${reading})`);
    edited.set(hanja, reading);
  }

  const ordered = words.map((word) => {
    const first = edited.get(word.hanja) ?? ruled.get(word.hanja);
    if (first === undefined || word.readings[0] === first) return word;
    return { ...word, readings: [first, ...word.readings.filter((r) => r !== first)] };
  });
  const firstOf = new Map(ordered.map((w) => [w.hanja, w.readings[0] as string]));

  const core = new Map<string, string[]>();
  const coreLine = new Map<string, number>();
  for (const { line, values } of lists.core) {
    const bad = (why: string) => problems.push(`${WORD_FILES.core}:${line}: ${why}`);
    const { character, rank, word, reading } = values;
    if (recordOf.get(character)?.education_hanja !== true) {
      bad(`character ${JSON.stringify(character)} is not one of the education hanja in the character dataset`);
      continue;
    }
    const list = core.get(character) ?? [];
    core.set(character, list);
    if (rank !== String(list.length + 1)) bad(`${character}: rank ${JSON.stringify(rank)}, expected ${list.length + 1} (ranks run 1, 2, … per character)`);
    if (list.length === CORE_WORDS_PER_CHARACTER) bad(`${character}: more than ${CORE_WORDS_PER_CHARACTER} core words`);
    const known = byHanja.get(word);
    if (!word.includes(character)) bad(`${character}: ${JSON.stringify(word)} does not hold ${character}`);
    else if (known === undefined) bad(`${character}: ${JSON.stringify(word)} is not a word of the dictionary`);
    else if (!known.readings.includes(reading))
      bad(`${character}: ${word} reading ${JSON.stringify(reading)} is not one of its readings (${known.readings.join(", ")})`);
    else if (firstOf.get(word) !== reading)
      bad(`${character}: ${word} reads ${reading} here but ${firstOf.get(word)} first (the rule's choice): list ${word},${reading} in ${WORD_FILES.readings}`);
    const key = `${character} ${word}`;
    if (coreLine.has(key)) bad(`${character}: ${word} repeats line ${coreLine.get(key)}`);
    else coreLine.set(key, line);
    list.push(word);
  }
  if (problems.length > 0) throw new InputError(`${problems.length} bad row(s) of the word lists:\n  ${problems.join("\n  ")}`);

  let byRule = 0;
  for (const [hanja, reading] of ruled) if (!edited.has(hanja) && byHanja.get(hanja)?.readings[0] !== reading) byRule++;
  const counts: LearnerWordCounts = {
    several: ruled.size,
    byRule,
    byEditors: edited.size,
    coreCharacters: core.size,
    coreWords: new Set([...core.values()].flat()).size,
  };
  return { words: ordered, core, counts };
}

/** The build summary's line on the words. */
export function learnerWordsSummary(counts: LearnerWordCounts): string {
  return (
    `${counts.several} words of several readings: ${counts.byRule} read first as the reader's rule reads them, ${counts.byEditors} as the editors' list; ` +
    `${counts.coreWords} core words of ${counts.coreCharacters} education hanja`
  );
}
