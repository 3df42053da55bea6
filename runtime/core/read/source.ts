/**
 * What the reader needs to know about words and characters, as a small interface: the runtime
 * answers it from the dictionary's words and the character data, a test from a handful of words.
 */

import type { WordReadingSource } from "../../format/chooseReading.ts";

/** The words and characters a text is read with. */
export interface ReaderSource extends WordReadingSource {
  /**
   * True when each word's readings start with the one it is read with, chosen when the data was
   * built (`chooseReading` and the editors' reviewed readings: docs/rules.md "Words"), so that a
   * reading takes the first; otherwise the reader chooses among them (`chooseReading`).
   */
  readonly chosenFirst?: boolean;
  /** The dictionary's readings of a word of two or more characters, or undefined when it is not a word. */
  wordReadings(hanja: string): readonly string[] | undefined;
  /**
   * Where the dictionary has a word of two or more characters written so (a number the source
   * gives each word, by which the reader keeps what it worked out of it), or -1 when it has none:
   * what segmentation asks most, so it must be cheap.
   */
  wordPosition(hanja: string): number;
  /** The dictionary's readings of the word at a position `wordPosition` gave. */
  wordReadingsAt(position: number): readonly string[];
  /**
   * The lengths, in characters, of the words starting with these two characters (code points), as
   * bits (bit L set: a word of L characters; lengths over 31 are left out), so that segmentation
   * tries only those: 0 where no word starts so.
   */
  wordLengthsFrom(first: number, second: number): number;
  /** The words of two or more characters that hold this character (for `chooseReading`'s step 6). */
  wordsWith(character: string): Iterable<string>;
  /** How many words hold this character (to scan the fewest in `wordsWith`). */
  wordCount(character: string): number;
  /** Every reading of one character (Unihan's and the dictionary's), or undefined for a character without a Korean reading. */
  characterReadings(character: string): readonly string[] | undefined;
  /** The reading a character takes alone, in its basic form (see `usualReading`), or undefined for a character without a Korean reading. */
  usualReading(character: string): string | undefined;
  /** The `idx` of the idiom written so, if it is one of the idioms. */
  idiomIdx(hanja: string): number | undefined;
}

/** Where the pieces of a reading link to. */
export interface ReaderLinks {
  /** The path of a character's detail (`/hanja/v1/hanja/%E6%B0%B4`), for a character with readings. */
  characterPath(character: string): string;
}
