/**
 * Memoisation of search results and list pages. The data never changes while the app runs, so a
 * result computed once is right for every later request with the same parameters; the bounds keep
 * memory predictable (lru-cache evicts the least recently used).
 */
import { LRUCache } from "lru-cache";

/** Match lists per search (positions, best first): at most 2,000 searches. */
export function positionsCache(): LRUCache<string, number[]> {
  return new LRUCache<string, number[]>({ max: 2_000 });
}

/**
 * Match lists of word searches, bounded by the positions they hold (2 million, 16 MB): one search
 * can match 20,000 of the 234,308 words, so a bound by count alone would let a client fill memory.
 */
export function wordPositionsCache(): LRUCache<string, number[]> {
  return new LRUCache<string, number[]>({ maxSize: 2_000_000, sizeCalculation: (positions) => Math.max(1, positions.length) });
}

/** Serialized pages as UTF-8 bytes: at most 32 MB in all. */
export function pageCache(): LRUCache<string, Uint8Array<ArrayBuffer>> {
  return new LRUCache<string, Uint8Array<ArrayBuffer>>({ maxSize: 32_000_000, sizeCalculation: (body) => Math.max(1, body.length) });
}

/** A cache key from parameter values (undefined kept distinct from any string). */
export function cacheKey(values: readonly unknown[]): string {
  return values.map((v) => (v === undefined ? "\u0001" : String(v))).join("\u0000");
}
