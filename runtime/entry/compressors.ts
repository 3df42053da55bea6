/** Brotli from node:zlib (Node, Bun and Deno all provide it), for the core's `compressors` option. */
import { brotliCompress, constants } from "node:zlib";
import type { Compressors } from "../core/http/respond.ts";

/** Quality 5: most of brotli's gain at a few times gzip's cost (bodies are cached once compressed). */
export const nodeCompressors: Compressors = {
  brotli: (bytes) =>
    new Promise((resolve, reject) =>
      brotliCompress(
        bytes,
        { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } },
        (error, out) => (error ? reject(error) : resolve(new Uint8Array(out.buffer, out.byteOffset, out.byteLength))),
      ),
    ),
};
