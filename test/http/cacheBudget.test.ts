/**
 * The caches count what their entries cost (issue 46, point 1): a search that matches nothing costs
 * its key and overhead, not 1; the ceiling is split between the caches without exceeding it; and
 * an app flooded with distinct targets keeps no more heap than its ceiling.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { ENTRY_BYTES, FIXED_BYTES, cacheBudget, keyRecordBytes, stringBytes } from "../../runtime/core/util/cacheBudget.ts";
import { pageCache, positionsCache } from "../../runtime/core/http/resultCache.ts";
import { CountedMap } from "../../runtime/core/util/countedMap.ts";
import { distinctTarget } from "../helpers/distinctTargets.ts";
import { testApp } from "../helpers/app.ts";

describe("what an entry is counted as", () => {
  it("a search that matches nothing costs its key and the entry's overhead", () => {
    const cache = positionsCache(100_000);
    for (let i = 0; i < 10_000; i++) cache.set(`words\u0000miss-${i}`, []);
    // Each costs at least the overhead: 100,000 bytes hold far fewer than 10,000 of them.
    expect(cache.size).toBeLessThanOrEqual(Math.floor(100_000 / (ENTRY_BYTES + stringBytes("words\u0000miss-0"))));
    expect(cache.size).toBeGreaterThan(100);
    expect(cache.calculatedSize).toBeLessThanOrEqual(100_000);
  });

  it("a match list costs eight bytes a position; one larger than the cache is not kept", () => {
    const cache = positionsCache(100_000);
    cache.set(
      "small",
      Array.from({ length: 1_000 }, (_, i) => i),
    );
    expect(cache.calculatedSize).toBeGreaterThan(8_000);
    cache.set(
      "huge",
      Array.from({ length: 20_000 }, (_, i) => i),
    );
    expect(cache.has("huge")).toBe(false);
    expect(cache.has("small")).toBe(true);
  });

  it("a page costs its bytes, its key and the overhead", () => {
    const cache = pageCache(10_000);
    cache.set("page", new Uint8Array(1_000));
    expect(cache.calculatedSize).toBeGreaterThan(1_000 + ENTRY_BYTES);
    for (let i = 0; i < 100; i++) cache.set(`page-${i}`, new Uint8Array(0));
    expect(cache.calculatedSize).toBeLessThanOrEqual(10_000);
    expect(cache.size).toBeLessThan(100);
  });

  it("a store's key record costs its strings, a hash without a key its overhead", () => {
    const hash = "a".repeat(64);
    expect(keyRecordBytes(hash, null)).toBe(ENTRY_BYTES + stringBytes(hash));
    const record = { id: "key_0123456789ab", applicant: { name: "x".repeat(500) } };
    expect(keyRecordBytes(hash, record)).toBeGreaterThan(keyRecordBytes(hash, null) + 1_000 + 2 * 16);
  });

  it("a counted map keeps the sum through sets, replacements, deletes and clear", () => {
    const map = new CountedMap<string, string | null>((key, value) => key.length + (value?.length ?? 0));
    map.set("ab", "cdef").set("g", null);
    expect(map.bytes).toBe(7);
    map.set("ab", "c");
    expect(map.bytes).toBe(4);
    map.set("g", null);
    expect(map.bytes).toBe(4);
    expect(map.delete("ab")).toBe(true);
    expect(map.delete("ab")).toBe(false);
    expect(map.bytes).toBe(1);
    map.clear();
    expect(map.bytes).toBe(0);
  });
});

describe("the ceiling", () => {
  it("is split between the app's caches, the shared lookups taken out first", () => {
    for (const megabytes of [8, 48, 4096]) {
      const split = cacheBudget(megabytes);
      const total = Object.values(split).reduce((a, b) => a + b, 0);
      expect(total).toBeLessThanOrEqual(megabytes * 1_000_000 - FIXED_BYTES);
      expect(total).toBeGreaterThan(0.99 * (megabytes * 1_000_000 - FIXED_BYTES));
    }
  });

  it("createApp refuses a ceiling out of its bounds, naming the option", () => {
    expect(() => testApp({ cacheMegabytes: 7 })).toThrow(/^cacheMegabytes: 7 is not a whole number ≥ 8$/);
    expect(() => testApp({ cacheMegabytes: 4097 })).toThrow(/^cacheMegabytes: 4097 is more than 4096/);
  });
});

describe("an app answering distinct targets", () => {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const heapAfterGc = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };

  it("keeps no more heap than its ceiling, whatever it was asked", { timeout: 60_000 }, async () => {
    const megabytes = 8;
    const app = testApp({ cacheMegabytes: megabytes });
    const get = (n: number, encoding?: string) =>
      app.handle(
        { method: "GET", url: `http://localhost${distinctTarget(n)}`, headers: new Headers(encoding ? { "accept-encoding": encoding } : {}) },
        {
          clientAddress: "127.0.0.1",
        },
      );
    // One of each kind first: the data they need is loaded.
    for (let n = 1_000_000_000; n < 1_000_000_016; n++) expect((await get(n)).status).toBe(200);
    const before = heapAfterGc();
    for (let n = 0; n < 30_000; n++) expect((await get(n, n % 2 ? "gzip, br" : undefined)).status).toBe(200);
    const grown = (heapAfterGc() - before) / 1_000_000;
    console.log(`30,000 distinct targets: heap +${grown.toFixed(1)} MB under a ceiling of ${megabytes} MB`);
    expect(grown).toBeLessThanOrEqual(megabytes);
  });
});
