/**
 * The usage-history part of the QuotaStore contract (`usage`, `pruneUsage`), run with the other
 * contract cases on every store kind and runtime: a key's daily counts are its history, changed
 * by the same atomic step as the count, and kept past `pruneCounters`.
 */
import assert from "node:assert/strict";
import { keyBucket } from "../../runtime/core/quota/store.ts";
import type { ContractCase } from "./contractCases.ts";

const ID = "key_usage0000001";
const BUCKET = keyBucket(ID);

export const usageCases: ContractCase[] = [
  {
    name: "a key's counted calls are its usage history: the days with calls, oldest first, within the range; refusals, other keys and buckets without a key are not in it",
    async run(store) {
      for (let i = 0; i < 3; i++) await store.consume(BUCKET, "2024-12-31", 2);
      await store.consume(BUCKET, "2025-03-01", 5);
      await store.consume(BUCKET, "2025-03-02", 0);
      await store.consume(keyBucket("key_other0000001"), "2025-03-01", 5);
      await store.consume("ip:192.0.2.1", "2025-03-01", 5);
      assert.deepEqual(await store.usage(ID, "2024-12-01", "2025-03-31"), [
        { date: "2024-12-31", calls: 2 },
        { date: "2025-03-01", calls: 1 },
      ]);
      assert.deepEqual(await store.usage(ID, "2025-01-01", "2025-03-01"), [{ date: "2025-03-01", calls: 1 }]);
      assert.deepEqual(await store.usage(ID, "2024-12-31", "2024-12-31"), [{ date: "2024-12-31", calls: 2 }]);
      assert.deepEqual(await store.usage(ID, "2025-03-02", "2025-12-31"), []);
      assert.deepEqual(await store.usage("key_nope", "2024-01-01", "2025-12-31"), []);
    },
  },
  {
    name: "200 concurrent counts of a key against a limit of 30: its history says 30, as its count does",
    async run(store) {
      const results = await Promise.all(Array.from({ length: 200 }, () => store.consume(BUCKET, "2025-03-01", 30)));
      assert.equal(results.filter((r) => r.allowed).length, 30);
      assert.equal(await store.used(BUCKET, "2025-03-01"), 30);
      assert.deepEqual(await store.usage(ID, "2025-03-01", "2025-03-01"), [{ date: "2025-03-01", calls: 30 }]);
    },
  },
  {
    name: "the usage history outlives pruneCounters; pruneUsage deletes the days before its day only, in steps (a store whose history expires by itself answers 0)",
    async run(store) {
      for (const day of ["2025-01-10", "2025-01-11", "2025-03-01"]) await store.consume(BUCKET, day, 5);
      await store.consume("ip:192.0.2.1", "2025-01-10", 5);
      for (let step = 0; step < 10 && (await store.pruneCounters("2026-01-01", 1)) > 0; step++);
      const kept = [
        { date: "2025-01-10", calls: 1 },
        { date: "2025-01-11", calls: 1 },
        { date: "2025-03-01", calls: 1 },
      ];
      assert.deepEqual(await store.usage(ID, "2025-01-01", "2025-12-31"), kept);
      assert.equal(await store.pruneUsage("2025-01-01", 10), 0, "nothing is older than the day given");
      const first = await store.pruneUsage("2025-02-01", 1);
      if (first === 0) {
        // Redis: each month of history expires by itself (its lifetime is tested with the store).
        assert.deepEqual(await store.usage(ID, "2025-01-01", "2025-12-31"), kept);
        return;
      }
      assert.equal(first, 1, "one step deletes at most its limit");
      assert.equal(await store.pruneUsage("2025-02-01", 10), 1);
      assert.equal(await store.pruneUsage("2025-02-01", 10), 0);
      assert.deepEqual(await store.usage(ID, "2025-01-01", "2025-12-31"), [{ date: "2025-03-01", calls: 1 }]);
    },
  },
];
