/**
 * Brotli and gzip from node:zlib (Node, Bun and Deno all provide it), for the core's `compressors`
 * option. node:zlib is imported on the first compression, not with the package: loading it was a
 * noticeable part of an embedded app's time to its first answer on Bun (see RESULTS.md, "First
 * answers when embedded").
 */
import type { Compressors } from "../core/http/encoding.ts";

const bytesOf = (out: Buffer) => new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
type Zlib = typeof import("node:zlib");
let loaded: Zlib | undefined;
/** Runs `use` with node:zlib, importing it the first time (later calls take no extra promise step). */
const withZlib = <T>(use: (zlib: Zlib) => Promise<T>): Promise<T> => (loaded ? use(loaded) : import("node:zlib").then((zlib) => use((loaded = zlib))));

export const nodeCompressors: Compressors = {
  /** Quality 5: most of brotli's gain at a few times gzip's cost (cacheable bodies are compressed once). */
  brotli: (bytes) =>
    withZlib(
      ({ brotliCompress, constants }) =>
        new Promise((resolve, reject) =>
          brotliCompress(
            bytes,
            {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 5,
                [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              },
            },
            (error, out) => (error ? reject(error) : resolve(bytesOf(out))),
          ),
        ),
    ),
  /** Level 6, zlib's default; quicker than a `CompressionStream` for the per-request bodies of interface B. */
  gzip: (bytes) => withZlib(({ gzip }) => new Promise((resolve, reject) => gzip(bytes, (error, out) => (error ? reject(error) : resolve(bytesOf(out)))))),
};
