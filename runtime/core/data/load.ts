/**
 * Turns the text of the `dist/` files into the in-memory structures every request is served
 * from. Web APIs only: the entry point reads the files (from disk or from the binary) and passes
 * their text in.
 */
import MiniSearch from "minisearch";
import {
  CHARACTER_INDEX,
  type CharacterDoc,
  DIST_FILES,
  DIST_FORMAT,
  type DataCounts,
  FLAG_EDUCATION,
  FLAG_NAME,
  FLAG_STARTER,
  IDIOM_INDEX,
  type IdiomDoc,
  type Manifest,
  type QuizTables,
  type Tables,
} from "../../format/dist.ts";
import { type IdiomRecord, idiomItemA, idiomJsonB } from "../../format/records.ts";

/** The text of each `dist/` file, keyed by file name (see `DIST_FILES`). */
export type DistFiles = Readonly<Record<string, string>>;

/** Character data: serialized records and details plus the columns filters and ordering use. */
export interface CharacterData {
  /** `"Unicode Unihan 17.0.0"`. */
  source: string;
  /** Serialized Hanja record per position (code point order). */
  records: readonly string[];
  /** Serialized detail body per position. */
  details: readonly string[];
  characters: readonly string[];
  positionOf: ReadonlyMap<string, number>;
  strokes: Uint8Array;
  radical: Uint8Array;
  flags: Uint8Array;
  readings: ReadonlyMap<string, readonly number[]>;
  glosses: readonly (readonly [number, string])[];
  /** The full-text index over English definitions and glosses, loaded on first use. */
  index(): MiniSearch<CharacterDoc>;
}

/** Idiom data: records in idx order, their serialized forms for both interfaces, the meaning index. */
export interface IdiomData {
  idioms: readonly IdiomRecord[];
  positionOfIdx: ReadonlyMap<number, number>;
  /** Interface A item (`idx` as a string) per position. */
  itemsA: readonly string[];
  /** Interface B raw record (`idx` as a number) per position. */
  itemsB: readonly string[];
  /** Synonym groups, withheld idioms and hard-distractor pools, by position. */
  quiz: QuizTables;
  index(): MiniSearch<IdiomDoc>;
}

export interface LoadedData {
  manifest: Manifest;
  characters: CharacterData;
  idioms: IdiomData;
  /** Counts measured from what was loaded (not copied from the manifest). */
  counts: DataCounts;
  /** The pipeline's `/meta` body. */
  meta: Record<string, unknown>;
  terms: string;
}

/** Parses and checks the dist files; refuses an unknown format version with a clear message. */
export function loadData(files: DistFiles): LoadedData {
  const manifest = JSON.parse(need(files, DIST_FILES.manifest)) as Manifest;
  if (manifest.format !== DIST_FORMAT) {
    throw new Error(`dist: format ${JSON.stringify(manifest.format)} is not the format ${DIST_FORMAT} this runtime reads; rebuild it with \`npm run build\``);
  }
  const tables = JSON.parse(need(files, DIST_FILES.tables)) as Tables;
  const details = lines(need(files, DIST_FILES.details));
  if (details.length !== tables.characters.length) {
    throw new Error(`dist: ${details.length} details and ${tables.characters.length} table rows do not match; rebuild dist/`);
  }
  // Records (list items) are sliced from the details on first use: the first detail answer needs none.
  const records = once(() => details.map(recordOfDetail));
  const idioms = JSON.parse(need(files, DIST_FILES.idioms)) as IdiomRecord[];
  for (const name of [DIST_FILES.searchCharacters, DIST_FILES.searchIdioms]) if (!(name in files)) need(files, name);
  const flags = Uint8Array.from(tables.flags);
  const characters: CharacterData = {
    source: `Unicode Unihan ${manifest.unihan.version}`,
    get records() {
      return records();
    },
    details,
    characters: tables.characters,
    positionOf: new Map(tables.characters.map((c, i) => [c, i])),
    strokes: Uint8Array.from(tables.strokes),
    radical: Uint8Array.from(tables.radical),
    flags,
    readings: new Map(Object.entries(tables.readings)),
    glosses: tables.glosses,
    // The indexes are read and rebuilt on first use (a few hundred ms): start-up does not wait for them.
    index: once(() => MiniSearch.loadJSON<CharacterDoc>(need(files, DIST_FILES.searchCharacters), CHARACTER_INDEX)),
  };
  const idiomData: IdiomData = {
    idioms,
    positionOfIdx: new Map(idioms.map((idiom, i) => [idiom.idx, i])),
    itemsA: idioms.map((i) => JSON.stringify(idiomItemA(i))),
    itemsB: idioms.map(idiomJsonB),
    quiz: quizTables(need(files, DIST_FILES.quiz), idioms.length),
    index: once(() => MiniSearch.loadJSON<IdiomDoc>(need(files, DIST_FILES.searchIdioms), IDIOM_INDEX)),
  };
  const counts: DataCounts = {
    characters: details.length,
    starters: countFlag(flags, FLAG_STARTER),
    education_hanja: countFlag(flags, FLAG_EDUCATION),
    name_hanja: countFlag(flags, FLAG_NAME),
    idioms: idioms.length,
  };
  return {
    manifest,
    characters,
    idioms: idiomData,
    counts,
    meta: JSON.parse(need(files, DIST_FILES.meta)) as Record<string, unknown>,
    terms: need(files, DIST_FILES.terms),
  };
}

/** `quiz.json`, checked to hold one entry per idiom and only positions of idioms. */
function quizTables(text: string, count: number): QuizTables {
  const tables = JSON.parse(text) as QuizTables;
  const lists = [tables.group, tables.lookalike, tables.theme];
  const inRange = (p: unknown) => Number.isInteger(p) && (p as number) >= 0 && (p as number) < count;
  if (!lists.every((list) => Array.isArray(list) && list.length === count && list.every((row) => Array.isArray(row) && row.every(inRange))) || !tables.mature.every(inRange)) {
    throw new Error(`dist: ${DIST_FILES.quiz} does not match the ${count} idioms; rebuild dist/`);
  }
  return tables;
}

/** The record a detail body starts with: the detail up to its last key, `idioms`. */
function recordOfDetail(detail: string, position: number): string {
  const cut = detail.lastIndexOf(IDIOMS_KEY);
  if (cut === -1) throw new Error(`dist: detail ${position + 1} has no "idioms" key; rebuild dist/`);
  return `${detail.slice(0, cut)}}`;
}
const IDIOMS_KEY = ',"idioms":[';

function need(files: DistFiles, name: string): string {
  const text = files[name];
  if (text === undefined) throw new Error(`dist: ${name} is missing; rebuild it with \`npm run build\``);
  return text;
}

function lines(text: string): string[] {
  const all = text.split("\n");
  if (all.at(-1) === "") all.pop();
  return all;
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
