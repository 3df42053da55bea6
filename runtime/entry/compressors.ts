/** Brotli and gzip from node:zlib (Node, Bun and Deno all provide it), for the core's `compressors` option. */
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Compressors } from "../core/http/encoding.ts";

const bytesOf = (out: Buffer) => new Uint8Array(out.buffer, out.byteOffset, out.byteLength);

export const nodeCompressors: Compressors = {
  /** Quality 5: most of brotli's gain at a few times gzip's cost (cacheable bodies are compressed once). */
  brotli: (bytes) =>
    new Promise((resolve, reject) =>
      brotliCompress(
        bytes,
        { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } },
        (error, out) => (error ? reject(error) : resolve(bytesOf(out))),
      ),
    ),
  /** Level 6, zlib's default; quicker than a `CompressionStream` for the per-request bodies of interface B. */
  gzip: (bytes) => new Promise((resolve, reject) => gzip(bytes, (error, out) => (error ? reject(error) : resolve(bytesOf(out))))),
};
