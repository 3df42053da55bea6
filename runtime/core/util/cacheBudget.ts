/**
 * The memory the app's caches may hold, in bytes, and how an entry is counted. Every cache that
 * grows with what clients ask (remembered answers, their encoded replies, list pages, search
 * results, API key hashes, client addresses, a store's key records) counts each entry as what it
 * costs on the heap: its key's characters at two bytes each (a string may be UTF-16), its value's
 * (an array's elements at eight bytes, a body's bytes), and a fixed overhead for the objects
 * around them; an empty result costs its overhead. One ceiling (`cacheMegabytes`, `CACHE_MB`)
 * bounds them together: `FIXED_BYTES` of it go to the key and address lookups, which every app of
 * the process shares, and the rest is split between the app's caches by `SHARES`. A quota store's
 * records of keys have a bound of their own (`KEY_RECORD_BYTES`), sized for the keys in use. The reader's
 * caches (`core/read`) are not under it: they keep at most 20,000 of the data's own words' readings,
 * keyed by position, whatever the texts.
 *
 * The counts are above what the entries hold on V8: the heap left after a full collection stays
 * under the ceiling (test/http/cacheBudget.test.ts holds it there). The RSS this costs a server is
 * more than the heap (the collector's room, and on Bun its allocator): see RESULTS.md, "Memory
 * under distinct targets".
 */

/** The default ceiling, in MB (10^6 bytes): under distinct targets it keeps each runtime within the conformance test's memory bound (see RESULTS.md, "Memory under distinct targets"). */
export const DEFAULT_CACHE_MB = 32;
/** The least ceiling: below it the shared lookups would leave the app's caches next to nothing. */
export const MIN_CACHE_MB = 8;
/** The most. */
export const MAX_CACHE_MB = 4096;

/** What one lru-cache entry costs beyond its key and value: the map's entry, the cache's slots for it, its size. */
export const ENTRY_BYTES = 160;
/** A string's header. */
const STRING_HEADER = 24;
/** An array's or a typed array's objects (a typed array has its buffer besides). */
const ARRAY_HEADER = 32;
const TYPED_HEADER = 128;

/** A string's cost: header and two bytes a character (V8 keeps some strings at one byte a character; counted as two). */
export function stringBytes(text: string): number {
  return STRING_HEADER + 2 * text.length;
}

/** An array of `length` numbers or references: eight bytes an element. */
export function arrayBytes(length: number): number {
  return ARRAY_HEADER + 8 * length;
}

/** A body as the app keeps it: text (two bytes a character) or UTF-8 bytes. */
export function bodyBytes(body: string | Uint8Array): number {
  return typeof body === "string" ? stringBytes(body) : TYPED_HEADER + body.byteLength;
}

/** The lookups every app of a process shares, in bytes (part of the ceiling). */
export const SHARED_LOOKUPS = {
  /** The SHA-256 of recently seen API keys (`routes/metering.ts`). */
  keyHashes: 500_000,
  /** Client addresses and their metering keys (`quota/clientIp.ts`). */
  addresses: 500_000,
  /** The hashes a quota store found no key for (the SQLite and Redis stores; `KeyLookups`). */
  unknownKeys: 1_000_000,
} as const;

/** What the shared lookups take of the ceiling. */
export const FIXED_BYTES = SHARED_LOOKUPS.keyHashes + SHARED_LOOKUPS.addresses + SHARED_LOOKUPS.unknownKeys;

/**
 * What a quota store's key records by hash (the SQLite and Redis stores) may hold, as
 * `keyRecordBytes` counts them; past it the lookup starts over. Every metered call with a key asks
 * for its record, so the records of every key in use must fit, or calls go to the store for them
 * (on a Redis Cluster, to the one primary that holds the records): a record with a typical
 * applicant counts 1,158 bytes and takes 581 bytes of heap on Node 20 (RESULTS.md, "The Redis
 * store on a Redis Cluster"), so this holds about 100,000 keys' records in about 60 MB of heap, a
 * bound of its own outside `CACHE_MB`. It fills only with the keys that calls present; the hashes
 * of no key are kept apart, within `SHARED_LOOKUPS.unknownKeys` (`KeyLookups`).
 */
export const KEY_RECORD_BYTES = 120_000_000;

/**
 * The app's caches, each its share of what is left of the ceiling: the replies of remembered
 * bodies (each encoding, 304 and HEAD forms), the answer remembered for each request target, the
 * serialized list pages, and the match lists of character and idiom searches and of word searches.
 */
export const SHARES = { replies: 0.35, answers: 0.2, pages: 0.25, searches: 0.1, wordSearches: 0.1 } as const;

/** The bytes of each of the app's caches under a ceiling of `megabytes`. */
export type CacheBudget = { readonly [K in keyof typeof SHARES]: number };

/** The split of a ceiling of `megabytes` (MB, 10^6 bytes) between the app's caches. */
export function cacheBudget(megabytes: number = DEFAULT_CACHE_MB): CacheBudget {
  const own = Math.max(0, megabytes * 1_000_000 - FIXED_BYTES);
  const split = {} as Record<keyof typeof SHARES, number>;
  for (const [name, share] of Object.entries(SHARES) as [keyof typeof SHARES, number][]) split[name] = Math.floor(own * share);
  return split;
}

/** What a store's key record kept by its hash costs (null: no key has the hash). */
export function keyRecordBytes(hash: string, record: object | null): number {
  return ENTRY_BYTES + stringBytes(hash) + (record === null ? 0 : objectBytes(record));
}

/** A plain object's cost: its own slots, its strings and the objects it holds. */
function objectBytes(value: object): number {
  let bytes = ARRAY_HEADER;
  for (const field of Object.values(value)) {
    bytes += 8;
    if (typeof field === "string") bytes += stringBytes(field);
    else if (typeof field === "object" && field !== null) bytes += objectBytes(field);
  }
  return bytes;
}
