/**
 * Builds and serializes MiniSearch indexes off the main thread (see startSearchIndexer in
 * searchIndexes.ts). Plain JavaScript that imports only `minisearch`, so Node starts it without a
 * TypeScript loader. Each message is `{ options, documents }`, the options being those of
 * runtime/format/dist.ts: plain data (structured cloning rejects functions, so a custom
 * tokenize or processTerm could not reach this thread unnoticed), hence the index is the one
 * `new MiniSearch(options)` builds on the main thread. Messages are answered in order, with
 * `{ json, documentCount }` (`json` is `JSON.stringify(index)`) or `{ error }`.
 */
import { parentPort } from "node:worker_threads";
import MiniSearch from "minisearch";

parentPort.on("message", ({ options, documents }) => {
  try {
    const index = new MiniSearch(options);
    index.addAll(documents);
    parentPort.postMessage({ json: JSON.stringify(index), documentCount: index.documentCount });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
