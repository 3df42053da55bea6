/**
 * What the Redis store does beyond the contract: its settings and their messages (never the
 * password), start-up against an unreachable Redis, outages (stopped, paused, restarted) under
 * the failure contract, counters that expire, exactness and a final revocation across
 * connections, the Cluster-ready key layout, prefixes and the persistence warning.
 */
import { createHash } from "node:crypto";
import { createClient } from "@redis/client";
import { SHARED_LOOKUPS, keyRecordBytes } from "../../runtime/core/util/cacheBudget.ts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { confirmKey, revokeKey } from "../../runtime/core/quota/keyActions.ts";
import { KeyChangedError, StoreUnavailableError, keyBucket } from "../../runtime/core/quota/store.ts";
import { counterTtlSeconds, historyTtlSeconds } from "../../runtime/stores/redis/counterLife.ts";
import { USAGE_KEEP_DAYS } from "../../runtime/core/quota/retention.ts";
import { type RedisQuotaStore, openRedisStore } from "../../runtime/stores/redis/redisStore.ts";
import { parseRedisUrl } from "../../runtime/stores/redis/redisUrl.ts";
import { call, testApp } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { type TestRedis, removeAllRedis, skipRedis, startRedis } from "../helpers/redisServer.ts";
import { keyRecord } from "./contractCases.ts";
import { allKeys } from "../../runtime/core/quota/keyPages.ts";

const DAY = "2025-03-01";

/** Some other key stored through `store` (a change every connection's version sees). */
async function insertAnother(store: RedisQuotaStore): Promise<undefined> {
  await store.insertKey(keyRecord());
  return undefined;
}
let prefixes = 0;
const silent = () => {};

/** A store on `redis` with a fresh prefix; its log lines are collected in `lines`. */
async function open(redis: TestRedis, options: { timeoutMs?: number; lines?: string[]; prefix?: string } = {}): Promise<RedisQuotaStore> {
  const lines = options.lines;
  return openRedisStore({
    url: redis.url,
    prefix: options.prefix ?? `t${++prefixes}:`,
    timeoutMs: options.timeoutMs,
    log: lines ? (level, message) => lines.push(`${level}: ${message}`) : silent,
  });
}

/** A plain client for looking at what the store wrote. */
async function raw(redis: TestRedis) {
  const client = createClient({ url: redis.url });
  await client.connect();
  return client;
}

describe.skipIf(skipRedis)("the Redis store", () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(removeAllRedis);

  describe("REDIS_URL", () => {
    it("accepts redis:// and rediss:// URLs and describes them without user or password", () => {
      expect(parseRedisUrl("redis://u:pw@cache.internal:6380/2")).toMatchObject({
        safe: "redis://cache.internal:6380/2",
        host: "cache.internal",
        port: 6380,
        db: 2,
        tls: false,
      });
      expect(parseRedisUrl("rediss://:pw@[::1]")).toMatchObject({ safe: "rediss://[::1]:6379/0", port: 6379, db: 0, tls: true });
    });

    it.each([
      ["http://:hunter2secret@host:6379/0", /redis:\/\/ or rediss:\/\//],
      ["redis://:hunter2secret@host:6379/abc", /database must be a number/],
      ["redis://:hunter2secret@host:6379/0?x=1", /no query/],
      ["not a url hunter2secret", /must be a URL/],
      ["redis://:p@host:6379/hunter2secret", /database must be a number/],
    ])("refuses %s with a message that names the problem and not the password", async (url, message) => {
      const error = await openRedisStore({ url, log: silent }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/^REDIS_URL: /);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain("hunter2secret");
    });

    it("a wrong password or database stops the open with a message naming REDIS_URL, without the password", async () => {
      const locked = await startRedis(["--requirepass", "right-password-123"]);
      try {
        for (const url of [
          `redis://:wrong-password-456@127.0.0.1:${locked.port}/0`,
          `redis://127.0.0.1:${locked.port}/0`,
          `redis://:right-password-123@127.0.0.1:${locked.port}/99`,
        ]) {
          const error = (await openRedisStore({ url, log: silent }).catch((e: Error) => e)) as Error;
          expect(error).toBeInstanceOf(Error);
          expect(error.message).toMatch(
            new RegExp(`^REDIS_URL: Redis at redis://127.0.0.1:${locked.port}/\\d+ refused the connection: (WRONGPASS|NOAUTH|ERR DB index)`),
          );
          expect(error.message).not.toMatch(/password-(123|456)/);
        }
        const store = await openRedisStore({ url: `redis://:right-password-123@127.0.0.1:${locked.port}/3`, log: silent });
        expect(await store.consume("b", DAY, 1)).toEqual({ allowed: true, used: 1 });
        await store.close();
      } finally {
        await locked.remove();
      }
    });
  });

  describe("outages", () => {
    it("opens while Redis is unreachable, answers StoreUnavailableError, and works once Redis is there", async () => {
      const later = await startRedis();
      await later.stop();
      const lines: string[] = [];
      const store = await open(later, { lines, timeoutMs: 300 });
      try {
        expect(store.health().ready).toBe(false);
        expect(lines.join("\n")).toMatch(/does not answer .*starting anyway/);
        await expect(store.consume("b", DAY, 5)).rejects.toBeInstanceOf(StoreUnavailableError);
        await expect(store.keyByHash("0".repeat(64))).rejects.toBeInstanceOf(StoreUnavailableError);
        await later.restart();
        await eventually(async () => (await store.consume("b", DAY, 5)).allowed, "the store reconnects");
        expect(store.health()).toEqual({ ready: true });
        expect(lines.join("\n")).toMatch(/connected to redis:\/\/127\.0\.0\.1/);
      } finally {
        await store.close();
        await later.remove();
      }
    });

    it("Redis killed: every operation fails as unavailable; restarted: the store reconnects by itself, never counting a failed call", async () => {
      const own = await startRedis();
      const lines: string[] = [];
      const store = await open(own, { lines });
      try {
        expect((await store.consume("b", DAY, 100)).used).toBe(1);
        await own.stop(true);
        const failed = await Promise.allSettled(Array.from({ length: 20 }, () => store.consume("b", DAY, 100)));
        for (const outcome of failed) {
          expect(outcome.status).toBe("rejected");
          expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(StoreUnavailableError);
        }
        expect(store.health().ready).toBe(false);
        await own.restart();
        // No persistence: the restarted Redis is empty, and none of the 20 failed calls reached it.
        await eventually(async () => (await store.consume("b", DAY, 100)).allowed, "the store reconnects");
        expect(await store.used("b", DAY)).toBe(1);
        // At info: the outage itself is the app's to log (one warn line as it starts, one as it ends).
        expect(lines.join("\n")).toMatch(/^info: redis store: lost redis:\/\/127\.0\.0\.1:\d+\/0 .*503/m);
      } finally {
        await store.close();
        await own.remove();
      }
    });

    it("an app's outage ends when Redis answers its probe again, with no metered call after; closing then reports no outage; a paused Redis ends it only once resumed", async () => {
      const own = await startRedis();
      const store = await open(own, { timeoutMs: 300 });
      const app = testApp({ store });
      const logged: string[] = [];
      vi.spyOn(console, "error").mockImplementation((line: unknown) => void logged.push(String(line)));
      const ends = () => logged.filter((line) => line.includes("answering again"));
      try {
        expect((await call(app, "/quiz/v1/idiom/1", { clientAddress: "192.0.2.41" })).status).toBe(200);
        await own.stop(true);
        expect((await call(app, "/quiz/v1/idiom/1", { clientAddress: "192.0.2.41" })).status).toBe(503);
        expect(logged.filter((line) => line.includes("quota store unavailable"))).toHaveLength(1);
        // Down: the probes fail, the outage goes on.
        await new Promise((resolve) => setTimeout(resolve, 1_600));
        expect(ends()).toEqual([]);
        await own.restart();
        await eventually(async () => ends().length === 1, "the outage ends without a metered call");
        expect(ends()[0]).toMatch(/"level":"warn".*quota store answering again after \d+(\.\d)? s; 1 call answered 503 meanwhile.*"unavailable_calls":1/);
        // Paused: a call and the probes get no answer within the bound, so nothing ends the outage until Redis resumes.
        process.kill(own.pid, "SIGSTOP");
        try {
          expect((await call(app, "/quiz/v1/idiom/1", { clientAddress: "192.0.2.41" })).status).toBe(503);
          await new Promise((resolve) => setTimeout(resolve, 1_600));
          expect(ends()).toHaveLength(1);
        } finally {
          process.kill(own.pid, "SIGCONT");
        }
        await eventually(async () => ends().length === 2, "the second outage ends without a metered call");
      } finally {
        await app.close();
        vi.restoreAllMocks();
        await own.remove();
      }
      expect(logged.join("\n")).not.toContain("closing while the quota store is unavailable");
    });

    it("Redis paused: an operation fails as unavailable within its bound instead of waiting; resumed: it answers again", async () => {
      const own = await startRedis();
      const store = await open(own, { timeoutMs: 400 });
      try {
        await store.consume("b", DAY, 10);
        process.kill(own.pid, "SIGSTOP");
        try {
          const error = await store.consume("b", DAY, 10).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(StoreUnavailableError);
          expect((error as Error).message).toMatch(/no answer from redis:\/\/127\.0\.0\.1:\d+\/0 within 400 ms/);
        } finally {
          process.kill(own.pid, "SIGCONT");
        }
        await eventually(async () => store.undos.made === 1, "the call answered 503 is undone");
        // The paused call ran when Redis resumed, and was taken back: only the call served counts.
        expect(await store.used("b", DAY)).toBe(1);
      } finally {
        await store.close();
        await own.remove();
      }
    });
  });

  describe("across connections (as across server processes)", () => {
    it("4 connections × 100 concurrent calls against a limit of 30 → exactly 30, counts 1…30 each once", async () => {
      const stores = await Promise.all(Array.from({ length: 4 }, () => open(redis, { prefix: "shared-exact:" })));
      try {
        const results = await Promise.all(stores.flatMap((store) => Array.from({ length: 100 }, () => store.consume("burst", DAY, 30))));
        const granted = results
          .filter((r) => r.allowed)
          .map((r) => r.used)
          .sort((a, b) => a - b);
        expect(granted).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
        expect(await stores[0]!.used("burst", DAY)).toBe(30);
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    });

    it("a revocation racing a confirmation from another connection is final", async () => {
      const [a, b] = await Promise.all([open(redis, { prefix: "race:" }), open(redis, { prefix: "race:" })]);
      try {
        const now = new Date("2025-03-05T12:00:00.000Z");
        for (let i = 0; i < 30; i++) {
          const key = keyRecord();
          await a!.insertKey(key);
          await Promise.all([revokeKey(a!, key.id, now), confirmKey(b!, key.id, now)]);
          expect((await b!.keyById(key.id))?.status).toBe("revoked");
          expect((await a!.keyByHash(key.hash))?.status).toBe("revoked");
        }
      } finally {
        await Promise.all([a!.close(), b!.close()]);
      }
    });

    it("a key looked up (and kept in memory) by one connection is seen changed at its next lookup after another connection changes it", async () => {
      const [a, b] = await Promise.all([open(redis, { prefix: "seen:" }), open(redis, { prefix: "seen:" })]);
      try {
        const now = new Date("2025-03-05T12:00:00.000Z");
        const key = keyRecord();
        expect(await a!.keyByHash(key.hash)).toBeNull();
        await b!.insertKey(key);
        expect((await a!.keyByHash(key.hash))?.status).toBe("pending_deposit");
        expect((await a!.keyByHash(key.hash))?.status).toBe("pending_deposit");
        await confirmKey(b!, key.id, now);
        expect(await a!.keyByHash(key.hash)).toMatchObject({ plan: "annual", status: "active" });
        await revokeKey(b!, key.id, now);
        expect((await a!.keyByHash(key.hash))?.status).toBe("revoked");
      } finally {
        await Promise.all([a!.close(), b!.close()]);
      }
    });

    it("a record answered from memory for a count is checked by that count: after another connection changes any key, the count refuses (KeyChangedError) and counts nothing", async () => {
      const [a, b] = await Promise.all([open(redis, { prefix: "checked:" }), open(redis, { prefix: "checked:" })]);
      try {
        const now = new Date("2025-03-05T12:00:00.000Z");
        const key = keyRecord();
        const other = keyRecord();
        await b!.insertKey(key);
        await b!.insertKey(other);
        const bucket = keyBucket(key.id);
        expect((await a!.keyByHash(key.hash))?.status).toBe("pending_deposit");
        // In memory now: answered at once, and the count that follows checks it.
        const fromMemory = a!.keyByHash(key.hash, true);
        expect(fromMemory).not.toBeInstanceOf(Promise);
        expect(fromMemory).toMatchObject({ id: key.id, status: "pending_deposit" });
        expect(await a!.consume(bucket, DAY, 100)).toEqual({ allowed: true, used: 1 });
        // Another connection changes another key: the count cannot know which, so it refuses.
        await confirmKey(b!, other.id, now);
        expect(a!.keyByHash(key.hash, true)).toMatchObject({ status: "pending_deposit" });
        await expect(a!.consume(bucket, DAY, 100)).rejects.toBeInstanceOf(KeyChangedError);
        expect(await a!.used(bucket, DAY)).toBe(1);
        // Read again (not for a count): the current record, and counts go on from there.
        expect((await a!.keyByHash(key.hash))?.status).toBe("pending_deposit");
        expect(await a!.consume(bucket, DAY, 100)).toEqual({ allowed: true, used: 2 });
        // Its own key revoked elsewhere: the stale record is refused at its count, the fresh one is revoked.
        expect(a!.keyByHash(key.hash, true)).toMatchObject({ status: "pending_deposit" });
        await revokeKey(b!, key.id, now);
        await expect(a!.consume(bucket, DAY, 100)).rejects.toBeInstanceOf(KeyChangedError);
        expect(await a!.used(bucket, DAY)).toBe(2);
        expect((await a!.keyByHash(key.hash, true))?.status).toBe("revoked");
        // A lookup that is not in memory is read from Redis (a promise), and its count is not checked twice.
        const unknown = a!.keyByHash("f".repeat(64), true);
        expect(unknown).toBeInstanceOf(Promise);
        expect(await unknown).toBeNull();
        // Without a lookup for a count, a count is a plain count whatever changed.
        await insertAnother(b!);
        expect(await a!.consume("ip:203.0.113.9", DAY, 30)).toEqual({ allowed: true, used: 1 });
      } finally {
        await Promise.all([a!.close(), b!.close()]);
      }
    });

    it("a turn's counts of keys go to Redis as one script, each against its own limit, in order; a demo count is a script of its own", async () => {
      const store = await open(redis, { prefix: "batch:" });
      const client = await raw(redis);
      try {
        const [a, b] = [keyRecord(), keyRecord()];
        await store.insertKey(a);
        await store.insertKey(b);
        await store.consume(keyBucket(a.id), DAY, 1000); // loads the script: not measured
        await client.sendCommand(["CONFIG", "RESETSTAT"]);
        const calls = [
          ...Array.from({ length: 60 }, () => store.consume(keyBucket(a.id), DAY, 41)),
          ...Array.from({ length: 60 }, () => store.consume(keyBucket(b.id), DAY, 7)),
        ];
        const results = await Promise.all(calls);
        expect(
          results
            .slice(0, 60)
            .filter((r) => r.allowed)
            .map((r) => r.used),
        ).toEqual(Array.from({ length: 40 }, (_, i) => i + 2));
        expect(
          results
            .slice(60)
            .filter((r) => r.allowed)
            .map((r) => r.used),
        ).toEqual(Array.from({ length: 7 }, (_, i) => i + 1));
        const evalsha = (stats: string) => Number(/cmdstat_evalsha:calls=(\d+)/.exec(stats)?.[1] ?? 0);
        expect(evalsha(String(await client.sendCommand(["INFO", "commandstats"])))).toBe(1);
        await Promise.all([store.consume("ip:192.0.2.1", DAY, 30), store.consume("ip:192.0.2.2", DAY, 30)]);
        expect(evalsha(String(await client.sendCommand(["INFO", "commandstats"])))).toBe(3);
      } finally {
        await Promise.all([store.close(), client.close()]);
      }
    });

    it("keeps the records of keys apart from the hashes of no key: 6,000 made-up keys are kept within their 1 MB and push no key's record out", async () => {
      const store = await open(redis, { prefix: "unknown:" });
      const client = await raw(redis);
      const evalsha = async () => Number(/cmdstat_evalsha:calls=(\d+)/.exec(String(await client.sendCommand(["INFO", "commandstats"])))?.[1] ?? 0);
      try {
        const key = keyRecord();
        await store.insertKey(key);
        expect((await store.keyByHash(key.hash))?.id).toBe(key.id);
        const madeUp = Array.from({ length: 6_000 }, (_, i) => createHash("sha256").update(`made-up ${i}`).digest("hex"));
        const lookUpAll = async () => {
          for (let i = 0; i < madeUp.length; i += 500)
            expect(await Promise.all(madeUp.slice(i, i + 500).map((hash) => store.keyByHash(hash)))).toEqual(Array(500).fill(null));
        };
        await lookUpAll();
        await client.sendCommand(["CONFIG", "RESETSTAT"]);
        // The key's record is still in memory: no lookup script.
        expect((await store.keyByHash(key.hash))?.id).toBe(key.id);
        expect(await evalsha()).toBe(0);
        // The made-up keys were kept within SHARED_LOOKUPS.unknownKeys: most are looked up again.
        await lookUpAll();
        const kept = Math.floor(SHARED_LOOKUPS.unknownKeys / keyRecordBytes(madeUp[0] as string, null));
        expect(await evalsha()).toBeGreaterThanOrEqual(madeUp.length - kept);
      } finally {
        await Promise.all([store.close(), client.close()]);
      }
    });

    it("counts checked against a record from memory stay exact: 4 connections × 100 concurrent calls of one key against a limit of 30, with keys changing meanwhile", async () => {
      const stores = await Promise.all(Array.from({ length: 4 }, () => open(redis, { prefix: "checked-exact:" })));
      try {
        const key = keyRecord();
        await stores[0]!.insertKey(key);
        const bucket = keyBucket(key.id);
        await Promise.all(stores.map((store) => store.keyByHash(key.hash)));
        // A caller as the meter is: a count refused as changed reads the key again and counts once more.
        const call = async (store: RedisQuotaStore) => {
          await store.keyByHash(key.hash, true);
          try {
            return await store.consume(bucket, DAY, 30);
          } catch (error) {
            if (!(error instanceof KeyChangedError)) throw error;
            await store.keyByHash(key.hash);
            return store.consume(bucket, DAY, 30);
          }
        };
        const changes = Array.from({ length: 5 }, () => insertAnother(stores[3]!));
        const results = await Promise.all([...stores.flatMap((store) => Array.from({ length: 100 }, () => call(store))), ...changes]);
        const granted = results.flatMap((r) => (r && r.allowed ? [r.used] : [])).sort((x, y) => x - y);
        expect(granted).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
        expect(await stores[0]!.used(bucket, DAY)).toBe(30);
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    });

    it("of 20 concurrent applications with one e-mail from 4 connections, exactly one is stored", async () => {
      const stores = await Promise.all(Array.from({ length: 4 }, () => open(redis, { prefix: "dup:" })));
      try {
        const outcomes = await Promise.allSettled(
          Array.from({ length: 20 }, (_, i) => stores[i % 4]!.insertKey(keyRecord({ email: i % 2 ? "Same@Example.com" : "same@example.COM" }))),
        );
        expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
        expect(await allKeys(stores[0]!, "pending_deposit")).toHaveLength(1);
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    });
  });

  describe("layout", () => {
    it("a counter expires two days after its day began (at least a day from now); a limit of 0 writes nothing", async () => {
      const store = await open(redis, { prefix: "ttl:" });
      const client = await raw(redis);
      try {
        const today = new Date().toISOString().slice(0, 10);
        // Taken before the call: the store's own reckoning, a moment later, can only be at most this
        // (whole seconds are rounded up, so reckoning after the call could be a second less).
        const expected = counterTtlSeconds(today);
        await store.consume("ip:127.0.0.1", today, 30);
        const ttl = await client.ttl(`ttl:count:${today}:ip:127.0.0.1`);
        expect(ttl).toBeGreaterThan(expected - 60);
        expect(ttl).toBeLessThanOrEqual(expected);
        expect(expected).toBeLessThanOrEqual(2 * 86_400);
        expect(counterTtlSeconds("2020-01-01")).toBe(86_400);
        await store.consume("revoked", today, 0);
        expect(await client.exists(`ttl:count:${today}:revoked`)).toBe(0);
      } finally {
        await store.close();
        await client.close();
      }
    });

    it("a key's usage history is one hash per month under {keys}, living USAGE_KEEP_DAYS past its last day counted; its day counter still expires after two days", async () => {
      const store = await open(redis, { prefix: "usage:" });
      const client = await raw(redis);
      try {
        const today = new Date().toISOString().slice(0, 10);
        const expected = historyTtlSeconds(today);
        const bucket = keyBucket("key_usageTtl0001");
        for (let i = 0; i < 3; i++) await store.consume(bucket, today, 2);
        const history = `usage:{keys}:usage:${bucket}:${today.slice(0, 7)}`;
        expect(await client.hGetAll(history)).toEqual({ [today]: "2" });
        const ttl = await client.ttl(history);
        expect(ttl).toBeGreaterThan(expected - 60);
        expect(ttl).toBeLessThanOrEqual(expected);
        // Past the end of today in any time zone, USAGE_KEEP_DAYS more days.
        expect(ttl).toBeGreaterThan((USAGE_KEEP_DAYS + 1) * 86_400);
        expect(await client.ttl(`usage:{keys}:count:${today}:${bucket}`)).toBeLessThanOrEqual(2 * 86_400);
        expect(historyTtlSeconds("2020-01-01")).toBe(86_400);
      } finally {
        await store.close();
        await client.close();
      }
    });

    it("keys live under the prefix only; key records, keys' counters and usage history share the hash tag {keys}; prefixes do not see each other", async () => {
      const first = await open(redis, { prefix: "app-one:" });
      const second = await open(redis, { prefix: "app-two:" });
      const client = await raw(redis);
      try {
        const key = keyRecord();
        await first.insertKey(key);
        await first.consume("ip:1", DAY, 5);
        expect(await second.keyById(key.id)).toBeNull();
        expect(await second.keyByHash(key.hash)).toBeNull();
        expect(await second.used("ip:1", DAY)).toBe(0);
        await first.consume(keyBucket(key.id), DAY, 5);
        const all = (await client.keys("app-one:*")).sort();
        // Each counting or inserting script leaves a short-lived marker, in the slot of what it changed.
        const markers = all.filter((name) => name.includes(":undo:"));
        expect(markers.map((name) => name.replace(/undo:[0-9a-f]+\.\w+$/, "undo:ID")).sort()).toEqual([
          `app-one:{app-one:count:${DAY}:ip:1}:undo:ID`,
          "app-one:{keys}:undo:ID",
          "app-one:{keys}:undo:ID",
        ]);
        const names = all.filter((name) => !markers.includes(name));
        expect(names).toEqual([
          `app-one:count:${DAY}:ip:1`,
          `app-one:{keys}:count:${DAY}:key:${key.id}`,
          "app-one:{keys}:created",
          "app-one:{keys}:erasable",
          "app-one:{keys}:hashes",
          "app-one:{keys}:indexed",
          "app-one:{keys}:pending",
          "app-one:{keys}:records",
          "app-one:{keys}:references",
          `app-one:{keys}:usage:key:${key.id}:${DAY.slice(0, 7)}`,
          "app-one:{keys}:version",
        ]);
      } finally {
        await Promise.all([first.close(), second.close(), client.close()]);
      }
    });
  });

  describe("persistence warning", () => {
    it("warns when Redis has persistence off or only snapshots, and not with appendonly on", async () => {
      const aof = await startRedis(["--appendonly", "yes"]);
      const rdb = await startRedis(["--save", "900 1"]);
      try {
        const seen: Record<string, string[]> = { off: [], rdb: [], aof: [] };
        for (const [name, server] of [
          ["off", redis],
          ["rdb", rdb],
          ["aof", aof],
        ] as const)
          await (await open(server, { lines: seen[name] })).close();
        expect(seen["off"]).toEqual([expect.stringMatching(/^warn: Redis at redis:\/\/127\.0\.0\.1:\d+\/0 has persistence off/)]);
        expect(seen["rdb"]).toEqual([expect.stringMatching(/keeps only RDB snapshots/)]);
        expect(seen["aof"]).toEqual([]);
      } finally {
        await Promise.all([aof.remove(), rdb.remove()]);
      }
    });

    it("says nothing when Redis refuses CONFIG (as managed services do)", async () => {
      const managed = await startRedis(["--rename-command", "CONFIG", ""]);
      try {
        const lines: string[] = [];
        const store = await open(managed, { lines });
        expect(await store.consume("b", DAY, 1)).toEqual({ allowed: true, used: 1 });
        await store.close();
        expect(lines).toEqual([]);
      } finally {
        await managed.remove();
      }
    });
  });
});
