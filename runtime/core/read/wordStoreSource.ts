/**
 * A `ReaderSource` over a store of words (the dictionary's words as the runtime holds them, or a
 * handful in a test) and the characters' readings. What the store does not give is worked out on
 * first use and kept: the lengths of the words from each pair of characters (from the words holding the
 * first, in `PairLengths`), a character's usual reading (from the words that hold it), how many words hold a character.
 */
import { PairLengths } from "./pairLengths.ts";
import type { ReaderSource } from "./source.ts";
import type { Steps } from "./slices.ts";
import { type WordUse, basicForm, countUse, usualReadingFrom, usualReadingOf } from "../../format/usualReading.ts";

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
  /** The character's representative reading (the record's `reading`), when the data has it: taken over the one worked out from its words. */
  reading?: (character: string) => string | undefined;
  /** True when the store lists each word's chosen reading first (`ReaderSource.chosenFirst`: the built data does). */
  chosenFirst?: boolean;
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

/** A source that can work out all it keeps ahead of the first reading. */
export interface PreparedSource extends ReaderSource {
  /**
   * Works out, in one pass over the words, what the source otherwise works out on first use: the
   * lengths of the words from every pair of characters and every character's usual reading (see
   * the module). In steps (`slices.ts`) of about 256 words; the answers are the same either way.
   */
  prepare(): Steps<void>;
}

/** How many words `prepare` goes through between two steps. */
const PREPARE_STEP = 256;

/** Builds a `ReaderSource` from a word store and the characters' readings. */
export function wordStoreSource(store: WordStore, lists: SourceLists): PreparedSource {
  // The lengths of the words by their first two characters: a first character's words are added
  // when a text first has it (not every word at once), and kept.
  const pairs = new PairLengths();
  // Which first characters' words are in `pairs`: a bit per code point (139 KB), told without hashing.
  const added = new Uint8Array(0x110000 >> 3);
  const addWordsFrom = (firstCode: number): void => {
    added[firstCode >> 3] = (added[firstCode >> 3] as number) | (1 << (firstCode & 7));
    const first = String.fromCodePoint(firstCode);
    for (const position of store.ofCharacter(first)) {
      const hanja = store.hanjaAt(position);
      if (!hanja.startsWith(first) || hanja.length <= first.length) continue;
      const second = hanja.codePointAt(first.length) as number;
      // Code points: a word of astral characters is longer in UTF-16 units than in characters.
      let length = 0;
      for (let i = 0; i < hanja.length; i += (hanja.codePointAt(i) as number) > 0xffff ? 2 : 1) length++;
      if (length <= MAX_LENGTH) pairs.add(firstCode, second, 1 << length);
    }
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
  // Set once `prepare` has counted every word: a character it did not count is in none.
  let prepared = false;
  // The positions of the words holding each character, made by `prepare` (what `ofCharacter` finds by scanning every word).
  const holding = new Map<string, number[] | Uint32Array>();
  const holdingOf = (character: string): ArrayLike<number> & Iterable<number> => (prepared ? (holding.get(character) ?? []) : store.ofCharacter(character));
  return {
    chosenFirst: lists.chosenFirst === true,
    *prepare() {
      const counted = new Map<string, Map<string, number>>();
      for (let position = 0; position < store.count; position++) {
        if (position % PREPARE_STEP === PREPARE_STEP - 1) yield;
        const word = store.hanjaAt(position);
        const hanja = [...word];
        for (const character of new Set(hanja)) {
          const positions = holding.get(character);
          if (positions === undefined) holding.set(character, [position]);
          else (positions as number[]).push(position);
        }
        if (hanja.length < 2) continue;
        const first = (hanja[0] as string).codePointAt(0) as number;
        // Added again where a reading added the first character's words already: the same bits.
        if (hanja.length <= MAX_LENGTH) pairs.add(first, (hanja[1] as string).codePointAt(0) as number, 1 << hanja.length);
        for (const reading of store.readingsAt(position)) {
          const syllables = [...reading];
          hanja.forEach((character, i) => {
            const readings = lists.characters(character);
            if (readings === undefined) return;
            let counts = counted.get(character);
            if (counts === undefined) counted.set(character, (counts = new Map()));
            countUse(counts, basicForm(character, readings, syllables, i));
          });
        }
      }
      for (const [character, counts] of counted)
        usual.set(character, lists.reading?.(character) ?? usualReadingFrom(lists.characters(character) as readonly string[], counts));
      // As typed arrays, which hold far less than arrays of numbers (the prepared tables' heap: see RESULTS.md, "The reader's share of the CPU").
      for (const [character, positions] of holding) holding.set(character, Uint32Array.from(positions));
      added.fill(0xff);
      prepared = true;
    },
    wordReadings(hanja) {
      const position = store.positionOf(hanja);
      return position === -1 ? undefined : store.readingsAt(position);
    },
    wordPosition: (hanja) => store.positionOf(hanja),
    wordReadingsAt: (position) => store.readingsAt(position),
    wordLengthsFrom(first, second) {
      if (((added[first >> 3] as number) & (1 << (first & 7))) === 0) addWordsFrom(first);
      return pairs.get(first, second);
    },
    *wordsWith(character) {
      for (const position of holdingOf(character)) yield store.hanjaAt(position);
    },
    wordCount(character) {
      let count = counts.get(character);
      if (count === undefined) counts.set(character, (count = holdingOf(character).length));
      return count;
    },
    characterReadings: (character) => lists.characters(character),
    usualReading(character) {
      if (!usual.has(character)) {
        const readings = lists.characters(character);
        usual.set(
          character,
          readings && (lists.reading?.(character) ?? (prepared ? usualReadingFrom(readings, undefined) : usualReadingOf(character, readings, uses(character)))),
        );
      }
      return usual.get(character);
    },
    idiomIdx: (hanja) => lists.idiomIdx?.(hanja),
  };
}
