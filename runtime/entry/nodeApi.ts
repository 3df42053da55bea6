/**
 * `hanja-api/node`: what an embedding server on Node, Bun or Deno needs besides the portable
 * core — reading `dist/` from disk, node:zlib's compressors for the `compressors` option, and
 * the service as a node:http request listener.
 */
export { loadDistFiles } from "./loadDist.ts";
export { nodeCompressors } from "./compressors.ts";
export { clientErrorListener, connectListener, nodeListener } from "./nodeListener.ts";
