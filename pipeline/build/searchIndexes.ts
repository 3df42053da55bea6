import { Worker } from "node:worker_threads";
import type { Options } from "minisearch";
import { CHARACTER_INDEX, type CharacterDoc, IDIOM_INDEX, type IdiomDoc } from "../../runtime/core/data/format.ts";
import type { HanjaRecord, IdiomRecord } from "../../runtime/core/data/records.ts";
import type { IdiomRow } from "../validate/idioms.ts";

/** A MiniSearch index as written to dist/: `JSON.stringify(index)` and its document count. */
export interface SerializedIndex {
  json: string;
  documentCount: number;
}

/** Builds the search indexes on a worker thread while the main thread does the rest of the build. */
export interface SearchIndexer {
  /** The character full-text index of the records (see characterDocuments). */
  characters(records: readonly HanjaRecord[]): Promise<SerializedIndex>;
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
export function characterDocuments(records: readonly HanjaRecord[]): CharacterDoc[] {
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
  return idioms.map((idiom, id) => ({ id, meaning: idiom.meaning }));
}

/**
 * The idiom index documents from the unvalidated rows of idioms.csv, in `idx` order, so that the
 * index can be built while Unihan is still being read (validating idioms needs the records).
 * When the rows pass validation these are `idiomDocuments` of the validated idioms, which
 * `sameDocuments` confirms before the index is written.
 */
export function earlyIdiomDocuments(rows: readonly IdiomRow[]): IdiomDoc[] {
  const ordered = rows.map(({ values }) => ({ idx: Number(values.idx), meaning: values.meaning })).sort((a, b) => a.idx - b.idx);
  return ordered.map(({ meaning }, id) => ({ id, meaning }));
}

/** Whether two lists of idiom documents are the same. */
export function sameDocuments(a: readonly IdiomDoc[], b: readonly IdiomDoc[]): boolean {
  return a.length === b.length && a.every((doc, i) => doc.id === b[i]?.id && doc.meaning === b[i]?.meaning);
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
    characters: (records) => build(CHARACTER_INDEX, characterDocuments(records)),
    idioms: (documents) => build(IDIOM_INDEX, documents),
    close: async () => {
      failAll(new Error("search index worker: closed"));
      await worker.terminate();
    },
  };
}
