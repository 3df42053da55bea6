/**
 * What the build makes of the words (`pipeline/parse/words.ts`): `words.txt`, and each character's
 * first words for its detail body, in the order the runtime lists them.
 */
import { initialSoundForms } from "../../runtime/format/hangul.ts";
import { DETAIL_WORDS } from "../../runtime/format/recordSchemas.ts";
import { type HanjaRecord, type IdiomRecord, wordItem } from "../../runtime/format/records.ts";
import { packStrings } from "../../runtime/format/packedStrings.ts";
import { runAtOnce } from "../../runtime/format/steps.ts";
import { type Word, compareCodePoints, coreRanksSteps, encodeWords, listedOrder } from "../../runtime/format/words.ts";
import { compoundCounts } from "../parse/words.ts";

/**
 * The syllables a character's reading takes in a word, its first Unihan reading first: its
 * readings, their initial-sound-law forms (락 → 낙), then the 음 of its 훈음. `words.txt` writes a
 * word's reading as positions in these lists.
 */
export function wordSyllables(records: readonly HanjaRecord[]): (character: string) => string[] {
  const lists = new Map<string, string[]>();
  for (const record of records) {
    const list: string[] = [];
    for (const reading of [...record.readings, ...record.hunum.map((h) => h.eum)]) {
      for (const form of initialSoundForms(reading)) if (!list.includes(form)) list.push(form);
    }
    lists.set(record.character, list);
  }
  return (character) => lists.get(character) ?? [];
}

/** Per character, its first `DETAIL_WORDS` words (as JSON items) and how many words hold it. */
export interface CharacterWords {
  items: string[];
  count: number;
}

/**
 * `dist/words.txt` for the words of the records' characters, and each character's words for its
 * detail: the first `DETAIL_WORDS` of the words holding it in the order they are listed (the order
 * `GET /words?char=` gives: its own core words first, then the rest as listed), an idiom written
 * the same linked by its idx. `core`: each education hanja's core words, commonest first.
 */
export function buildWords(
  words: readonly Word[],
  records: readonly HanjaRecord[],
  idioms: readonly IdiomRecord[],
  core: ReadonlyMap<string, readonly string[]> = new Map(),
) {
  const within = compoundCounts(words);
  // In the file's order (code point order), sorted once: encodeWords' own sort then finds it sorted.
  const sorted = [...words].sort((a, b) => compareCodePoints(a.hanja, b.hanja));
  const text = encodeWords(sorted, within, wordSyllables(records), core);
  // What listedOrder reads of the columns the runtime decodes from the file, made from the words
  // (decoding the file again cost a tenth of the build).
  const packed = packStrings(sorted.map((w) => w.hanja));
  const columns = {
    hanja: packed,
    within: Uint32Array.from(sorted, (w) => within.get(w.hanja) ?? 0),
    notes: new Map(sorted.flatMap((w, position) => (w.note === null ? [] : [[position, w.note] as const]))),
    coreRanks: runAtOnce(
      coreRanksSteps(packed, core, (character, word) => {
        throw new Error(`words: ${character}'s core word ${word} is not one of the words`);
      }),
    ),
  };
  const education = new Set(records.filter((r) => r.education_hanja).map((r) => r.character.codePointAt(0) as number));
  const idiomIdx = new Map(idioms.map((idiom) => [idiom.hanja, idiom.idx]));
  const byHanja = new Map(sorted.map((word) => [word.hanja, word]));
  const itemOf = (word: Word): string => JSON.stringify(wordItem(word, idiomIdx.get(word.hanja)));
  const byCharacter = new Map<string, CharacterWords>();
  // A character's own core words come first in its list.
  for (const [character, own] of core)
    byCharacter.set(character, { items: own.slice(0, DETAIL_WORDS).map((hanja) => itemOf(byHanja.get(hanja) as Word)), count: 0 });
  // The characters of the word at hand, one array for all (a Set per word cost a tenth of a second).
  const seen: string[] = [];
  for (const position of listedOrder(columns, (codePoint) => education.has(codePoint))) {
    const word = sorted[position] as Word;
    let item: string | undefined;
    seen.length = 0;
    for (const character of word.hanja) {
      // A character written twice in a word (歷歷) counts the word once.
      if (seen.includes(character)) continue;
      seen.push(character);
      let entry = byCharacter.get(character);
      if (entry === undefined) byCharacter.set(character, (entry = { items: [], count: 0 }));
      entry.count++;
      if (entry.items.length < DETAIL_WORDS && !core.get(character)?.includes(word.hanja)) entry.items.push((item ??= itemOf(word)));
    }
  }
  return { text, byCharacter, count: sorted.length };
}
