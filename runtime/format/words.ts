/**
 * `dist/words.txt`: the dictionary's hanja words (docs/rules.md "Words"), written compactly, and
 * the order they are listed in. Words are in code point order, each written after the number of
 * leading characters it shares with the word before (front coding); most syllables of a reading
 * are the first reading of their character, so a reading is one digit per character saying which
 * of the character's syllables it takes: the package carries the file, and this makes it a fraction
 * of the plain text (the tarball's size: see RESULTS.md, "Words as a learner meets them").
 *
 * ```
 * 水수\t水道 …      the syllables of each character used by a word, one line each: the
 * 樂락악요낙        character, then its syllables (index 0, 1, 2, … in base 36), then for an
 *                  education hanja with core words a tab and those words, commonest first,
 *                  separated by spaces; an empty line ends them
 * 0歷史\t1,         a word: shared characters (base 36) and the rest of its hanja; a tab;
 * 2代\t1,           its readings separated by `,`, each as digits (trailing zeros left out:
 * 0佳景洞\t\t지명     empty = every first syllable) or, when a syllable is not among its
 *                  character's, as itself; when it has one, a tab and the dictionary's note
 *                  an empty line ends the words; then, one line per word in the same
 * 54               order, how many other words contain it (empty: none)
 * ```
 * ```
 */
import { NO_SCRATCH, type PackedStrings, type Scratch, codePointIn, unpack } from "./packedStrings.ts";
import { type Steps, runAtOnce } from "./steps.ts";

/** A word as the service lists it, before its idiom link: the written form, its readings (standard first) and the dictionary's note. */
export interface Word {
  hanja: string;
  readings: string[];
  note: string | null;
}

/** The note the dictionary gives a place name (`佳景洞:지명`): such words are listed last. */
export const PLACE_NAME_NOTE = "지명";

/** The base of the file's numbers: a word's shared characters are one digit, so a word has at most 36 characters. */
export const DIGITS = 36;

/** Compares two strings by code point (JavaScript's `<` compares UTF-16 code units, which orders astral characters otherwise). */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Only where a surrogate differs do code units and code points disagree on the order.
    if ((x & 0xf800) === 0xd800 || (y & 0xf800) === 0xd800) return (a.codePointAt(i) as number) - (b.codePointAt(i) as number);
    return x - y;
  }
  return a.length - b.length;
}

/**
 * The file for `words`, `within` giving how many other words contain each (absent: none), each
 * reading written against `syllablesOf(character)` (the first syllable its usual reading), `core`
 * the core words of the characters that have them (each a word of `words` holding the character).
 */
export function encodeWords(
  words: readonly Word[],
  within: ReadonlyMap<string, number>,
  syllablesOf: (character: string) => readonly string[],
  core: ReadonlyMap<string, readonly string[]> = new Map(),
): string {
  const sorted = [...words].sort((a, b) => compareCodePoints(a.hanja, b.hanja));
  const used = new Set<string>();
  for (const { hanja } of sorted) for (const c of hanja) used.add(c);
  const header = [...used].sort(compareCodePoints).map((c) => {
    const syllables = syllablesOf(c);
    if (syllables.length === 0 || syllables.length > DIGITS) throw new Error(`words: ${c} has ${syllables.length} syllables; 1 to ${DIGITS} can be written`);
    const own = core.get(c) ?? [];
    return own.length === 0 ? `${c}${syllables.join("")}` : `${c}${syllables.join("")}\t${own.join(" ")}`;
  });
  let before: string[] = [];
  const lines = sorted.map(({ hanja, readings, note }) => {
    if (/[\t\n,]/.test(hanja + readings.join("") + (note ?? "")) || readings.length === 0)
      throw new Error(`words: ${hanja} has no reading, or a tab, newline or comma`);
    const characters = [...hanja];
    if (characters.length > DIGITS) throw new Error(`words: ${hanja} has more than ${DIGITS} characters`);
    let shared = 0;
    while (shared < characters.length - 1 && characters[shared] === before[shared]) shared++;
    before = characters;
    const codes = readings.map((reading) => readingCode(characters, reading, syllablesOf)).join(",");
    const fields = [`${shared.toString(DIGITS)}${characters.slice(shared).join("")}`, codes];
    return (note === null ? fields : [...fields, note]).join("\t");
  });
  // A column of its own: between the words' lines the counts cost a sixth more once gzipped.
  const counts = sorted.map(({ hanja }) => String(within.get(hanja) ?? ""));
  return `${header.join("\n")}\n\n${lines.join("\n")}\n\n${counts.join("\n")}\n`;
}

function readingCode(characters: readonly string[], reading: string, syllablesOf: (character: string) => readonly string[]): string {
  const syllables = [...reading];
  let code = "";
  for (let i = 0; i < characters.length; i++) {
    const at = syllablesOf(characters[i] as string).indexOf(syllables[i] as string);
    if (at === -1) return reading;
    code += at.toString(DIGITS);
  }
  // Trailing zeros (each character's first reading) are left out; trimmed without a pattern, which
  // an unanchored `0+$` would scan quadratically.
  let end = code.length;
  while (end > 0 && code[end - 1] === "0") end--;
  return code.slice(0, end);
}

/** The decoded file: each word's fields as columns, in code point order of the hanja. */
export interface WordColumns {
  hanja: PackedStrings;
  /** Each word's readings joined by `,`, the standard spelling first. */
  readings: PackedStrings;
  /** How many other words contain each word. */
  within: Uint32Array;
  /** The note of each word that has one, by position. */
  notes: Map<number, string>;
  /** The most characters (code points) a word has. */
  longest: number;
  /** Each education hanja's core words (hanja), commonest first: listed first (`listedOrder`). */
  core: ReadonlyMap<string, readonly string[]>;
  /** Each word's best rank among them (`coreRanksSteps`), by position. */
  coreRanks: Uint8Array;
}

/**
 * The order words are listed in (docs/rules.md "Words"), as positions of `columns`: words before
 * place names (note `지명`); then the education hanja's core words (`core-words.csv`, the
 * project's stated source of commonness), by their best rank (a word first for one character
 * before a word second for any); then shorter words; then words made only of the 1,800 education
 * hanja; then words more other words contain (水素 is in 103 longer words, 渴水 in none: a word
 * that builds many others is one a learner meets, and the dictionary has no frequencies); then code
 * point order.
 */
export function listedOrder(
  columns: Pick<WordColumns, "hanja" | "within" | "notes" | "coreRanks">,
  isEducation: (codePoint: number) => boolean,
  memory: Scratch = NO_SCRATCH,
): Uint32Array {
  return runAtOnce(listedOrderSteps(columns, isEducation, memory));
}

/**
 * `listedOrder` in steps of about a millisecond or less (a thousand words each). Each step's loop
 * is a plain function: a generator's own loops are not optimized while they run, which made the
 * whole much slower (see RESULTS.md, "The word index built in slices").
 */
export function* listedOrderSteps(
  columns: Pick<WordColumns, "hanja" | "within" | "notes" | "coreRanks">,
  isEducation: (codePoint: number) => boolean,
  memory: Scratch = NO_SCRATCH,
): Steps<Uint32Array> {
  const count = columns.hanja.starts.length - 1;
  if (count > POSITIONS) throw new Error(`words: ${count} words; the order can place ${POSITIONS}`);
  const ranks = columns.coreRanks;
  // One number per word, its sort key above its position (below 2^20): a numeric sort of a typed array, no comparator.
  const keys = memory.float64(count);
  for (let from = 0; from < count; from += STEP) {
    keysOf(columns, isEducation, ranks, keys, from, Math.min(from + STEP, count));
    yield;
  }
  const sorted = yield* sortSteps(keys, memory.float64(count));
  const order = memory.uint32(count);
  for (let from = 0; from < count; from += STEP) {
    positionsOf(sorted, order, from, Math.min(from + STEP, count));
    yield;
  }
  return order;
}

/** The sort keys of the words at positions `[from, to)`. */
function keysOf(
  columns: Pick<WordColumns, "hanja" | "within" | "notes">,
  isEducation: (codePoint: number) => boolean,
  ranks: Uint8Array,
  keys: Float64Array,
  from: number,
  to: number,
): void {
  const { units, starts } = columns.hanja;
  for (let position = from; position < to; position++) {
    let length = 0;
    let education = 1;
    for (let at = starts[position] as number; at < (starts[position + 1] as number); length++) {
      const codePoint = codePointIn(units, at);
      at += codePoint > 0xffff ? 2 : 1;
      if (!isEducation(codePoint)) education = 0;
    }
    const place = columns.notes.get(position) === PLACE_NAME_NOTE ? 1 : 0;
    const fewer = MAX_WITHIN - Math.min(columns.within[position] as number, MAX_WITHIN);
    const rank = ranks[position] as number;
    keys[position] = ((((place * 8 + rank) * 64 + Math.min(length, 63)) * 2 + (1 - education)) * (MAX_WITHIN + 1) + fewer) * POSITIONS + position;
  }
}

/** The positions in the sorted keys `[from, to)`. */
function positionsOf(sorted: Float64Array, order: Uint32Array, from: number, to: number): void {
  for (let listed = from; listed < to; listed++) order[listed] = (sorted[listed] as number) % POSITIONS;
}

/**
 * Sorts `keys` (distinct numbers) in steps: runs of `RUN` sorted natively, then merged in pairs,
 * runs twice as long each pass, a step per pair (the last pass merges all of them in one step; one
 * native sort of every word's keys held the loop far longer than a step: see RESULTS.md, "The word
 * index built in slices"). `spare` is as long as
 * `keys`; the sorted numbers end in one of the two, which is returned.
 */
function* sortSteps(keys: Float64Array, spare: Float64Array): Steps<Float64Array> {
  const count = keys.length;
  for (let start = 0; start < count; start += RUN) {
    keys.subarray(start, Math.min(start + RUN, count)).sort();
    yield;
  }
  let from = keys;
  let to = spare;
  for (let width = RUN; width < count; width *= 2) {
    for (let start = 0; start < count; start += 2 * width) {
      merge(from, to, start, Math.min(start + width, count), Math.min(start + 2 * width, count));
      yield;
    }
    [from, to] = [to, from];
  }
  return from;
}

/** Merges the sorted `from[start, middle)` and `from[middle, end)` into `to[start, end)`. */
function merge(from: Float64Array, to: Float64Array, start: number, middle: number, end: number): void {
  let i = start;
  let j = middle;
  for (let k = start; k < end; k++) {
    to[k] = j >= end || (i < middle && (from[i] as number) < (from[j] as number)) ? (from[i++] as number) : (from[j++] as number);
  }
}

/** The words a step of the order works through, and the numbers a run sorted at once holds. */
const STEP = 1024;
const RUN = 8192;
const MAX_WITHIN = 4095;
const POSITIONS = 2 ** 20;
/** The rank of a word that is no character's core word (core words rank 0 to 4). */
const NOT_CORE = 7;

/**
 * Each word's best rank among the core words of `core` (0 for a word some character lists first),
 * `NOT_CORE` for the rest, by position in `packed`; a step per character. A core word that is not
 * among the words is handed to `missing`, which throws.
 */
export function* coreRanksSteps(
  packed: PackedStrings,
  core: ReadonlyMap<string, readonly string[]>,
  missing: (character: string, word: string) => never,
): Steps<Uint8Array> {
  const ranks = new Uint8Array(packed.starts.length - 1).fill(NOT_CORE);
  for (const [character, words] of core) {
    words.forEach((word, rank) => {
      const position = positionIn(packed, word);
      if (position === -1) missing(character, word);
      if (rank < (ranks[position] as number)) ranks[position] = rank;
    });
    yield;
  }
  return ranks;
}

/** The position of `hanja` among the packed words (in code point order), or -1: a binary search. */
export function positionIn(packed: PackedStrings, hanja: string): number {
  let low = 0;
  let high = packed.starts.length - 2;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const order = compareCodePoints(unpack(packed, middle), hanja);
    if (order === 0) return middle;
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
