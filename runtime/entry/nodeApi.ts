/**
 * `hanja-api/node`: what an embedding server on Node, Bun or Deno needs besides the portable
 * core — the data bundled in the package (`createBundledApp`, `loadBundledData`), reading another
 * `dist/` from disk, node:zlib's compressors for the `compressors` option, and the service as a
 * node:http request listener.
 */
export { BUNDLED_DIST_DIR, createBundledApp, loadBundledData } from "./bundledData.ts";
export { loadDistFiles } from "./loadDist.ts";
export { nodeCompressors } from "./compressors.ts";
export { clientErrorListener, connectListener, nodeListener } from "./nodeListener.ts";
