/**
 * A `ReaderSource` made from word lists held in memory: each word's hanja and readings, each
 * character's readings, idioms by their hanja. Its indexes (word by hanja, words by character,
 * the longest word from each character) are made in one pass on first use, and a character's
 * usual reading is worked out from the words that hold it when it is first needed.
 */
import type { ReaderSource } from "./source.ts";
import { type WordUse, usualReadingOf } from "./usualReading.ts";

/** What a word-list source is made from. */
export interface WordLists {
  /** Each word's hanja: words of two or more characters (shorter entries are passed over). */
  hanja: readonly string[];
  /** The readings of the word at a position of `hanja`, each as long as the word. */
  readingsAt(position: number): readonly string[];
  /** Every reading of each character. */
  characters: (character: string) => readonly string[] | undefined;
  /** Idiom `idx` by its hanja. */
  idiomIdx?: (hanja: string) => number | undefined;
  /** The path of a character's detail (`/hanja/v1/hanja/水`); none when omitted. */
  characterPath?: (character: string) => string | undefined;
}

/** Word lists from `[hanja, readings]` pairs (a handful of words, in tests and examples). */
export function wordPairs(pairs: readonly (readonly [string, readonly string[]])[]): Pick<WordLists, "hanja" | "readingsAt"> {
  return { hanja: pairs.map(([hanja]) => hanja), readingsAt: (i) => (pairs[i] as readonly [string, readonly string[]])[1] };
}

interface Indexes {
  positionOf: Map<string, number>;
  longest: Map<string, number>;
  holding: Map<string, number[]>;
}

/** Builds a `ReaderSource` from in-memory lists. */
export function wordListSource(lists: WordLists): ReaderSource {
  let made: Indexes | undefined;
  const indexes = (): Indexes => {
    if (made) return made;
    made = { positionOf: new Map(), longest: new Map(), holding: new Map() };
    lists.hanja.forEach((hanja, position) => {
      const chars = [...hanja];
      if (chars.length < 2) return;
      made?.positionOf.set(hanja, position);
      const first = chars[0] as string;
      if ((made?.longest.get(first) ?? 0) < chars.length) made?.longest.set(first, chars.length);
      for (const ch of new Set(chars)) {
        const held = made?.holding.get(ch);
        if (held === undefined) made?.holding.set(ch, [position]);
        else held.push(position);
      }
    });
    return made;
  };
  const wordReadings = (hanja: string) => {
    const position = indexes().positionOf.get(hanja);
    return position === undefined ? undefined : lists.readingsAt(position);
  };
  const usual = new Map<string, string | undefined>();
  function* uses(character: string): Iterable<WordUse> {
    for (const position of indexes().holding.get(character) ?? []) {
      const hanja = [...(lists.hanja[position] as string)];
      for (const reading of lists.readingsAt(position)) yield { hanja, reading: [...reading] };
    }
  }
  return {
    wordReadings,
    longestWordFrom: (character) => indexes().longest.get(character) ?? 0,
    *wordsWith(character) {
      for (const position of indexes().holding.get(character) ?? []) yield lists.hanja[position] as string;
    },
    wordCount: (character) => indexes().holding.get(character)?.length ?? 0,
    characterReadings: (character) => lists.characters(character),
    usualReading(character) {
      if (!usual.has(character)) {
        const readings = lists.characters(character);
        usual.set(character, readings && usualReadingOf(character, readings, uses(character)));
      }
      return usual.get(character);
    },
    idiomIdx: (hanja) => lists.idiomIdx?.(hanja),
    characterPath: (character) => (lists.characters(character) === undefined ? undefined : lists.characterPath?.(character)),
  };
}
