import { Worker } from "node:worker_threads";
import type { Options } from "minisearch";
import { CHARACTER_INDEX, type CharacterDoc, IDIOM_INDEX, type IdiomDoc } from "../../runtime/core/data/format.ts";
import type { HanjaRecord, IdiomRecord } from "../../runtime/core/data/records.ts";

/** A MiniSearch index as written to dist/: `JSON.stringify(index)` and its document count. */
export interface SerializedIndex {
  json: string;
  documentCount: number;
}

/** Builds the search indexes on a worker thread while the main thread builds and writes the rest. */
export interface SearchIndexer {
  /** The character full-text index (see characterDocuments). */
  characters(records: readonly HanjaRecord[]): Promise<SerializedIndex>;
  /** The idiom meaning index (hanja, hangul and chosung are matched as substrings at run time). */
  idioms(idioms: readonly IdiomRecord[]): Promise<SerializedIndex>;
  /** Stops the worker; pending indexes are rejected. Safe to call more than once. */
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

/** The idiom index documents: the meaning, by idiom position. */
export function idiomDocuments(idioms: readonly IdiomRecord[]): IdiomDoc[] {
  return idioms.map((idiom, id) => ({ id, meaning: idiom.meaning }));
}

/**
 * Starts one worker per index (searchIndex.worker.mjs). Building and serializing the two
 * MiniSearch indexes is the largest cost of a build after decompression; on workers it overlaps
 * the tables, the record and detail bodies and the writes, and the two indexes with each other.
 * Start it early: the threads and their `minisearch` import come up while the Unihan zip is
 * being read. Call `close` when the build ends, failed or not.
 */
export function startSearchIndexer(): SearchIndexer {
  const characters = startIndexWorker(CHARACTER_INDEX);
  const idioms = startIndexWorker(IDIOM_INDEX);
  return {
    characters: (records) => characters.build(characterDocuments(records)),
    idioms: (list) => idioms.build(idiomDocuments(list)),
    close: async () => {
      await Promise.all([characters.close(), idioms.close()]);
    },
  };
}

/**
 * A worker that builds one index from the documents it is sent. It gets no `execArgv` (no
 * TypeScript loader: it is plain JavaScript). It is unref'd until documents are sent, so that a
 * failed build that forgets `close` still exits, and ref'd while the index is pending, so that
 * awaiting it keeps the process alive.
 */
function startIndexWorker<T>(options: Options<T>) {
  // Options travel by structured clone, which throws on a function (see the worker's comment).
  const worker = new Worker(new URL("./searchIndex.worker.mjs", import.meta.url), { execArgv: [], workerData: { options } });
  worker.unref();
  const index = new Promise<SerializedIndex>((resolve, reject) => {
    worker.once("message", (reply: Partial<SerializedIndex> & { error?: string }) => {
      if (reply.error !== undefined) reject(new Error(`search index worker: ${reply.error}`));
      else resolve({ json: reply.json ?? "", documentCount: reply.documentCount ?? 0 });
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`search index worker: exited (code ${code}) before answering`)));
  });
  // The caller awaits the index later: a failure before then is not an unhandled rejection.
  index.then(() => worker.unref(), () => worker.unref());
  return {
    build(documents: T[]): Promise<SerializedIndex> {
      worker.ref();
      worker.postMessage(documents);
      return index;
    },
    close: () => worker.terminate().then(() => {}),
  };
}
