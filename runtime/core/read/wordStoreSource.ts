/**
 * A `ReaderSource` over a store of words (the dictionary's words as the runtime holds them, or a
 * handful in a test) and the characters' readings. What the store does not give is worked out on
 * first use and kept: the lengths of the words from each pair of characters (from the words holding the
 * first), a character's usual reading (from the words that hold it), how many words hold a character.
 */
import type { ReaderSource } from "./source.ts";
import { type WordUse, usualReadingOf } from "./usualReading.ts";

/** The longest word segmentation tries, in characters (longer ones are never tried; bits of a 32-bit number). */
const MAX_LENGTH = 31;

/** Words by position, as a reader needs them. */
export interface WordStore {
  /** How many words there are. */
  readonly count: number;
  /** The hanja of the word at a position (0 ≤ position < count). */
  hanjaAt(position: number): string;
  /** Its readings, each as long as the word. */
  readingsAt(position: number): readonly string[];
  /** The position of the word written `hanja`, or -1. */
  positionOf(hanja: string): number;
  /** The positions of the words holding `character`. */
  ofCharacter(character: string): readonly number[];
}

/** What a source is made from besides the words. */
export interface SourceLists {
  /** Every reading of each character, or undefined for a character without a Korean reading. */
  characters: (character: string) => readonly string[] | undefined;
  /** Idiom `idx` by its hanja. */
  idiomIdx?: (hanja: string) => number | undefined;
}

/** A store over `[hanja, readings]` pairs held in memory (a handful of words, in tests and examples). */
export function wordPairs(pairs: readonly (readonly [string, readonly string[]])[]): WordStore {
  const positions = new Map(pairs.map(([hanja], i) => [hanja, i]));
  const holding = new Map<string, number[]>();
  pairs.forEach(([hanja], i) => {
    for (const c of new Set(hanja)) holding.set(c, [...(holding.get(c) ?? []), i]);
  });
  return {
    count: pairs.length,
    hanjaAt: (i) => (pairs[i] as readonly [string, readonly string[]])[0],
    readingsAt: (i) => (pairs[i] as readonly [string, readonly string[]])[1],
    positionOf: (hanja) => positions.get(hanja) ?? -1,
    ofCharacter: (c) => holding.get(c) ?? [],
  };
}

/** Builds a `ReaderSource` from a word store and the characters' readings. */
export function wordStoreSource(store: WordStore, lists: SourceLists): ReaderSource {
  // Per first character, the lengths of the words after each second character (bits): made from the
  // words holding the first character when a text first has it (not from every word at once), and kept.
  // Keyed by code points, not strings: a number is looked up without hashing a string made for it.
  const lengths = new Map<number, Map<number, number>>();
  const lengthsAfter = (firstCode: number): Map<number, number> => {
    let made = lengths.get(firstCode);
    if (made !== undefined) return made;
    made = new Map();
    const first = String.fromCodePoint(firstCode);
    for (const position of store.ofCharacter(first)) {
      const hanja = store.hanjaAt(position);
      if (!hanja.startsWith(first) || hanja.length <= first.length) continue;
      const second = hanja.codePointAt(first.length) as number;
      // Code points: a word of astral characters is longer in UTF-16 units than in characters.
      let length = 0;
      for (let i = 0; i < hanja.length; i += (hanja.codePointAt(i) as number) > 0xffff ? 2 : 1) length++;
      if (length <= MAX_LENGTH) made.set(second, (made.get(second) ?? 0) | (1 << length));
    }
    lengths.set(firstCode, made);
    return made;
  };
  const counts = new Map<string, number>();
  const usual = new Map<string, string | undefined>();
  function* uses(character: string): Iterable<WordUse> {
    for (const position of store.ofCharacter(character)) {
      const hanja = [...store.hanjaAt(position)];
      if (hanja.length < 2) continue;
      for (const reading of store.readingsAt(position)) yield { hanja, reading: [...reading] };
    }
  }
  return {
    wordReadings(hanja) {
      const position = store.positionOf(hanja);
      return position === -1 ? undefined : store.readingsAt(position);
    },
    wordPosition: (hanja) => store.positionOf(hanja),
    wordLengthsFrom: (first, second) => lengthsAfter(first).get(second) ?? 0,
    *wordsWith(character) {
      for (const position of store.ofCharacter(character)) yield store.hanjaAt(position);
    },
    wordCount(character) {
      let count = counts.get(character);
      if (count === undefined) counts.set(character, (count = store.ofCharacter(character).length));
      return count;
    },
    characterReadings: (character) => lists.characters(character),
    usualReading(character) {
      if (!usual.has(character)) {
        const readings = lists.characters(character);
        usual.set(character, readings && usualReadingOf(character, readings, uses(character)));
      }
      return usual.get(character);
    },
    idiomIdx: (hanja) => lists.idiomIdx?.(hanja),
  };
}
