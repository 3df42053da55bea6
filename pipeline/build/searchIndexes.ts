import { Worker } from "node:worker_threads";
import type { Options } from "minisearch";
import { CHARACTER_INDEX, type CharacterDoc, IDIOM_INDEX, type IdiomDoc } from "../../runtime/format/searchOptions.ts";
import type { HanjaRecord, IdiomRecord } from "../../runtime/format/records.ts";
import type { UnihanTable } from "../parse/hanjaRecords.ts";
import type { EnglishRow } from "../validate/englishMeanings.ts";
import type { IdiomRow } from "../validate/idioms.ts";
import type { StarterRow } from "../validate/starters.ts";

/** A MiniSearch index as written to dist/: `JSON.stringify(index)` and its document count. */
export interface SerializedIndex {
  json: string;
  documentCount: number;
}

/** Builds the search indexes on a worker thread while the main thread does the rest of the build. */
export interface SearchIndexer {
  /** The character full-text index of the given documents (see characterDocuments, earlyCharacterDocuments). */
  characters(documents: CharacterDoc[]): Promise<SerializedIndex>;
  /** The idiom meaning index of the given documents (see idiomDocuments, earlyIdiomDocuments). */
  idioms(documents: IdiomDoc[]): Promise<SerializedIndex>;
  /** Stops the worker; pending indexes are rejected. */
  close(): Promise<void>;
}

/**
 * The character index documents: only records with an English definition or a Korean gloss,
 * only those two fields (and the first sense); exact lookups (character, code point, reading)
 * stay in plain tables. The id is the record's position.
 */
export function characterDocuments(records: readonly Pick<HanjaRecord, "definition_en" | "meaning_ko">[]): CharacterDoc[] {
  const documents: CharacterDoc[] = [];
  records.forEach((record, id) => {
    if (record.definition_en === null && record.meaning_ko === null) return;
    const definition = record.definition_en ?? "";
    documents.push({ id, definition_en: definition, sense: definition.split(/[,;]/)[0] ?? "", meaning_ko: record.meaning_ko ?? "" });
  });
  return documents;
}

/**
 * The idiom index documents: each meaning by the idiom's position (hanja, hangul and chosung are
 * matched as substrings at run time, not indexed).
 */
export function idiomDocuments(idioms: readonly IdiomRecord[]): IdiomDoc[] {
  return idioms.map((idiom, id) => ({ id, meaning: idiom.meaning, meaning_en: idiom.meaning_en ?? "" }));
}

/**
 * The search documents are known before the records are built and validated, so the indexes can
 * be built meanwhile: the idiom meanings in `idx` order once idioms.csv is parsed (validating
 * idioms needs the records), the definitions and glosses once Unihan is read. These "early"
 * documents come from the unvalidated inputs; when the inputs pass validation they equal the
 * documents of the records and idioms, which the build confirms with `sameDocuments` before it
 * writes the indexes.
 */
export function earlyIdiomDocuments(rows: readonly IdiomRow[], englishRows: readonly EnglishRow[]): IdiomDoc[] {
  const english = new Map(englishRows.map(({ values }) => [Number(values.idx), values.meaning_en]));
  const ordered = rows.map(({ values }) => ({ idx: Number(values.idx), meaning: values.meaning })).sort((a, b) => a.idx - b.idx);
  return ordered.map(({ idx, meaning }, id) => ({ id, meaning, meaning_en: english.get(idx) ?? "" }));
}

/** The character index documents from the Unihan table, the record code points and the starter rows (see earlyIdiomDocuments). */
export function earlyCharacterDocuments(table: UnihanTable, codepoints: readonly number[], starterRows: readonly StarterRow[]): CharacterDoc[] {
  const glosses = new Map(starterRows.map(({ values }) => [values.character, values.meaning_ko]));
  return characterDocuments(
    codepoints.map((cp) => ({ definition_en: table.get(cp)?.get("kDefinition")?.value ?? null, meaning_ko: glosses.get(String.fromCodePoint(cp)) ?? null })),
  );
}

/** Whether two lists of search documents are the same. */
export function sameDocuments(a: readonly object[], b: readonly object[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Starts the index worker (searchIndex.worker.mjs). Building and serializing the MiniSearch
 * indexes is the largest cost of a build after decompression; on a worker it overlaps the unzip
 * (the idiom index) and the tables, record and detail bodies and writes (the character index).
 * The worker gets no `execArgv` (no TypeScript loader: it is plain JavaScript). It is unref'd
 * while no index is pending, so that a failed build that forgets `close` still exits, and ref'd
 * while one is, so that awaiting it keeps the process alive. Call `close` when the build ends.
 */
export function startSearchIndexer(): SearchIndexer {
  const worker = new Worker(new URL("./searchIndex.worker.mjs", import.meta.url), { execArgv: [] });
  worker.unref();
  // The worker answers in order.
  const pending: { resolve: (index: SerializedIndex) => void; reject: (error: Error) => void }[] = [];
  let failure: Error | undefined;
  const failAll = (error: Error) => {
    failure ??= error;
    for (const job of pending.splice(0)) job.reject(failure);
  };
  worker.on("message", (reply: Partial<SerializedIndex> & { error?: string }) => {
    const job = pending.shift();
    if (reply.error !== undefined) job?.reject(new Error(`search index worker: ${reply.error}`));
    else job?.resolve({ json: reply.json ?? "", documentCount: reply.documentCount ?? 0 });
    if (pending.length === 0) worker.unref();
  });
  worker.on("error", failAll);
  worker.on("exit", (code) => failAll(new Error(`search index worker: exited (code ${code}) before answering`)));

  const build = <T>(options: Options<T>, documents: T[]): Promise<SerializedIndex> => {
    const index = new Promise<SerializedIndex>((resolve, reject) => {
      if (failure) return reject(failure);
      pending.push({ resolve, reject });
      worker.ref();
      // Structured cloning throws on a function in the options (see the worker's comment).
      worker.postMessage({ options, documents });
    });
    // The caller awaits the index later: a failure before then is not an unhandled rejection.
    index.catch(() => {});
    return index;
  };

  return {
    characters: (documents) => build(CHARACTER_INDEX, documents),
    idioms: (documents) => build(IDIOM_INDEX, documents),
    close: async () => {
      failAll(new Error("search index worker: closed"));
      // A timer holds the event loop open until the termination settles: a worker stopped while it
      // is still starting up or busy otherwise lets the process exit first, with code 0 and the
      // build's own promise never settled (a failed build that reported nothing).
      const hold = setInterval(() => {}, 1000);
      try {
        await worker.terminate();
      } finally {
        clearInterval(hold);
      }
    },
  };
}
