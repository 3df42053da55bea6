/**
 * Builds and serializes one MiniSearch index off the main thread (see startSearchIndexer in
 * searchIndexes.ts). Plain JavaScript that imports only `minisearch`, so Node starts it without a
 * TypeScript loader. `workerData.options` are the index options of runtime/core/data/format.ts:
 * plain data (structured cloning rejects functions, so a custom tokenize or processTerm could not
 * reach this thread unnoticed), hence the index is the one `new MiniSearch(options)` builds on
 * the main thread. The one message is the documents; the reply is `{ json, documentCount }`
 * (`json` is `JSON.stringify(index)`) or `{ error }`.
 */
import { parentPort, workerData } from "node:worker_threads";
import MiniSearch from "minisearch";

const index = new MiniSearch(workerData.options);
parentPort.once("message", (documents) => {
  try {
    index.addAll(documents);
    parentPort.postMessage({ json: JSON.stringify(index), documentCount: index.documentCount });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
