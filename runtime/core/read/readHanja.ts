/**
 * `readHanja(text, data)`: the package's reader for embedders, and what `GET`/`POST /read` answer.
 * It reads with the dictionary's words as the runtime holds them (`data.words`, loaded on first
 * use), the characters' readings and the idioms; the source made of them is kept per data, so
 * only the first reading pays for indexing.
 */
import type { CharacterData, IdiomData } from "../data/load.ts";
import type { ReadResult } from "../../format/records.ts";
import { type ReadFormat, formatReading, formatReadingSteps } from "./formatReading.ts";
import { readResultBytes } from "./readResultJson.ts";
import { type Steps, runInSlices } from "./slices.ts";
import { readText, readTextSteps } from "./readText.ts";
import type { ReaderLinks } from "./source.ts";
import { type PreparedSource, wordStoreSource } from "./wordStoreSource.ts";

/** The words as the runtime's word index gives them (`data.words`). */
export interface WordIndexLike {
  readonly count: number;
  word(position: number): { hanja: string; readings: string[] };
  hanjaAt(position: number): string;
  positionOf(hanja: string): number;
  ofCharacter(character: string): number[];
}

/** What the reader reads with: the loaded data (`app.data`) has all of it. */
export interface ReaderData {
  readonly words: WordIndexLike;
  /** The words indexed in steps (`LoadedData.wordsInSteps`), for the reader's preparation; without it, `words` is indexed at once. */
  wordsInSteps?(): Steps<unknown>;
  readonly characters: CharacterData;
  readonly idioms: IdiomData;
}

/** How `readHanja` answers. */
export interface ReadOptions {
  /** The form of `hangul` (default `hangul`; see `formatReading`). */
  format?: ReadFormat;
  /** Where interface A is served, for the links to character details (default `/hanja/v1`, as the service mounts it). */
  base?: string;
}

const sources = new WeakMap<ReaderData, PreparedSource>();
/** How many words' readings a source keeps at most, so its memory is bounded whatever the texts; past it, the kept ones are dropped and kept anew. */
const READINGS_KEPT = 20_000;

/**
 * Reads `text` (any string: nothing is refused here; the routes refuse what cannot be text): each
 * run of Han characters split into words and read in Hangul, everything else passed through.
 * The same answer as `GET /read?text=` on a service mounted at `options.base`.
 */
export function readHanja(text: string, data: ReaderData, options: ReadOptions = {}): ReadResult {
  const reading = readText(text, sourceOf(data), linksAt(options.base ?? "/hanja/v1"));
  const format = options.format ?? "hangul";
  return format === "hangul" ? reading : { ...reading, hangul: formatReading(reading, format) };
}

function sourceOf(data: ReaderData): PreparedSource {
  let source = sources.get(data);
  if (source === undefined) sources.set(data, (source = dataSource(data)));
  return source;
}

const preparing = new WeakMap<ReaderData, Promise<void>>();

/**
 * Works out what the reader keeps (`PreparedSource.prepare`: the words indexed, every
 * character's usual reading, the lengths of the words from each pair of characters) in slices
 * (`slices.ts`), once per data; resolves when it is done. The first reading calls it (and waits
 * for it): worked out at once instead, reading every character held the event loop for over 3 s.
 */
export function prepareReader(data: ReaderData): Promise<void> {
  let prepared = preparing.get(data);
  if (prepared === undefined) {
    preparing.set(data, (prepared = runInSlices(sourceOf(data).prepare())));
    prepared.then(
      () => ready.add(data),
      () => {},
    );
  }
  return prepared;
}

/** The data whose reader is prepared: a reading then starts at once, without waiting a turn for the promise. */
const ready = new WeakSet<ReaderData>();

/**
 * `readHanja`'s answer as the JSON `/read` answers, in UTF-8, worked out in slices once the reader
 * is prepared (`prepareReader`): a long text never holds the event loop for more than a slice.
 */
export async function readAnswerInSlices(text: string, data: ReaderData, options: ReadOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  if (!ready.has(data)) await prepareReader(data);
  const source = sourceOf(data);
  const links = linksAt(options.base ?? "/hanja/v1");
  const format = options.format ?? "hangul";
  return runInSlices(
    (function* () {
      const reading = yield* readTextSteps(text, source, links);
      const answer = format === "hangul" ? reading : { ...reading, hangul: yield* formatReadingSteps(reading, format) };
      return yield* readResultBytes(answer);
    })(),
  );
}

/** The links of each base a reading was asked for (a service has one), each character's path made once. */
const links = new Map<string, ReaderLinks>();

/**
 * The links to character details under `base`. Each path is kept: the characters that have one
 * are the dataset's (a character without a reading gets no link), so they are bounded, and a
 * reading makes one for most of its characters read alone.
 */
function linksAt(base: string): ReaderLinks {
  let made = links.get(base);
  if (made === undefined) {
    const paths = new Map<string, string>();
    made = {
      characterPath(character) {
        let path = paths.get(character);
        if (path === undefined) paths.set(character, (path = `${base}/hanja/${encodeURIComponent(character)}`));
        return path;
      },
    };
    // Bases come from the embedder's code, not from requests; the bound only keeps a loop of them from growing it.
    if (links.size >= 16) links.clear();
    links.set(base, made);
  }
  return made;
}

function dataSource(data: ReaderData): PreparedSource {
  let readingsOf: Map<string, string[]> | undefined;
  const readingsCache = new Map<number, readonly string[]>();
  let idioms: Map<string, number> | undefined;
  const characterReadings = (character: string) => {
    if (readingsOf === undefined) {
      readingsOf = new Map();
      const { characters, readings } = data.characters;
      for (const [reading, positions] of readings) {
        for (const position of positions) {
          const character = characters[position] as string;
          const list = readingsOf.get(character);
          if (list === undefined) readingsOf.set(character, [reading]);
          else list.push(reading);
        }
      }
    }
    return readingsOf.get(character);
  };
  const idiomIdx = (hanja: string) => {
    idioms ??= new Map(data.idioms.idioms.map((idiom) => [idiom.hanja, idiom.idx]));
    return idioms.get(hanja);
  };
  const source = wordStoreSource(
    {
      get count() {
        return data.words.count;
      },
      hanjaAt: (position) => data.words.hanjaAt(position),
      readingsAt(position) {
        // The words of a text are mostly common ones: their readings are kept (a bounded number of
        // them) rather than cut from the index's text again for every text.
        let readings = readingsCache.get(position);
        if (readings === undefined) {
          if (readingsCache.size >= READINGS_KEPT) readingsCache.clear();
          readingsCache.set(position, (readings = data.words.word(position).readings));
        }
        return readings;
      },
      positionOf: (hanja) => data.words.positionOf(hanja),
      ofCharacter: (character) => data.words.ofCharacter(character),
    },
    {
      characters: characterReadings,
      reading(character) {
        const position = data.characters.position(character);
        return position === undefined ? undefined : data.characters.reading[position];
      },
      idiomIdx,
      // The build lists each word's chosen reading first (docs/rules.md "Words").
      chosenFirst: true,
    },
  );
  return {
    ...source,
    *prepare() {
      // Not in the turn that asks (the first reading's request, which is then answered sooner):
      // then the word index, in steps of its own (at once, it held the loop up: see RESULTS.md, "The
      // word index built in slices"), the
      // characters' readings and the idioms by hanja, each made whole on first use.
      yield;
      if (data.wordsInSteps === undefined) void data.words.count;
      else yield* data.wordsInSteps();
      yield;
      characterReadings("");
      idiomIdx("");
      yield;
      yield* source.prepare();
    },
  };
}
