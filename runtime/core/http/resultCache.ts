/**
 * Memoisation of search results and list pages. The data never changes while the app runs, so a
 * result computed once is right for every later request with the same parameters; each cache is
 * bounded by the bytes its entries cost, keys and overhead included (`util/cacheBudget.ts`), and
 * lru-cache evicts the least recently used.
 */
import { LRUCache } from "lru-cache";
import { ENTRY_BYTES, arrayBytes, bodyBytes, stringBytes } from "../util/cacheBudget.ts";

/**
 * Match lists per search (positions, best first), within `maxBytes`: a list costs eight bytes a
 * position (one word search can match 20,000 of the 234,308 words), and a search that matches
 * nothing costs its key and overhead, so a client sending distinct misses cannot fill memory.
 */
export function positionsCache(maxBytes: number): LRUCache<string, number[]> {
  return new LRUCache<string, number[]>({
    maxSize: maxBytes,
    sizeCalculation: (positions, key) => ENTRY_BYTES + stringBytes(key) + arrayBytes(positions.length),
  });
}

/** Serialized pages as UTF-8 bytes, within `maxBytes` (keys and overhead counted). */
export function pageCache(maxBytes: number): LRUCache<string, Uint8Array<ArrayBuffer>> {
  return new LRUCache<string, Uint8Array<ArrayBuffer>>({
    maxSize: maxBytes,
    sizeCalculation: (body, key) => ENTRY_BYTES + stringBytes(key) + bodyBytes(body),
  });
}

/** A cache key from parameter values (undefined kept distinct from any string). */
export function cacheKey(values: readonly unknown[]): string {
  return values.map((v) => (v === undefined ? "\u0001" : String(v))).join("\u0000");
}
