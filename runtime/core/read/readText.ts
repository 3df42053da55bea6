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
 * 다만), so the initial-sound law does not apply to it.
 */
import { atWordStart, afterSyllable, buBefore } from "./syllableRules.ts";
import { type ChosenReading, chooseReading } from "./chooseReading.ts";
import type { ReaderLinks, ReaderSource } from "./source.ts";
import type { ReadResult, ReadSegment } from "../../format/records.ts";

export type { ReadResult, ReadSegment };

/** A run of Han characters (the Script=Han property: unified, compatibility and astral ideographs, 々 〇). */
const HAN_RUN = /\p{Script=Han}+/gu;
/** Compatibility ideographs, looked up as the unified ideograph they stand for (樂 U+F914 → 樂 U+6A02). */
const COMPATIBILITY = /[\uF900-\uFAFF\u{2F800}-\u{2FA1F}]/u;
/** A decimal digit ending the text before a run (two code units: some digits are astral). */
const DIGIT_BEFORE = /\p{Nd}$/u;

/** Reads `text` with the words and characters of `source` (see the module's rules); a character read alone links to its detail when `links` are given. */
export function readText(text: string, source: ReaderSource, links?: ReaderLinks): ReadResult {
  const segments: ReadSegment[] = [];
  let hangul = "";
  let last = 0;
  for (const match of text.matchAll(HAN_RUN)) {
    const offset = match.index;
    hangul += text.slice(last, offset);
    const run = readRun(match[0], offset, source, links, afterDigit(text, offset));
    for (const segment of run) hangul += segment.hangul;
    segments.push(...run);
    last = offset + match[0].length;
  }
  hangul += text.slice(last);
  return { text, hangul, segments };
}

interface Piece {
  start: number;
  length: number;
}

/** True when the character before `offset` is a decimal digit (of any script: 1, １). */
function afterDigit(text: string, offset: number): boolean {
  return offset > 0 && DIGIT_BEFORE.test(text.slice(Math.max(0, offset - 2), offset));
}

function readRun(run: string, offset: number, source: ReaderSource, links: ReaderLinks | undefined, counted: boolean): ReadSegment[] {
  const written = [...run];
  const chars = COMPATIBILITY.test(run) ? written.map((c) => (COMPATIBILITY.test(c) ? c.normalize("NFC") : c)) : written;
  const pieces = segmentRun(chars, source);
  const segments: ReadSegment[] = [];
  let at = offset;
  // After a digit the first piece is not the start of a word: "" is a syllable no rule changes a reading after.
  let previous: string | undefined = counted ? "" : undefined;
  for (const piece of pieces) {
    const pieceChars = chars.slice(piece.start, piece.start + piece.length);
    const hanja = written.slice(piece.start, piece.start + piece.length).join("");
    let segment: ReadSegment;
    if (piece.length > 1) segment = readWord(pieceChars, hanja, source);
    else {
      // A compatibility ideograph with a reading of its own (樂 U+F914, the 낙 of KS X 1001) is read with it.
      const single = hanja === pieceChars[0] || source.characterReadings(hanja) === undefined ? (pieceChars[0] as string) : hanja;
      segment = readCharacter(single, hanja, previous, source, links);
    }
    segment.offset = at;
    at += hanja.length;
    segments.push(segment);
    previous = segment.source === "none" ? undefined : segment.hangul.at(-1);
  }
  applyBu(segments);
  readFamilyName(segments, pieces);
  return segments;
}

/** Fewest pieces, then longest first (see the module's rule), by dynamic programming from the run's end. */
export function segmentRun(chars: readonly string[], source: ReaderSource): Piece[] {
  const n = chars.length;
  // Candidate words are cut from one string by UTF-16 offsets, not joined from arrays: most
  // positions try several lengths, and this is most of a reading's work.
  const text = chars.join("");
  const at = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) at[i + 1] = (at[i] as number) + (chars[i] as string).length;
  const count = new Uint32Array(n + 1);
  const length = new Uint8Array(n).fill(1);
  for (let i = n - 1; i >= 0; i--) {
    count[i] = 1 + (count[i + 1] as number);
    const lengths = i + 1 < n ? source.wordLengthsFrom(chars[i] as string, chars[i + 1] as string) : 0;
    for (let len = Math.min(n - i, 31); len >= 2; len--) {
      if ((lengths & (1 << len)) === 0) continue;
      const pieces = 1 + (count[i + len] as number);
      if (pieces < (count[i] as number) || (pieces === count[i] && len > (length[i] as number))) {
        if (!source.hasWord(text.slice(at[i], at[i + len]))) continue;
        count[i] = pieces;
        length[i] = len;
      }
    }
  }
  const pieces: Piece[] = [];
  for (let i = 0; i < n; i += length[i] as number) pieces.push({ start: i, length: length[i] as number });
  return pieces;
}

/** The choice made for each word with several readings, per source: at most the dictionary's few thousand such words. */
const choices = new WeakMap<ReaderSource, Map<string, ChosenReading>>();

function readWord(chars: string[], hanja: string, source: ReaderSource): ReadSegment {
  const word = chars.join("");
  const readings = source.wordReadings(word) as readonly string[];
  let chosen: ChosenReading | undefined = { reading: readings[0] as string, others: [] };
  if (readings.length > 1) {
    let made = choices.get(source);
    if (made === undefined) choices.set(source, (made = new Map()));
    chosen = made.get(word);
    if (chosen === undefined) made.set(word, (chosen = chooseReading(chars, readings, readCharacters(chars, source), source)));
  }
  const segment: ReadSegment = { hanja, hangul: chosen.reading, source: "dictionary", other_readings: chosen.others, offset: 0 };
  const idx = source.idiomIdx(word);
  if (idx !== undefined) segment.idiom_idx = idx;
  return segment;
}

function readCharacter(char: string, hanja: string, previous: string | undefined, source: ReaderSource, links: ReaderLinks | undefined): ReadSegment {
  const usual = source.usualReading(char);
  const href = links && source.characterReadings(char) !== undefined ? links.characterPath(char) : undefined;
  if (usual === undefined) return { hanja, hangul: hanja, source: "none", other_readings: [], offset: 0, ...(href ? { href } : {}) };
  const reading = previous === undefined ? atWordStart(usual) : afterSyllable(previous, usual);
  const others = (source.characterReadings(char) ?? []).filter((r) => r !== reading);
  return { hanja, hangul: reading, source: "characters", other_readings: others, offset: 0, ...(href ? { href } : {}) };
}

/** A word's reading character by character, as if no dictionary word covered it (for `chooseReading`'s step 4). */
function readCharacters(chars: readonly string[], source: ReaderSource): string {
  const syllables: string[] = [];
  chars.forEach((c, i) => {
    const usual = source.usualReading(c) ?? c;
    syllables.push(i === 0 ? atWordStart(usual) : afterSyllable(syllables[i - 1] as string, usual));
  });
  chars.forEach((c, i) => {
    if (c === "不" && syllables[i] === "불" && buBefore(syllables[i + 1])) syllables[i] = "부";
  });
  return syllables.join("");
}

/** 不 read alone is 부 before a piece starting with ㄷ or ㅈ (不當 부당, 不正 부정; 한글 맞춤법 제52항). */
function applyBu(segments: ReadSegment[]): void {
  for (let i = 0; i < segments.length - 1; i++) {
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
 * 金 alone at the start of a run of two to four characters that no word covers is a family name,
 * read 김 (金大中 김대중); the dictionary's names and places (金九, 金浦) are words of their own.
 */
function readFamilyName(segments: ReadSegment[], pieces: readonly Piece[]): void {
  const first = segments[0];
  if (first === undefined || (first.hanja !== "金" && first.hanja !== "\uF90A") || pieces.length < 2 || pieces.length > 4) return;
  if (pieces.every((p) => p.length === 1)) {
    first.hangul = "김";
    first.other_readings = ["금"];
  }
}
