/**
 * The gzip form of a body that carries a strong ETag. It must be the same bytes wherever it is
 * made, and the runtimes' zlib builds differ: fflate (plain JavaScript) gives one output everywhere.
 * `encoding.ts` imports this module on the first such body, so fflate's tables are not built when
 * the package is imported.
 */
import { gzipSync } from "fflate";

/** gzip at level 6 with no modification time: the same bytes on every runtime. */
export function fixedGzip(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(gzipSync(bytes, { level: 6, mtime: 0 }));
}
