/**
 * `hanja-api/node`: what an embedding server on Node, Bun or Deno needs besides the portable
 * core — reading `dist/` from disk and node:zlib's brotli for the `compressors` option.
 */
export { loadDistFiles } from "./loadDist.ts";
export { nodeCompressors } from "./compressors.ts";
