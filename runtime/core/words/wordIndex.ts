/**
 * The dictionary's hanja words in memory (docs/rules.md "Words"), made from `words.txt` on first
 * use. Words are numbered by their listed position (0 is listed first); every list this module
 * gives is in that order. The words are held as two texts, the hanja and the readings of every
 * word one line each, with where each line starts: a fraction of what a string per field and a map
 * of them took. Search scans a text (`indexOf`, quick even for the commonest syllable: see
 * RESULTS.md, "The word index built in slices"); lookup by hanja goes through a hash table of
 * positions.
 */
import { type Steps, runAtOnce } from "../../format/steps.ts";
import { type Lines, listWordsSteps } from "../../format/wordsDecode.ts";
import type { Word } from "../../format/words.ts";

export type { Word } from "../../format/words.ts";

/** The dictionary's words, by listed position. */
export interface WordIndex {
  /** How many words there are. */
  readonly count: number;
  /** The most characters a word has (the longest match a reader need try). */
  readonly longest: number;
  /** The word at a listed position (0 ≤ position < count). */
  word(position: number): Word;
  /** The hanja of the word at a listed position, cut from the index's text (no word made: what a reader asks most). */
  hanjaAt(position: number): string;
  /** The word written `hanja` (its readings, the standard spelling first), or undefined. */
  lookup(hanja: string): Word | undefined;
  /** The listed position of the word written `hanja`, or -1. */
  positionOf(hanja: string): number;
  /** The positions of the words holding `character`: an education hanja's own core words first, commonest first, then the rest in listed order. */
  ofCharacter(character: string): number[];
  /**
   * The positions of the words matching `q`: Han characters are matched against the hanja,
   * Hangul against each reading; the words equal to `q` first, then those starting with it, then
   * those containing it, each group in listed order. A `q` of other characters matches nothing.
   */
  search(q: string): number[];
}

/** Reads `words.txt` and indexes it; `isEducation` says which characters (code points) are education hanja (the listed order ranks by it). */
export function wordIndex(text: string, isEducation: (codePoint: number) => boolean): WordIndex {
  return runAtOnce(wordIndexSteps(text, isEducation));
}

/**
 * `wordIndex` in steps of about a millisecond or less, for a server that builds it in slices
 * beside its requests (`runInSlices`): built at once, it held the event loop up (see RESULTS.md,
 * "The word index built in slices").
 */
export function* wordIndexSteps(text: string, isEducation: (codePoint: number) => boolean): Steps<WordIndex> {
  const { hanja, readings, notes, longest, core } = yield* listWordsSteps(text, isEducation);
  const table = yield* hashTableSteps(hanja);
  const count = hanja.starts.length - 1;

  const checked = (position: number): number => {
    if (!(position >= 0 && position < count)) throw new RangeError(`words: no word at ${position} (${count} words)`);
    return position;
  };
  const word = (position: number): Word => ({
    hanja: line(hanja, checked(position)),
    readings: line(readings, position).split(","),
    note: notes.get(position) ?? null,
  });
  const positionOf = (query: string): number => {
    if (query === "" || query.includes("\n")) return -1;
    for (let slot = hashOf(query, 0, query.length) & table.mask; ; slot = (slot + 1) & table.mask) {
      const position = (table.slots[slot] as number) - 1;
      if (position === -1) return -1;
      if (lineIs(hanja, position, query)) return position;
    }
  };
  return {
    count,
    longest,
    word,
    hanjaAt: (position) => line(hanja, checked(position)),
    positionOf,
    lookup: (query) => {
      const position = positionOf(query);
      return position === -1 ? undefined : word(position);
    },
    ofCharacter(character) {
      if (character === "") return [];
      const listed = matches(hanja, character, "any")[2];
      // An education hanja's own core words first (docs/rules.md "Words"), then the rest as listed.
      const own = core.get(character)?.map(positionOf);
      return own === undefined ? listed : [...own, ...listed.filter((position) => !own.includes(position))];
    },
    search: (q) => {
      if (q === "" || !/^(?:\p{Script=Han}+|\p{Script=Hangul}+)$/u.test(q)) return [];
      return (/\p{Script=Han}/u.test(q) ? matches(hanja, q, "line") : matches(readings, q, "comma-separated")).flat();
    },
  };
}

function line(lines: Lines, position: number): string {
  return lines.text.slice(lines.starts[position], (lines.starts[position + 1] as number) - 1);
}

function lineIs(lines: Lines, position: number, value: string): boolean {
  const start = lines.starts[position] as number;
  return (lines.starts[position + 1] as number) - 1 - start === value.length && lines.text.startsWith(value, start);
}

/** The line holding the text's offset `at` (a binary search of the starts). */
function lineAt(lines: Lines, at: number): number {
  let low = 0;
  let high = lines.starts.length - 2;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if ((lines.starts[middle] as number) <= at) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * The lines holding `q` as [equal, starting with it, containing it], each in line order. A line is
 * one value, or several separated by commas (a word's readings: equal or starting means one of
 * them); with `any`, every line holding `q` is in the third list.
 */
function matches(lines: Lines, q: string, values: "line" | "comma-separated" | "any"): [number[], number[], number[]] {
  const groups: [number[], number[], number[]] = [[], [], []];
  const { text, starts } = lines;
  const commas = values === "comma-separated";
  for (let hit = text.indexOf(q); hit !== -1; ) {
    const position = lineAt(lines, hit);
    const end = (starts[position + 1] as number) - 1;
    let best = 2;
    // Every hit in this line, for the best group: a later reading may equal q where an earlier only contains it.
    for (; values !== "any" && hit !== -1 && hit < end; hit = text.indexOf(q, hit + 1)) {
      const opens = hit === starts[position] || (commas && text.charCodeAt(hit - 1) === COMMA);
      if (!opens) continue;
      const after = hit + q.length;
      const closes = after === end || (commas && text.charCodeAt(after) === COMMA);
      best = Math.min(best, closes ? 0 : 1);
      if (best === 0) break;
    }
    groups[best]?.push(position);
    hit = text.indexOf(q, end + 1);
  }
  return groups;
}

const COMMA = 0x2c;
/** The words a step of the hash table works through. */
const STEP = 4096;

/** Open addressing: slot → listed position + 1 (0 empty), at most half full. */
interface HashTable {
  slots: Uint32Array;
  mask: number;
}

function* hashTableSteps(lines: Lines): Steps<HashTable> {
  const count = lines.starts.length - 1;
  let size = 1;
  while (size < count * 2) size *= 2;
  const table = { slots: new Uint32Array(size), mask: size - 1 };
  for (let from = 0; from < count; from += STEP) {
    hashSome(lines, table, from, Math.min(from + STEP, count));
    yield;
  }
  return table;
}

/** Puts the lines `[from, to)` in the table (a plain function: a generator's own loops are not optimized while they run). */
function hashSome(lines: Lines, table: HashTable, from: number, to: number): void {
  for (let position = from; position < to; position++) {
    let slot = hashOf(lines.text, lines.starts[position] as number, (lines.starts[position + 1] as number) - 1) & table.mask;
    while (table.slots[slot] !== 0) slot = (slot + 1) & table.mask;
    table.slots[slot] = position + 1;
  }
}

/** FNV-1a over the UTF-16 code units of `text[start, end)`. */
function hashOf(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
