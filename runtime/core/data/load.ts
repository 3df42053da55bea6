/**
 * Turns the `dist/` files into the in-memory structures every request is served from. Web APIs
 * only: the entry point reads the files (from disk or from the binary) and passes them in, as text
 * or bytes. Only what the first character detail needs is parsed when the app is made (the
 * manifest, the tables, the line lengths of the details); the rest waits for its first use.
 */
import MiniSearch from "minisearch";
import {
  DIST_FILES,
  DIST_FORMAT,
  type DataCounts,
  FLAG_EDUCATION,
  FLAG_HIGH_SCHOOL,
  FLAG_HUNUM,
  FLAG_MIDDLE_SCHOOL,
  FLAG_NAME,
  FLAG_STARTER,
  type Manifest,
  type QuizTables,
  type Tables,
} from "../../format/dist.ts";
import { CHARACTER_INDEX, type CharacterDoc, IDIOM_INDEX, type IdiomDoc } from "../../format/searchOptions.ts";
import { type DetailLines, detailLines } from "./detailLines.ts";
import { strokeFormOf } from "../../format/strokeSources.ts";
import { type HunIndexes, hunIndexes } from "../hanja/hunIndexes.ts";
import { type RecordFields, fieldsOf } from "./recordFields.ts";
import { type IdiomRecord, idiomItemA, idiomJsonB } from "../../format/records.ts";
import { type WordIndex, wordIndexSteps } from "../words/wordIndex.ts";
import type { Steps } from "../../format/steps.ts";
import { RADICAL_COUNT } from "../../format/radicals.ts";

/**
 * Each `dist/` file, keyed by file name (see `DIST_FILES`): its text, or its bytes (UTF-8).
 * `details.jsonl` as bytes is never decoded as a whole, so it makes the first answer faster.
 */
export type DistFiles = Readonly<Record<string, string | Uint8Array>>;

/** Character data: serialized records and details plus the columns filters and ordering use. */
export interface CharacterData {
  /** `"Unicode Unihan 17.0.0"`. */
  source: string;
  /** Serialized Hanja record per position (code point order); every record is cut on first access. */
  readonly records: readonly string[];
  /** Serialized detail body per position; every body is decoded on first access. */
  readonly details: readonly string[];
  /** The serialized Hanja record at a position, cut from its detail on first use. */
  record(position: number): string;
  /** The detail body at a position, as UTF-8 bytes. */
  detailBytes(position: number): Uint8Array<ArrayBuffer>;
  characters: readonly string[];
  /** The position of a character (one code point), found by binary search: records are in code point order. */
  position(character: string): number | undefined;
  /** Character → position, built on first access (`position` needs no map). */
  readonly positionOf: ReadonlyMap<string, number>;
  strokes: Uint8Array;
  radical: Uint8Array;
  /** The strokes of each Kangxi radical, index n − 1 (`Tables.radicalStrokes`). */
  radicalStrokes: readonly (number | null)[];
  flags: Uint8Array;
  readings: ReadonlyMap<string, readonly number[]>;
  glosses: readonly (readonly [number, string])[];
  /** Each record's `reading`, one Hangul syllable per position (`Tables.reading`). */
  reading: string;
  /**
   * A record's readings, 훈음 and variants, read from its text on first use and kept: the one
   * place the 훈음 are decoded (the character quizzes and search by 훈 both read them here).
   */
  fields(position: number): RecordFields;
  /** The 훈음 and 훈 maps search by 훈 reads (`HunIndexes`), made on first use from `fields`. */
  readonly hun: HunIndexes;
  /** The full-text index over English definitions and glosses, loaded on first use. */
  index(): MiniSearch<CharacterDoc>;
}

/**
 * Idiom data: records in idx order, their serialized forms for both interfaces, the meaning index.
 * Each member is parsed or made on first access (a character detail needs none of them).
 */
export interface IdiomData {
  readonly idioms: readonly IdiomRecord[];
  readonly positionOfIdx: ReadonlyMap<number, number>;
  /** Interface A item (`idx` as a string) per position. */
  readonly itemsA: readonly string[];
  /** Interface B raw record (`idx` as a number) per position. */
  readonly itemsB: readonly string[];
  /** Synonym groups, withheld idioms and hard-distractor pools, by position. */
  readonly quiz: QuizTables;
  index(): MiniSearch<IdiomDoc>;
}

export interface LoadedData {
  manifest: Manifest;
  characters: CharacterData;
  idioms: IdiomData;
  /** Counts measured from what was loaded (not copied from the manifest); the idioms are parsed on first access. */
  readonly counts: DataCounts;
  /** The pipeline's `/meta` body. */
  meta: Record<string, unknown>;
  /** The dictionary's words (`words.txt`), read and indexed on first access (a character detail needs none: its words are in its body). */
  readonly words: WordIndex;
  /**
   * The same words indexed in steps of about half a millisecond (for `runInSlices`: the whole is 100-200
   * ms of work, which a server does beside its requests), or at once by a step when already made.
   * The work is shared with `words`: whichever asks first starts it, and `words` finishes it at once.
   */
  wordsInSteps(): Steps<WordIndex>;
  /** Whether the words are indexed (`words` answers without work). */
  readonly wordsIndexed: boolean;
  /**
   * The words' English glosses (`meaning_en`) by hanja, read on first access from `words-en.txt`;
   * undefined where the dist files leave it out (the npm package: `OPTIONAL_FILES`).
   */
  readonly wordGlosses: ReadonlyMap<string, string> | undefined;
  /**
   * `strokes.jsonl`'s and `strokes-ja.jsonl`'s lines by character, as UTF-8 views into the files'
   * bytes, found on first access; undefined without either.
   */
  readonly strokes: ReadonlyMap<string, Uint8Array<ArrayBuffer>> | undefined;
  terms: string;
}

/**
 * Checks the dist files and makes the data from them, each part on first use; refuses an unknown
 * format version, a missing file or details that do not match the tables, with a clear message.
 */
export function loadData(files: DistFiles): LoadedData {
  const manifest = JSON.parse(text(files, DIST_FILES.manifest)) as Manifest;
  if (manifest.format !== DIST_FORMAT) {
    throw new Error(`dist: format ${JSON.stringify(manifest.format)} is not the format ${DIST_FORMAT} this runtime reads; rebuild it with \`npm run build\``);
  }
  const tables = JSON.parse(text(files, DIST_FILES.tables)) as Tables;
  if (!Array.isArray(tables.detailBytes) || tables.detailBytes.length !== tables.characters.length) {
    throw new Error(
      `dist: ${DIST_FILES.tables} lists ${tables.detailBytes?.length ?? "no"} detail lengths for ${tables.characters.length} characters; rebuild dist/`,
    );
  }
  if (!Array.isArray(tables.radicalStrokes) || tables.radicalStrokes.length !== RADICAL_COUNT) {
    throw new Error(`dist: ${DIST_FILES.tables} lists ${tables.radicalStrokes?.length ?? "no"} radical strokes, not ${RADICAL_COUNT}; rebuild dist/`);
  }
  if (typeof tables.reading !== "string" || tables.reading.length !== tables.characters.length) {
    throw new Error(`dist: ${DIST_FILES.tables} lists ${tables.reading?.length ?? "no"} readings for ${tables.characters.length} characters; rebuild dist/`);
  }
  const lines = detailLines(need(files, DIST_FILES.details), tables.detailBytes);
  // The strokes' forms, read with the first detail (null for every record where the host has no stroke data).
  const strokeForms = once(() => {
    const file = files[DIST_FILES.strokeForms];
    if (file === undefined) return "";
    const forms = decoded(DIST_FILES.strokeForms, file).trimEnd();
    if (forms.length !== lines.count)
      throw new Error(`dist: ${DIST_FILES.strokeForms} lists ${forms.length} stroke forms for ${lines.count} characters; rebuild dist/`);
    return forms;
  });
  const details = withStrokeOrder(lines, strokeForms);
  const later = [DIST_FILES.idioms, DIST_FILES.quiz, DIST_FILES.meta, DIST_FILES.terms, DIST_FILES.searchCharacters, DIST_FILES.searchIdioms, DIST_FILES.words];
  for (const name of later) {
    if (!(name in files)) need(files, name);
  }
  const recordAt: string[] = [];
  const record = (position: number) => (recordAt[position] ??= recordOfDetail(lines.text(position), position));
  const all = <T>(at: (position: number) => T) => once(() => Array.from({ length: details.count }, (_, position) => at(position)));
  const records = all(record);
  const detailTexts = all(details.text);
  const flags = Uint8Array.from(tables.flags);
  const codePoints = codePointsInOrder(tables.characters);
  const positionOf = once(() => new Map(tables.characters.map((c, i) => [c, i])));
  const fieldsAt: RecordFields[] = [];
  const fields = (position: number) => (fieldsAt[position] ??= fieldsOf(record(position), position));
  const hunMaps = once(() => hunIndexes(details.count, (position) => ((flags[position] ?? 0) & FLAG_HUNUM ? fields(position).hunum : [])));
  const characters: CharacterData = {
    source: `Unicode Unihan ${manifest.unihan.version}`,
    get records() {
      return records();
    },
    get details() {
      return detailTexts();
    },
    record,
    detailBytes: details.bytes,
    characters: tables.characters,
    position: (character) => positionIn(codePoints, character),
    get positionOf() {
      return positionOf();
    },
    strokes: Uint8Array.from(tables.strokes),
    radical: Uint8Array.from(tables.radical),
    radicalStrokes: tables.radicalStrokes,
    flags,
    readings: new Map(Object.entries(tables.readings)),
    glosses: tables.glosses,
    reading: tables.reading,
    fields,
    get hun() {
      return hunMaps();
    },
    // The indexes are read and rebuilt on first use (a few hundred ms): start-up does not wait for them.
    index: once(() => MiniSearch.loadJSON<CharacterDoc>(text(files, DIST_FILES.searchCharacters), CHARACTER_INDEX)),
  };
  const idioms = idiomData(files);
  const counts = once(
    (): DataCounts => ({
      characters: details.count,
      starters: countFlag(flags, FLAG_STARTER),
      education_hanja: countFlag(flags, FLAG_EDUCATION),
      middle_school_hanja: countFlag(flags, FLAG_MIDDLE_SCHOOL),
      high_school_hanja: countFlag(flags, FLAG_HIGH_SCHOOL),
      name_hanja: countFlag(flags, FLAG_NAME),
      idioms: idioms.idioms.length,
      with_hunum: countFlag(flags, FLAG_HUNUM),
    }),
  );
  const meta = once(() => JSON.parse(text(files, DIST_FILES.meta)) as Record<string, unknown>);
  const terms = once(() => text(files, DIST_FILES.terms));
  const isEducation = (codePoint: number) => ((flags[positionOfCodePoint(codePoints, codePoint)] ?? 0) & FLAG_EDUCATION) !== 0;
  const words = onceInSteps(() => wordIndexSteps(text(files, DIST_FILES.words), isEducation));
  const wordGlosses = once(() => (files[DIST_FILES.wordsEn] === undefined ? undefined : glossesByWord(text(files, DIST_FILES.wordsEn))));
  // The Arphic PL strokes and KanjiVG's, from their own files (either may be absent), each read once
  // (the binary's files are getters that read the file at each access).
  const strokes = once(() => {
    const present = [files[DIST_FILES.strokes], files[DIST_FILES.strokesJa]].filter((file) => file !== undefined);
    if (present.length === 0) return undefined;
    const lines = new Map<string, Uint8Array<ArrayBuffer>>();
    for (const file of present) strokesByCharacter(file, lines);
    return lines;
  });
  return {
    manifest,
    characters,
    idioms,
    get counts() {
      return counts();
    },
    get meta() {
      return meta();
    },
    get terms() {
      return terms();
    },
    get words() {
      return words.now();
    },
    wordsInSteps: words.steps,
    get wordsIndexed() {
      return words.made();
    },
    get wordGlosses() {
      return wordGlosses();
    },
    get strokes() {
      return strokes();
    },
  };
}

/**
 * The details as served: each line of `details.jsonl` ended with `stroke_order`, the form of the
 * record's strokes (`stroke-forms.txt`), or null. (Kept out of details.jsonl, which the package
 * ships: the field in every line cost it about 25 KB gzipped, and the package has no strokes.)
 */
function withStrokeOrder(lines: DetailLines, forms: () => string): DetailLines {
  const suffix = (position: number) => `,"stroke_order":${JSON.stringify(strokeFormOf(forms()[position]))}}`;
  const encoder = new TextEncoder();
  return {
    count: lines.count,
    text: (position) => `${lines.text(position).slice(0, -1)}${suffix(position)}`,
    bytes: (position) => {
      const line = lines.bytes(position);
      const end = encoder.encode(suffix(position));
      const bytes = new Uint8Array(line.length - 1 + end.length);
      bytes.set(line.subarray(0, line.length - 1));
      bytes.set(end, line.length - 1);
      return bytes;
    },
  };
}

/**
 * A strokes file's lines added by character (each starts `{"character":"<c>"`), as views into its
 * bytes: the file (23 MB) is never decoded whole, which held it twice over as text (once more in
 * Bun, whose strings of non-Latin-1 text take two bytes a character).
 */
function strokesByCharacter(file: string | Uint8Array, lines: Map<string, Uint8Array<ArrayBuffer>>): void {
  const bytes = (typeof file === "string" ? new TextEncoder().encode(file) : file) as Uint8Array<ArrayBuffer>;
  const head = new TextEncoder().encode('{"character":"');
  const decoder = new TextDecoder("utf-8", { fatal: true });
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline < 0 ? bytes.length : newline;
    if (head.every((byte, i) => bytes[start + i] === byte)) {
      const from = start + head.length;
      const quote = bytes.indexOf(0x22, from);
      if (quote > from && quote < end) lines.set(decoder.decode(bytes.subarray(from, quote)), bytes.subarray(start, end));
    }
    start = end + 1;
  }
}

/** `words-en.txt`'s lines (`hanja<TAB>gloss`) as a map. */
function glossesByWord(text: string): Map<string, string> {
  const glosses = new Map<string, string>();
  for (const line of text.split("\n")) {
    const tab = line.indexOf("\t");
    if (tab > 0) glosses.set(line.slice(0, tab), line.slice(tab + 1));
  }
  return glosses;
}

/** The idiom data, each member parsed or made on its first access. */
function idiomData(files: DistFiles): IdiomData {
  const idioms = once(() => JSON.parse(text(files, DIST_FILES.idioms)) as IdiomRecord[]);
  const positionOfIdx = once(() => new Map(idioms().map((idiom, i) => [idiom.idx, i])));
  const itemsA = once(() => idioms().map((i) => JSON.stringify(idiomItemA(i))));
  const itemsB = once(() => idioms().map(idiomJsonB));
  const quiz = once(() => quizTables(text(files, DIST_FILES.quiz), idioms().length));
  return {
    get idioms() {
      return idioms();
    },
    get positionOfIdx() {
      return positionOfIdx();
    },
    get itemsA() {
      return itemsA();
    },
    get itemsB() {
      return itemsB();
    },
    get quiz() {
      return quiz();
    },
    index: once(() => MiniSearch.loadJSON<IdiomDoc>(text(files, DIST_FILES.searchIdioms), IDIOM_INDEX)),
  };
}

/** `quiz.json`, checked to hold one entry per idiom and only positions of idioms. */
function quizTables(text: string, count: number): QuizTables {
  const tables = JSON.parse(text) as QuizTables;
  const lists = [tables.group, tables.lookalike, tables.theme];
  const inRange = (p: unknown) => Number.isInteger(p) && (p as number) >= 0 && (p as number) < count;
  if (
    !lists.every((list) => Array.isArray(list) && list.length === count && list.every((row) => Array.isArray(row) && row.every(inRange))) ||
    !tables.mature.every(inRange)
  ) {
    throw new Error(`dist: ${DIST_FILES.quiz} does not match the ${count} idioms; rebuild dist/`);
  }
  return tables;
}

/** The record a detail body starts with: the detail up to its `idioms` key (its words follow the idioms). */
function recordOfDetail(detail: string, position: number): string {
  const cut = detail.lastIndexOf(IDIOMS_KEY);
  if (cut === -1) throw new Error(`dist: detail ${position + 1} has no "idioms" key; rebuild dist/`);
  return `${detail.slice(0, cut)}}`;
}
const IDIOMS_KEY = ',"idioms":[';

function need(files: DistFiles, name: string): string | Uint8Array {
  const file = files[name];
  if (file === undefined) throw new Error(`dist: ${name} is missing; rebuild it with \`npm run build\``);
  return file;
}

/** A file's text, decoded when it was given as bytes. */
function text(files: DistFiles, name: string): string {
  return decoded(name, need(files, name));
}

/** The text of the file `name`, decoded when it was given as bytes. */
function decoded(name: string, file: string | Uint8Array): string {
  if (typeof file === "string") return file;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(file);
  } catch {
    throw new Error(`dist: ${name} is not valid UTF-8; rebuild it with \`npm run build\``);
  }
}

/** The code point of each character, checked to be one code point each, in ascending order. */
function codePointsInOrder(characters: readonly string[]): Uint32Array {
  const codePoints = new Uint32Array(characters.length);
  characters.forEach((character, i) => {
    const codePoint = character.codePointAt(0) ?? 0;
    if (character.length !== (codePoint > 0xffff ? 2 : 1) || (i > 0 && codePoint <= (codePoints[i - 1] as number))) {
      throw new Error(`dist: ${DIST_FILES.tables} character ${i + 1} (${JSON.stringify(character)}) is not one code point after the one before; rebuild dist/`);
    }
    codePoints[i] = codePoint;
  });
  return codePoints;
}

function positionIn(codePoints: Uint32Array, character: string): number | undefined {
  const codePoint = character.codePointAt(0);
  if (codePoint === undefined || character.length !== (codePoint > 0xffff ? 2 : 1)) return undefined;
  const position = positionOfCodePoint(codePoints, codePoint);
  return position === -1 ? undefined : position;
}

/** The position of a code point among the characters' (a binary search), or -1. */
function positionOfCodePoint(codePoints: Uint32Array, codePoint: number): number {
  let low = 0;
  let high = codePoints.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = codePoints[middle] as number;
    if (at === codePoint) return middle;
    if (at < codePoint) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

function countFlag(flags: Uint8Array, flag: number): number {
  let n = 0;
  for (const f of flags) if (f & flag) n++;
  return n;
}

function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/**
 * `once` for work in steps: `now()` runs what is left of it at once, `steps()` runs it a step at
 * a time (each caller's steps advance the same work, which runs once in all). A failure is thrown
 * to the caller whose step met it, and the work starts over on the next call, as with `once`.
 */
function onceInSteps<T>(start: () => Steps<T>): { now(): T; steps(): Steps<T>; made(): boolean } {
  let made: { value: T } | undefined;
  let running: Steps<T> | undefined;
  /** One step of the work; whether it is made. */
  const step = (): boolean => {
    if (made !== undefined) return true;
    running ??= start();
    let next: IteratorResult<void, T>;
    try {
      next = running.next();
    } catch (error) {
      running = undefined;
      throw error;
    }
    if (next.done) {
      made = { value: next.value };
      running = undefined;
    }
    return made !== undefined;
  };
  const value = () => (made as { value: T }).value;
  return {
    now: () => {
      while (!step());
      return value();
    },
    *steps() {
      while (!step()) yield;
      return value();
    },
    made: () => made !== undefined,
  };
}
