/**
 * The Redis store's key indexes for data written before they existed: keys stored by an earlier
 * version (records, hashes, no `{keys}:created` or `{keys}:erasable`) are indexed once, when a store
 * opens, and then listed, exported and swept like any other; a store opened while Redis is away
 * indexes them on the first page asked for.
 */
import { createClient } from "@redis/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allKeys } from "../../runtime/core/quota/keyPages.ts";
import { eraseDue } from "../../runtime/core/quota/retention.ts";
import { openRedisStore } from "../../runtime/stores/redis/redisStore.ts";
import { type TestRedis, removeAllRedis, skipRedis, startRedis } from "../helpers/redisServer.ts";
import { keyRecord } from "./contractCases.ts";

const NOW = new Date("2025-06-01T00:00:00.000Z");

describe.skipIf(skipRedis)("the Redis store's key indexes for keys stored before them", () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(removeAllRedis);

  it("keys stored without the indexes are indexed once when a store opens; listing and the sweep then see every one", async () => {
    const prefix = "legacy:";
    const writer = await openRedisStore({ url: redis.url, prefix, log: () => {} });
    // 1,200 keys (more than one HSCAN step), a third of them due for erasure.
    const keys = Array.from({ length: 1_200 }, (_, i) =>
      keyRecord({
        created_at: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
        ...(i % 3 === 0 ? {} : { status: "active" as const, plan: "annual" as const }),
      }),
    );
    for (const key of keys) await writer.insertKey(key);
    await writer.close();
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      // What an earlier version left: the same records, no indexes.
      await client.del([`${prefix}{keys}:created`, `${prefix}{keys}:erasable`, `${prefix}{keys}:indexed`]);
      const store = await openRedisStore({ url: redis.url, prefix, log: () => {} });
      try {
        expect(await client.get(`${prefix}{keys}:indexed`)).toBe("1");
        expect(await client.zCard(`${prefix}{keys}:created`)).toBe(1_200);
        expect(await client.zCard(`${prefix}{keys}:erasable`)).toBe(400);
        expect((await allKeys(store)).map((k) => k.id)).toEqual(keys.map((k) => k.id).reverse());
        expect(await eraseDue(store, NOW, 30, () => {})).toEqual({ leased: true, erased: 400, pruned: 0, prunedUsage: 0, prunedClasses: 0 });
        expect(await client.zCard(`${prefix}{keys}:erasable`)).toBe(0);
      } finally {
        await store.close();
      }
    } finally {
      await client.close();
    }
  });

  it("a store opened while Redis is away indexes on the first page asked for", async () => {
    const away = await startRedis(["--appendonly", "yes"]);
    const prefix = "later:";
    const writer = await openRedisStore({ url: away.url, prefix, log: () => {} });
    const key = keyRecord({ created_at: "2025-01-01T00:00:00.000Z" });
    await writer.insertKey(key);
    await writer.close();
    const client = createClient({ url: away.url });
    await client.connect();
    await client.del([`${prefix}{keys}:created`, `${prefix}{keys}:erasable`, `${prefix}{keys}:indexed`]);
    await client.close();
    await away.stop();
    const store = await openRedisStore({ url: away.url, prefix, log: () => {}, timeoutMs: 300 });
    try {
      await away.restart();
      let listed: string[] | undefined;
      for (let i = 0; i < 100 && listed === undefined; i++) {
        listed = await allKeys(store).then(
          (all) => all.map((k) => k.id),
          () => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 50)),
        );
      }
      expect(listed).toEqual([key.id]);
    } finally {
      await store.close();
    }
  });
});
