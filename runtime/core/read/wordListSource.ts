/**
 * A `ReaderSource` made from lists held in memory: words with their readings, characters with
 * theirs, idioms by their hanja. The usual reading of a character is worked out from the words
 * that hold it on first use.
 */
import type { ReaderSource } from "./source.ts";
import { type WordUse, usualReadingOf } from "./usualReading.ts";

/** What a word-list source is made from. */
export interface WordLists {
  /** Words of two or more characters with their readings (each as long as the word). */
  words: Iterable<readonly [hanja: string, readings: readonly string[]]>;
  /** Every reading of each character. */
  characters: ReadonlyMap<string, readonly string[]>;
  /** Idiom `idx` by its hanja. */
  idioms?: ReadonlyMap<string, number>;
  /** The path of a character's detail (`/hanja/v1/hanja/水`); none when omitted. */
  characterPath?: (character: string) => string | undefined;
}

/** Builds a `ReaderSource` from in-memory lists. */
export function wordListSource(lists: WordLists): ReaderSource {
  const words = new Map<string, readonly string[]>();
  const longest = new Map<string, number>();
  const byCharacter = new Map<string, WordUse[]>();
  const holding = new Map<string, string[]>();
  for (const [hanja, readings] of lists.words) {
    const chars = [...hanja];
    words.set(hanja, readings);
    const first = chars[0] as string;
    if ((longest.get(first) ?? 0) < chars.length) longest.set(first, chars.length);
    for (const ch of new Set(chars)) {
      let held = holding.get(ch);
      if (held === undefined) holding.set(ch, (held = []));
      held.push(hanja);
      let uses = byCharacter.get(ch);
      if (uses === undefined) byCharacter.set(ch, (uses = []));
      for (const reading of readings) uses.push({ hanja: chars, reading: [...reading] });
    }
  }
  const usual = new Map<string, string | undefined>();
  return {
    wordReadings: (hanja) => words.get(hanja),
    longestWordFrom: (character) => longest.get(character) ?? 0,
    wordsWith: (character) => holding.get(character) ?? [],
    wordCount: (character) => holding.get(character)?.length ?? 0,
    characterReadings: (character) => lists.characters.get(character),
    usualReading(character) {
      if (!usual.has(character)) {
        const readings = lists.characters.get(character);
        usual.set(character, readings && usualReadingOf(character, readings, byCharacter.get(character) ?? []));
      }
      return usual.get(character);
    },
    idiomIdx: (hanja) => lists.idioms?.get(hanja),
    characterPath: (character) => (lists.characters.has(character) ? lists.characterPath?.(character) : undefined),
  };
}
