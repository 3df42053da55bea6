/**
 * Reads text that mixes Han characters with anything else: every run of Han characters is split
 * into words of the dictionary and read, everything else is passed through unchanged.
 *
 * Segmentation: of all the ways to cover a run with dictionary words (two characters or more)
 * and single characters, the one with the fewest pieces; among those, the one whose first piece
 * is longest, then its second, and so on (大韓民國國民 → 大韓民國 國民).
 *
 * Reading: a dictionary word takes the reading `chooseReading` picks. A character no word covers
 * takes its usual reading (`usualReading.ts`), spelled by its place: at the start of a run under
 * the initial-sound law (來 내), after another piece as part of it (歷史論 역사론, 合格率 합격률,
 * 比率 as two characters 비율), 不 as 부 before ㄷ and ㅈ. Adjacent characters no word covers are read
 * as one word (a name: 李麗 이려), and 金 starting two to four such characters as the family name
 * 김 (金大中 김대중). A word after another piece starts a word of its own, so the
 * initial-sound law applies to it (國際聯合 국제연합, 男女老少 남녀노소: 한글 맞춤법 제12항 붙임 2).
 * A character right after a digit is a bound noun counting it (1919年 1919년, 10里 10리: 제10항
 * 다만), so the initial-sound law does not apply to it; a word starting with 年 there starts with
 * the bound noun 년 (2025年度 2025년도), and 兩 and 列 are the bound nouns 냥 and 열 (`afterNumber`).
 */
import { afterNumber, atWordStart, afterSyllable, buBefore } from "../../format/syllableRules.ts";
import { type ChosenReading, chooseWordReading } from "../../format/chooseReading.ts";
import type { ReaderLinks, ReaderSource } from "./source.ts";
import type { ReadResult, ReadSegment } from "../../format/records.ts";
import { type Steps, runAtOnce } from "./slices.ts";

export type { ReadResult, ReadSegment };

/** A run of Han characters (the Script=Han property: unified, compatibility and astral ideographs, 々 〇). */
const HAN_RUN = /\p{Script=Han}+/gu;
/** Compatibility ideographs, looked up as the unified ideograph they stand for (樂 U+F914 → 樂 U+6A02). */
const COMPATIBILITY = /[\uF900-\uFAFF\u{2F800}-\u{2FA1F}]/u;
/** A decimal digit ending the text before a run (two code units: some digits are astral). */
const DIGIT_BEFORE = /\p{Nd}$/u;

/** Reads `text` with the words and characters of `source` (see the module's rules); a character read alone links to its detail when `links` are given. */
export function readText(text: string, source: ReaderSource, links?: ReaderLinks): ReadResult {
  const state = textReading(text, source, links);
  while (!state.done) {
    const long = readRuns(state, Number.POSITIVE_INFINITY);
    if (long !== undefined) runAtOnce(long);
  }
  return endText(state);
}

/**
 * `readText` as steps (`slices.ts`): it yields about every `STEP_PIECES` pieces, between runs and
 * inside a long run, so that a long text can be read a slice at a time.
 */
export function* readTextSteps(text: string, source: ReaderSource, links?: ReaderLinks): Steps<ReadResult> {
  const state = textReading(text, source, links);
  while (!state.done) {
    const long = readRuns(state, STEP_PIECES);
    if (long !== undefined) yield* long;
    yield;
  }
  return endText(state);
}

/** A text being read: how far (`at`: where the pattern goes on), and its reading so far. */
interface TextReading {
  text: string;
  reading: Reading;
  hangul: string;
  /** The end of the last run read. */
  last: number;
  /** Where the next run is looked for. */
  at: number;
  done: boolean;
}

function textReading(text: string, source: ReaderSource, links: ReaderLinks | undefined): TextReading {
  const reading: Reading = { source, links, kept: keptFor(source), lately: latelyFor(source), segments: [] };
  return { text, reading, hangul: "", last: 0, at: 0, done: false };
}

/**
 * Reads the text's runs on from where it stopped until about `most` pieces are read; a long run
 * (over `LONG_RUN` units) is not read here but given back, as steps, for the caller to run.
 */
function readRuns(state: TextReading, most: number): Steps<void> | undefined {
  const { text, reading } = state;
  const { segments } = reading;
  let pieces = 0;
  // `exec` from `lastIndex` rather than `matchAll`, whose iterator cost more than the pattern's matching.
  HAN_RUN.lastIndex = state.at;
  for (let match = HAN_RUN.exec(text); match !== null; match = HAN_RUN.exec(text)) {
    const offset = match.index;
    const run = match[0];
    state.at = HAN_RUN.lastIndex;
    state.hangul += text.slice(state.last, offset);
    state.last = offset + run.length;
    const first = segments.length;
    if (run.length > LONG_RUN) {
      const steps = readLongRun(run, offset, reading, afterDigit(text, offset));
      return (function* () {
        yield* steps;
        for (let i = first; i < segments.length; i++) state.hangul += (segments[i] as ReadSegment).hangul;
      })();
    }
    readRun(run, offset, reading, afterDigit(text, offset), scratchArrays(run.length));
    for (let i = first; i < segments.length; i++) state.hangul += (segments[i] as ReadSegment).hangul;
    pieces += segments.length - first + 1;
    if (pieces >= most) return undefined;
  }
  state.done = true;
  return undefined;
}

function endText(state: TextReading): ReadResult {
  state.hangul += state.text.slice(state.last);
  return { text: state.text, hangul: state.hangul, segments: state.reading.segments };
}

/** About how many pieces are read between two steps (a few tens of microseconds of work). */
const STEP_PIECES = 128;
/** A run longer than this (in UTF-16 units) is read in steps, with arrays of its own. */
const LONG_RUN = 1024;

/** True when the character before `offset` is a decimal digit (of any script: 1, １). */
function afterDigit(text: string, offset: number): boolean {
  if (offset === 0) return false;
  const unit = text.charCodeAt(offset - 1);
  if (unit < 0x80) return unit >= 0x30 && unit <= 0x39;
  return DIGIT_BEFORE.test(text.slice(Math.max(0, offset - 2), offset));
}

/** What reading one text uses: the source, the links, the source's chosen readings (`chosenReadings`) and words read lately (`wordReadings`), and the segments so far. */
interface Reading {
  source: ReaderSource;
  links: ReaderLinks | undefined;
  kept: Map<number, ChosenReading>;
  lately: Map<number, WordReading>;
  segments: ReadSegment[];
}

/** A run's characters: their code points and where each starts in the run's string (one more offset: its end). */
interface RunText {
  text: string;
  /** How many characters. */
  n: number;
  codes: Uint32Array;
  at: Uint32Array;
  /** Whether it holds a compatibility ideograph (see `COMPATIBILITY`). */
  compatibility: boolean;
}

/** The arrays a run is read with, each at least as long as the run in UTF-16 units (`at` and `count` one more). */
interface RunArrays {
  codes: Uint32Array;
  at: Uint32Array;
  count: Uint32Array;
  length: Uint8Array;
  position: Int32Array;
}

const runArrays = (size: number): RunArrays => ({
  codes: new Uint32Array(size),
  at: new Uint32Array(size + 1),
  count: new Uint32Array(size + 1),
  length: new Uint8Array(size),
  position: new Int32Array(size),
});

/**
 * Arrays reused from run to run, grown to the longest short run read: a typed array made per run
 * cost more than the rest of reading a short one. A short run is read without a step, so one run
 * uses them at a time; a long one, read in steps while others may be read, has arrays of its own.
 */
let scratch = runArrays(64);

function scratchArrays(units: number): RunArrays {
  if (units > scratch.codes.length) scratch = runArrays(Math.max(units, scratch.codes.length * 2));
  return scratch;
}

/** The code points and offsets of `text`, in the given arrays. */
function runText(text: string, { codes, at }: Pick<RunArrays, "codes" | "at">): RunText {
  let n = 0;
  let compatibility = false;
  for (let i = 0; i < text.length; n++) {
    const code = text.codePointAt(i) as number;
    codes[n] = code;
    at[n] = i;
    // The ranges of `COMPATIBILITY`, told here rather than by a second pass of the pattern over the run.
    if ((code >= 0xf900 && code <= 0xfaff) || (code >= 0x2f800 && code <= 0x2fa1f)) compatibility = true;
    i += code > 0xffff ? 2 : 1;
  }
  at[n] = text.length;
  return { text, n, codes, at, compatibility };
}

/** A run being read: its text as written and as looked up, its arrays, and how far its pieces are read. */
interface RunReading {
  run: string;
  offset: number;
  reading: Reading;
  written: RunText;
  looked: RunText;
  arrays: RunArrays;
  /** The segment its first piece went to. */
  first: number;
  /** The last syllable read, or undefined at the start of a word (see `readCharacter`). */
  previous: string | undefined;
  /** How many of its pieces are dictionary words. */
  words: number;
  /** A digit comes right before it: its first piece is a counter (`spellAfterNumber`). */
  counted: boolean;
}

/** A run to read with these arrays; `counted` when a digit comes right before it. */
function runReading(run: string, offset: number, reading: Reading, counted: boolean, arrays: RunArrays): RunReading {
  const written = runText(run, arrays);
  // Looked up as the unified ideographs (a compatibility ideograph decomposes to exactly one).
  const looked = written.compatibility
    ? runText(Array.from(run, (c) => (COMPATIBILITY.test(c) ? c.normalize("NFC") : c)).join(""), {
        codes: new Uint32Array(run.length),
        at: new Uint32Array(run.length + 1),
      })
    : written;
  // After a digit the first piece is not the start of a word: "" is a syllable no rule changes a reading after.
  return { run, offset, reading, written, looked, arrays, first: reading.segments.length, previous: counted ? "" : undefined, words: 0, counted };
}

/** Reads one run of Han characters into `segments` at once; `counted` when a digit comes right before it. */
function readRun(run: string, offset: number, reading: Reading, counted: boolean, arrays: RunArrays): void {
  const state = runReading(run, offset, reading, counted, arrays);
  segmentRun(state.looked, reading.source, arrays, 0, state.looked.n);
  readPieces(state, 0, state.looked.n);
  endRun(state);
}

/** Reads a long run of Han characters (over `LONG_RUN` units) in steps, with arrays of its own. */
function* readLongRun(run: string, offset: number, reading: Reading, counted: boolean): Steps<void> {
  const state = runReading(run, offset, reading, counted, runArrays(run.length));
  const { n } = state.looked;
  // Segmented from the end, as the dynamic programming goes.
  for (let end = n; end > 0; end -= 4 * STEP_PIECES) {
    segmentRun(state.looked, reading.source, state.arrays, Math.max(0, end - 4 * STEP_PIECES), end);
    yield;
  }
  for (let i = 0; i < n; ) {
    i = readPieces(state, i, STEP_PIECES);
    yield;
  }
  endRun(state);
}

/** Reads the pieces of the run from character `i` on, about `most` characters of them; gives the character after the last piece read. */
function readPieces(state: RunReading, i: number, most: number): number {
  const { run, written, looked, reading } = state;
  const { source, links, segments } = reading;
  const { length, position } = state.arrays;
  const stop = Math.min(looked.n, i + most);
  for (; i < stop; i += length[i] as number) {
    const end = i + (length[i] as number);
    const hanja = run.slice(written.at[i], written.at[end]);
    let segment: ReadSegment;
    if (end - i > 1) {
      // Without compatibility ideographs the word looked up is the one written.
      const word = looked === written ? hanja : looked.text.slice(looked.at[i], looked.at[end]);
      segment = readWord(position[i] as number, word, hanja, reading);
      state.words++;
    } else {
      const char = String.fromCodePoint(looked.codes[i] as number);
      // A compatibility ideograph with a reading of its own (樂 U+F914, the 낙 of KS X 1001) is read with it.
      const single = hanja === char || source.characterReadings(hanja) === undefined ? char : hanja;
      segment = readCharacter(single, hanja, state.previous, source, links);
    }
    segment.offset = state.offset + (written.at[i] as number);
    if (state.counted && i === 0) spellAfterNumber(segment, String.fromCodePoint(looked.codes[0] as number));
    segments.push(segment);
    state.previous = segment.source === "none" ? undefined : segment.hangul.at(-1);
  }
  return i;
}

/** The rules that look at the run's pieces together, once they are all read. */
function endRun({ reading: { segments }, first, words }: RunReading): void {
  applyBu(segments, first);
  if (words === 0) readFamilyName(segments, first);
}

/**
 * Fewest pieces, then longest first (see the module's rule), by dynamic programming from the run's
 * end, for the characters from `from` to `to` (the ones after `to` done already, or none when `to`
 * is the run's end), into the arrays: `length[i]` the length of the piece starting at character
 * `i`, `position[i]` its word's position in the source.
 */
function segmentRun(run: RunText, source: ReaderSource, { count, length, position }: RunArrays, from: number, to: number): void {
  const { text, codes, at, n } = run;
  if (to === n) count[n] = 0;
  for (let i = to - 1; i >= from; i--) {
    count[i] = 1 + (count[i + 1] as number);
    length[i] = 1;
    position[i] = -1;
    const lengths = i + 1 < n ? source.wordLengthsFrom(codes[i] as number, codes[i + 1] as number) : 0;
    if (lengths === 0) continue;
    for (let len = Math.min(n - i, 31); len >= 2; len--) {
      if ((lengths & (1 << len)) === 0) continue;
      const pieces = 1 + (count[i + len] as number);
      if (pieces < (count[i] as number) || (pieces === count[i] && len > (length[i] as number))) {
        const found = source.wordPosition(text.slice(at[i], at[i + len]));
        if (found === -1) continue;
        count[i] = pieces;
        length[i] = len;
        position[i] = found;
      }
    }
  }
}

/**
 * Per source whose words' readings are not chosen ahead (`ReaderSource.chosenFirst` false: a
 * handful of words in a test or an embedder's own), the reading chosen for each word of several
 * readings, by its position, kept for good: choosing costs up to milliseconds a word (step 6 of
 * `chooseReading` scans the words holding a character). The built data lists every word's chosen
 * reading first, so the service chooses none at run time.
 */
const chosenReadings = new WeakMap<ReaderSource, Map<number, ChosenReading>>();

function keptFor(source: ReaderSource): Map<number, ChosenReading> {
  let kept = chosenReadings.get(source);
  if (kept === undefined) chosenReadings.set(source, (kept = new Map()));
  return kept;
}

function latelyFor(source: ReaderSource): Map<number, WordReading> {
  let lately = wordReadings.get(source);
  if (lately === undefined) wordReadings.set(source, (lately = new Map()));
  return lately;
}

/** A word's reading as every segment of it answers it. */
interface WordReading {
  chosen: ChosenReading;
  idiom: number | undefined;
}

/**
 * Per source, the readings of the words read lately, by position: bounded (past `WORDS_KEPT`, they
 * are dropped and kept anew), which costs little since a word's choice is in `chosenReadings`.
 */
const wordReadings = new WeakMap<ReaderSource, Map<number, WordReading>>();
/** How many words' readings are kept per source (the commonest words of a text come back in the next). */
const WORDS_KEPT = 20_000;
const ONE_READING: string[] = [];

function readWord(position: number, word: string, hanja: string, { source, kept, lately }: Reading): ReadSegment {
  let known = lately.get(position);
  if (known === undefined) {
    const readings = source.wordReadingsAt(position);
    let chosen =
      readings.length === 1
        ? { reading: readings[0] as string, others: ONE_READING }
        : source.chosenFirst
          ? { reading: readings[0] as string, others: readings.slice(1) }
          : kept.get(position);
    if (chosen === undefined) kept.set(position, (chosen = chooseWordReading(word, readings, source)));
    if (lately.size >= WORDS_KEPT) lately.clear();
    lately.set(position, (known = { chosen, idiom: source.idiomIdx(word) }));
  }
  // The others are copied: a caller may change its answer without changing the next one.
  const segment: ReadSegment = { hanja, hangul: known.chosen.reading, source: "dictionary", other_readings: known.chosen.others.slice(), offset: 0 };
  if (known.idiom !== undefined) segment.idiom_idx = known.idiom;
  return segment;
}

function readCharacter(char: string, hanja: string, previous: string | undefined, source: ReaderSource, links: ReaderLinks | undefined): ReadSegment {
  const usual = source.usualReading(char);
  const readings = source.characterReadings(char);
  let segment: ReadSegment;
  if (usual === undefined) segment = { hanja, hangul: hanja, source: "none", other_readings: [], offset: 0 };
  else {
    const reading = previous === undefined ? atWordStart(usual) : afterSyllable(previous, usual);
    segment = { hanja, hangul: reading, source: "characters", other_readings: (readings ?? []).filter((r) => r !== reading), offset: 0 };
  }
  // Set after the others, not spread in: one object a piece, its members in the answer's order.
  if (links && readings !== undefined) segment.href = links.characterPath(char);
  return segment;
}

/** A run's first piece right after a digit, spelled as the counter its first character is (`afterNumber`); the reading it replaces joins the others. */
function spellAfterNumber(segment: ReadSegment, first: string): void {
  if (segment.source === "none") return;
  const reading = afterNumber(first, segment.hangul);
  if (reading === segment.hangul) return;
  segment.other_readings = [segment.hangul, ...segment.other_readings].filter((r) => r !== reading);
  segment.hangul = reading;
}

/** 不 read alone is 부 before a piece starting with ㄷ or ㅈ (不當 부당, 不正 부정; 한글 맞춤법 제52항); the run's segments start at `first`. */
function applyBu(segments: ReadSegment[], first: number): void {
  for (let i = first; i < segments.length - 1; i++) {
    const segment = segments[i] as ReadSegment;
    if (segment.source === "characters" && segment.hangul === "불" && (segment.hanja === "不" || segment.hanja.normalize("NFC") === "不")) {
      if (buBefore((segments[i + 1] as ReadSegment).hangul[0])) {
        segment.hangul = "부";
        segment.other_readings = ["불"];
      }
    }
  }
}

/**
 * 金 alone at the start of a run of two to four characters that no word covers (called only for a
 * run without words) is a family name,
 * read 김 (金大中 김대중); the dictionary's names and places (金九, 金浦) are words of their own.
 */
function readFamilyName(segments: ReadSegment[], at: number): void {
  const first = segments[at];
  const pieces = segments.length - at;
  if (first === undefined || (first.hanja !== "金" && first.hanja !== "\uF90A") || pieces < 2 || pieces > 4) return;
  first.hangul = "김";
  first.other_readings = ["금"];
}
