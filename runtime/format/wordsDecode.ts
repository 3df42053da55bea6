/**
 * Reading `words.txt` (its format: `words.ts`): into columns, for the build's checks and tests, and
 * into the lines in listed order the runtime's word index searches.
 */
import { NO_SCRATCH, Packer, type PackedStrings, Scratch, unitsToString } from "./packedStrings.ts";
import { type Steps, runAtOnce } from "./steps.ts";
import { DIGITS, type WordColumns, coreRanksSteps, listedOrderSteps } from "./words.ts";

/** The words in listed order as the runtime holds them: two texts of one line per word, and the notes. */
export interface ListedWords {
  hanja: Lines;
  /** Each word's readings joined by `,`, the standard spelling first. */
  readings: Lines;
  /** The note of each word that has one, by listed position. */
  notes: Map<number, string>;
  /** The most characters (code points) a word has. */
  longest: number;
  /** Each education hanja's core words (hanja), commonest first (`WordColumns.core`). */
  core: ReadonlyMap<string, readonly string[]>;
}

/** Lines of text, one per word in listed order: the text starts and ends with `\n`, line `p` is `text[starts[p], starts[p + 1] - 1)`. */
export interface Lines {
  text: string;
  starts: Uint32Array;
}

/**
 * Decodes `words.txt` into the lines a word index keeps, in listed order (`listedOrder`;
 * `isEducation` says which code points are education hanja). Every working array is cut from one
 * scratch buffer, dropped whole when this returns: only the two texts, their starts and the notes stay.
 */
export function listWords(text: string, isEducation: (codePoint: number) => boolean, file = "words.txt"): ListedWords {
  return runAtOnce(listWordsSteps(text, isEducation, file));
}

/**
 * `listWords` in steps of about a millisecond or less (a few thousand words each), for a server
 * that decodes the words in slices beside its requests (at once, it held them up: see RESULTS.md,
 * "The word index built in slices").
 */
export function* listWordsSteps(text: string, isEducation: (codePoint: number) => boolean, file = "words.txt"): Steps<ListedWords> {
  let memory = NO_SCRATCH;
  const columns = yield* decodeSteps(text, file, (size) => {
    const { words, hanjaUnits, readingUnits } = size;
    // The two packers' starts and units, the counts, the order's keys (and the sort's spare) and positions, the lines' units.
    const bytes = [(words + 1) * 4, hanjaUnits * 2, (words + 1) * 4, readingUnits * 2, words * 4, words * 8, words * 8, words * 4];
    memory = Scratch.sized([...bytes, (hanjaUnits + words + 1) * 2, (readingUnits + words + 1) * 2]);
    return memory;
  });
  const order = yield* listedOrderSteps(columns, isEducation, memory);
  // The notes by listed position: a step per thousand words.
  const notes = new Map<number, string>();
  const noteSome = (from: number, to: number): void => {
    for (let listed = from; listed < to; listed++) {
      const note = columns.notes.get(order[listed] as number);
      if (note !== undefined) notes.set(listed, note);
    }
  };
  for (let from = 0; from < order.length; from += STEP) {
    noteSome(from, Math.min(from + STEP, order.length));
    yield;
  }
  const hanja = yield* listedLinesSteps(columns.hanja, order, memory);
  const readings = yield* listedLinesSteps(columns.readings, order, memory);
  return { hanja, readings, notes, longest: columns.longest, core: columns.core };
}

/** The packed strings as lines in listed order: copied a code unit at a time into scratch units, then made one string. */
function* listedLinesSteps(packed: PackedStrings, order: Uint32Array, memory: Scratch): Steps<Lines> {
  const starts = new Uint32Array(order.length + 1);
  const units = memory.uint16(packed.units.length + order.length + 1);
  units[0] = NEWLINE;
  let at = 1;
  for (let from = 0; from < order.length; from += STEP) {
    at = copyLines(packed, order, from, Math.min(from + STEP, order.length), units, starts, at);
    yield;
  }
  starts[order.length] = at;
  return { text: unitsToString(units), starts };
}

/** Copies the lines listed `[from, to)` into `units` from `at` (noting where each starts); where they end. */
function copyLines(packed: PackedStrings, order: Uint32Array, from: number, to: number, units: Uint16Array, starts: Uint32Array, at: number): number {
  for (let listed = from; listed < to; listed++) {
    const position = order[listed] as number;
    starts[listed] = at;
    for (let unit = packed.starts[position] as number; unit < (packed.starts[position + 1] as number); unit++) units[at++] = packed.units[unit] as number;
    units[at++] = NEWLINE;
  }
  return at;
}

/**
 * Reads `words.txt` (see the module's comment); a line of another shape fails naming the file and
 * the line. The words are decoded a code unit at a time into packed columns: no string is made per
 * word or per field (strings for every word made the first /words call's heap several times the
 * index, and the process kept it: see RESULTS.md, "Node's memory after load").
 */
export function decodeWords(text: string, file = "words.txt"): WordColumns {
  return runAtOnce(decodeSteps(text, file, () => NO_SCRATCH));
}

/** `decodeWords` in steps, its columns cut from the scratch buffer `memoryFor` makes once the words' size is known. */
function* decodeSteps(text: string, file: string, memoryFor: (size: WordsSize) => Scratch): Steps<WordColumns> {
  const fail = (line: number, why: string): never => {
    throw new Error(`dist: ${file} line ${line} ${why}; rebuild dist/`);
  };
  let at = 0;
  let line = 0;
  const next = (): string | undefined => {
    if (at >= text.length) return undefined;
    const end = text.indexOf("\n", at);
    const value = text.slice(at, end === -1 ? text.length : end);
    at = end === -1 ? text.length : end + 1;
    line++;
    return value;
  };
  // Each character's syllables, by code point; the core words of those that have them, and the line that lists them.
  const syllables = new Map<number, string>();
  const core = new Map<string, readonly string[]>();
  const coreLines = new Map<string, number>();
  for (let value = next(); value !== ""; value = next()) {
    if (value === undefined) return fail(line, "ends before the empty line that ends the characters");
    const codePoint = value.codePointAt(0) as number;
    const width = codePoint > 0xffff ? 2 : 1;
    const tab = value.indexOf("\t");
    const own = tab === -1 ? value.slice(width) : value.slice(width, tab);
    if (own === "") fail(line, "lists a character without syllables");
    syllables.set(codePoint, own);
    if (tab !== -1) {
      const character = value.slice(0, width);
      const words = value.slice(tab + 1).split(" ");
      const stray = words.find((word) => !word.includes(character));
      if (stray !== undefined) fail(line, `lists the core word ${JSON.stringify(stray)}, which does not hold ${character}`);
      core.set(character, words);
      coreLines.set(character, line);
    }
  }
  yield;
  const size = yield* sizeOfWordsSteps(text, at);
  const memory = memoryFor(size);
  const hanja = new Packer(size.words, size.hanjaUnits, memory);
  const readings = new Packer(size.words, size.readingUnits, memory);
  const notes = new Map<number, string>();
  const shape = "is not shared characters and hanja, then reading codes (and a note), separated by tabs";
  let longest = 0;
  let before = 0; // the characters of the word before
  // Up to `STEP` words decoded; true when the empty line that ends them is read. (Each step's loop
  // is a plain function: a generator's own loops are not optimized while they run.)
  const decodeSome = (): boolean => {
    for (let n = 0; n < STEP; n++) {
      if (at >= text.length) return fail(line, "ends before the empty line that ends the words");
      line++;
      if (text.charCodeAt(at) === NEWLINE) {
        at++;
        return true;
      }
      // The characters shared with the word before, copied from it.
      const shared = digitValue(text.charCodeAt(at++));
      if (!(shared >= 0 && shared <= before)) fail(line, shape);
      const start = hanja.length;
      let length = 0;
      for (let unit = hanja.lastStart; length < shared; length++) {
        const width = hanja.codePointAt(unit) > 0xffff ? 2 : 1;
        for (const end = unit + width; unit < end; unit++) hanja.push(hanja.unitAt(unit));
      }
      // The rest of the hanja, up to the tab.
      for (;;) {
        if (at >= text.length || text.charCodeAt(at) === NEWLINE) return fail(line, shape);
        const codePoint = text.codePointAt(at) as number;
        if (codePoint === TAB) break;
        if (!syllables.has(codePoint)) fail(line, `has ${String.fromCodePoint(codePoint)}, which the file's characters do not list`);
        hanja.push(text.charCodeAt(at++));
        if (codePoint > 0xffff) hanja.push(text.charCodeAt(at++));
        length++;
      }
      at++;
      // The readings, comma-separated, each code written against the characters' syllables.
      for (let first = true; ; first = false) {
        if (!first) readings.push(COMMA);
        const written = readings.length;
        const code = at;
        while (at < text.length && !isFieldEnd(text.charCodeAt(at))) at++;
        const fits = text.charCodeAt(code) >= 0xac00 ? copyReading(text, code, at, readings) : spellReading(text, code, at, hanja, start, syllables, readings);
        if (!fits || readings.length - written !== length) fail(line, `has a reading that does not fit its hanja ${unitsOf(hanja, start)}`);
        if (at >= text.length || text.charCodeAt(at) !== COMMA) break;
        at++;
      }
      hanja.close();
      readings.close();
      const position = hanja.count - 1;
      if (text.charCodeAt(at) === TAB) {
        const end = text.indexOf("\n", at);
        const note = text.slice(at + 1, end === -1 ? text.length : end);
        if (note.includes("\t")) fail(line, shape);
        notes.set(position, note);
        at = end === -1 ? text.length : end;
      }
      if (at < text.length)
        at++; // the line's newline
      else return fail(line, "ends before the empty line that ends the words");
      before = length;
      if (length > longest) longest = length;
    }
    return false;
  };
  while (!decodeSome()) yield;
  const count = hanja.count;
  const within = memory.uint32(count);
  const countSome = (from: number, to: number): void => {
    for (let position = from; position < to; position++) {
      if (at >= text.length) fail(line, `is not a count of words; one line per word (${count}) must follow them, got "the end"`);
      line++;
      let value = 0;
      let end = at;
      for (; end < text.length && text.charCodeAt(end) !== NEWLINE; end++) {
        const digit = text.charCodeAt(end) - 0x30;
        value = digit >= 0 && digit <= 9 ? value * 10 + digit : Number.NaN;
      }
      if (!(value <= 0xffffffff)) {
        fail(line, `is not a count of words; one line per word (${count}) must follow them, got ${JSON.stringify(text.slice(at, end))}`);
      }
      within[position] = value;
      at = end + 1;
    }
  };
  for (let from = 0; from < count; from += STEP) {
    countSome(from, Math.min(from + STEP, count));
    yield;
  }
  if (at < text.length) fail(line + 1, `follows the ${count} counts; the file should end there`);
  const packed = hanja.packed();
  const coreRanks = yield* coreRanksSteps(packed, core, (character, word) =>
    fail(coreLines.get(character) as number, `lists the core word ${word}, which is not one of the words`),
  );
  return { hanja: packed, readings: readings.packed(), within, notes, longest, core, coreRanks };
}

/** How many words a file holds, and the code units of their hanja and readings (joined by commas). */
interface WordsSize {
  words: number;
  hanjaUnits: number;
  readingUnits: number;
}

/**
 * How many words the words' lines from `at` hold, and at most how many code units their hanja and
 * readings take, to size the buffers once: a scan that only counts (what a line holds is checked
 * as it is decoded).
 */
function* sizeOfWordsSteps(text: string, at: number): Steps<WordsSize> {
  const size = { words: 0, hanjaUnits: 0, readingUnits: 0 };
  // The code units of each character of the word before, for the characters a word shares with it.
  const widths = new Uint8Array(DIGITS + 1);
  for (let from = at; from < text.length && text.charCodeAt(from) !== NEWLINE; yield) from = sizeOfSome(text, from, size, widths);
  return size;
}

/** `sizeOfWordsSteps` over up to `STEP` lines from `at`, counted into `size`; where it stopped. */
function sizeOfSome(text: string, at: number, size: WordsSize, widths: Uint8Array): number {
  for (let n = 0; n < STEP && at < text.length && text.charCodeAt(at) !== NEWLINE; n++) {
    size.words++;
    let characters = Math.max(digitValue(text.charCodeAt(at++)), 0);
    for (let i = 0; i < characters; i++) size.hanjaUnits += widths[i] as number;
    for (; at < text.length && !isFieldEnd(text.charCodeAt(at)); at++) {
      size.hanjaUnits++;
      if ((text.charCodeAt(at) & 0xfc00) === 0xdc00) widths[characters - 1] = 2;
      else if (characters < DIGITS) widths[characters++] = 1;
    }
    // The readings: the field after the tab, up to a second tab (a note) or the line's end.
    let readingCount = 1;
    for (at++; at < text.length && text.charCodeAt(at) !== NEWLINE && text.charCodeAt(at) !== TAB; at++) {
      if (text.charCodeAt(at) === COMMA) readingCount++;
    }
    size.readingUnits += readingCount * characters + readingCount - 1;
    const end = text.indexOf("\n", at);
    at = end === -1 ? text.length : end + 1;
  }
  return at;
}

/** The words a step works through (about a millisecond or less). */
const STEP = 1024;
const NEWLINE = 0x0a;
const TAB = 0x09;
const COMMA = 0x2c;

function isFieldEnd(unit: number): boolean {
  return unit === COMMA || unit === TAB || unit === NEWLINE;
}

/** The value of a base-36 digit (`0`–`9`, `a`–`z`), or -1. */
function digitValue(unit: number): number {
  if (unit >= 0x30 && unit <= 0x39) return unit - 0x30;
  if (unit >= 0x61 && unit <= 0x7a) return unit - 0x61 + 10;
  return -1;
}

/** The code units from `start` to the end of what a packer holds, as a string (for a message). */
function unitsOf(packer: Packer, start: number): string {
  let text = "";
  for (let at = start; at < packer.length; at++) text += String.fromCharCode(packer.unitAt(at));
  return text;
}

/** A reading written as itself (Hangul syllables, `text[from, to)`), copied. */
function copyReading(text: string, from: number, to: number, readings: Packer): boolean {
  for (let at = from; at < to; at++) readings.push(text.charCodeAt(at));
  return true;
}

/**
 * A reading written as digits (`text[from, to)`, one per character, missing trailing ones 0),
 * spelled from the syllables of the word's characters (`hanja` from `start`); false when a digit
 * names no syllable or there are more digits than characters.
 */
function spellReading(text: string, from: number, to: number, hanja: Packer, start: number, syllables: ReadonlyMap<number, string>, readings: Packer): boolean {
  let n = 0;
  for (let at = start; at < hanja.length; n++) {
    const codePoint = hanja.codePointAt(at);
    at += codePoint > 0xffff ? 2 : 1;
    const list = syllables.get(codePoint);
    const digit = from + n < to ? digitValue(text.charCodeAt(from + n)) : 0;
    if (list === undefined || digit < 0 || digit >= list.length) return false;
    readings.push(list.charCodeAt(digit));
  }
  return from + n >= to;
}
