/**
 * A call answered 503 is never charged, an application answered 503 never kept (README "Failure
 * contract"), on a Redis put to sleep with `DEBUG SLEEP`: the scripts sent before the sleep run
 * when Redis wakes, after their callers were answered 503, and are undone. And the undo scripts on
 * their own: exact whether they run before or after the original, and idempotent.
 */
import { createClient } from "@redis/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DuplicateApplicationError, StoreUnavailableError, keyBucket } from "../../runtime/core/quota/store.ts";
import { openRedisStore } from "../../runtime/stores/redis/redisStore.ts";
import { CONSUME, CONSUME_KEYS, INSERT_KEY, type LuaScript } from "../../runtime/stores/redis/scripts.ts";
import { COUNTED_KEYS, COUNTED_ONE, INSERTED, UNDO_COUNTS, UNDO_INSERT, UNDO_WINDOW_SECONDS, undoable } from "../../runtime/stores/redis/undo.ts";
import { eventually } from "../helpers/eventually.ts";
import { type TestRedis, removeAllRedis, skipRedis, startRedis } from "../helpers/redisServer.ts";
import { keyRecord } from "./contractCases.ts";

const DAY = "2025-03-01";
const WINDOW = String(UNDO_WINDOW_SECONDS);

describe.skipIf(skipRedis)("calls answered 503 on a slow Redis are undone", () => {
  let redis: TestRedis;
  let client: ReturnType<typeof createClient>;
  beforeAll(async () => {
    redis = await startRedis(["--enable-debug-command", "local"]);
    client = createClient({ url: redis.url });
    await client.connect();
  });
  afterAll(async () => {
    await client.close();
    await removeAllRedis();
  });

  it("during DEBUG SLEEP every call answers 503; when Redis wakes, only the calls served are counted and the applications answered 503 are gone", async () => {
    const store = await openRedisStore({ url: redis.url, prefix: "sleep:", timeoutMs: 300, log: () => {} });
    const sleeper = createClient({ url: redis.url });
    await sleeper.connect();
    try {
      const key = keyRecord({ status: "active", plan: "annual" });
      await store.insertKey(key);
      expect(await store.consume("ip:9", DAY, 3)).toEqual({ allowed: true, used: 1 });
      expect(await store.consume(keyBucket(key.id), DAY, 3)).toEqual({ allowed: true, used: 1 });

      const sleeping = sleeper.sendCommand(["DEBUG", "SLEEP", "1.5"]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const applicant = keyRecord({ email: "Sleepy@Example.com" });
      // Demo counts (one script each), two turns of key counts (one script a turn), an application.
      const calls = [
        ...Array.from({ length: 4 }, () => store.consume("ip:9", DAY, 3)),
        ...Array.from({ length: 3 }, () => store.consume(keyBucket(key.id), DAY, 3)),
        store.insertKey(applicant),
      ];
      await new Promise((resolve) => setTimeout(resolve, 0));
      calls.push(store.consume(keyBucket(key.id), DAY, 3));
      const outcomes = await Promise.allSettled(calls);
      for (const outcome of outcomes) {
        expect(outcome.status).toBe("rejected");
        expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(StoreUnavailableError);
      }
      await sleeping;

      // 4 demo scripts, 2 scripts of key counts and the insertion ran when Redis woke: 7 undos.
      await eventually(async () => store.undos.made === 7 && store.undos.owed === 0, "the seven scripts are undone");
      expect(await store.used("ip:9", DAY)).toBe(1);
      expect(await store.used(keyBucket(key.id), DAY)).toBe(1);
      // The key's usage history is undone with its count.
      expect(await store.usage(key.id, DAY, DAY)).toEqual([{ date: DAY, calls: 1 }]);
      expect(await store.keyById(applicant.id)).toBeNull();
      expect(await store.keyByHash(applicant.hash)).toBeNull();
      // The demo client and the key still have the rest of their limit of 3, and no more.
      for (const bucket of ["ip:9", keyBucket(key.id)]) {
        expect(await store.consume(bucket, DAY, 3)).toEqual({ allowed: true, used: 2 });
        expect(await store.consume(bucket, DAY, 3)).toEqual({ allowed: true, used: 3 });
        expect(await store.consume(bucket, DAY, 3)).toEqual({ allowed: false, used: 3 });
      }
      // The applicant answered 503 applies again with the same e-mail (any case) and is stored once.
      const again = keyRecord({ email: "sleepy@example.com" });
      await store.insertKey(again);
      expect(await store.keyById(again.id)).toMatchObject({ id: again.id, status: "pending_deposit" });
      await expect(store.insertKey(keyRecord({ email: "SLEEPY@example.com" }))).rejects.toBeInstanceOf(DuplicateApplicationError);

      // Undone: 2 demo counts (the other 2 found the limit reached), 1 script of key counts (2 of its
      // 3 counted; the second turn's count found the limit reached) and the insertion. The 3 scripts
      // that changed nothing left no marker, so their undo left a tombstone. (The calls served left
      // markers of what they counted.) All expire within the window.
      const markers = await client.keys("sleep:*:undo:*");
      const values = await Promise.all(markers.map((name) => client.get(name)));
      expect(values.filter((value) => value === "u" || value === "x").sort()).toEqual(["u", "u", "u", "u", "x", "x", "x"]);
      for (const name of markers) {
        const ttl = await client.ttl(name);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(UNDO_WINDOW_SECONDS);
      }
    } finally {
      await store.close();
      await sleeper.close();
    }
  });

  /** Runs `script` by its text through the plain client. */
  const run = (script: LuaScript, keys: string[], args: string[]) => client.sendCommand(["EVAL", script.lua, String(keys.length), ...keys, ...args]);

  it("an undo that runs before its count (the count on a connection lost meanwhile) cancels it: the count arrives and changes nothing", async () => {
    const counter = "t1:count";
    const marker = `t1:{${counter}}:undo:a.1`;
    expect(await run(UNDO_COUNTS, [marker, counter], [WINDOW])).toBe("cancelled");
    expect(await run(undoable(CONSUME, COUNTED_ONE), [counter, marker], ["5", "100", WINDOW])).toBeNull();
    expect(await client.get(counter)).toBeNull();
    expect(await run(UNDO_COUNTS, [marker, counter], [WINDOW])).toBe("already");
  });

  it("an undo after its counts takes back exactly what they counted, in the counters and in the usage history, once, however often it runs", async () => {
    const [a, b, other] = ["t2:{keys}:count:a", "t2:{keys}:count:b", "t2:{keys}:count:other"];
    const [historyA, historyB] = ["t2:{keys}:usage:a:2025-03", "t2:{keys}:usage:b:2025-03"];
    const marker = "t2:{keys}:undo:b.7";
    await client.set(other, "4");
    await client.hSet(historyA, "2025-02-28", "9");
    // a counted twice, b refused (limit 0), against the keys' version "*" (nothing to check).
    const count = (limit: string) => [limit, "100", "*", "1000", DAY];
    const reply = await run(
      undoable(CONSUME_KEYS, COUNTED_KEYS),
      ["t2:{keys}:version", a, historyA, a, historyA, b, historyB, marker],
      [...count("5"), ...count("5"), ...count("0"), WINDOW],
    );
    expect(reply).toEqual([1, 1, 1, 2, 0, 0]);
    expect(await client.hGetAll(historyA)).toEqual({ "2025-02-28": "9", [DAY]: "2" });
    expect(await client.ttl(historyA)).toBeGreaterThan(900);
    expect(await client.exists(historyB)).toBe(0);
    expect(await client.get(marker)).toBe(`2@${DAY},4@${DAY}`);
    const undo = ["t2:{keys}:version", a, historyA, a, historyA, b, historyB];
    expect(await run(UNDO_COUNTS, [marker, ...undo], [WINDOW])).toBe("undone");
    expect(await run(UNDO_COUNTS, [marker, ...undo], [WINDOW])).toBe("already");
    expect(await client.get(a)).toBe("0");
    expect(await client.get(b)).toBeNull();
    expect(await client.get(other)).toBe("4");
    // The day undone is gone from the history; the other days stay.
    expect(await client.hGetAll(historyA)).toEqual({ "2025-02-28": "9" });
    // A script that counted nothing leaves no marker.
    const refused = "t2:{keys}:undo:b.8";
    expect(await run(undoable(CONSUME_KEYS, COUNTED_KEYS), ["t2:{keys}:version", b, historyB, refused], [...count("0"), WINDOW])).toEqual([0, 0]);
    expect(await client.exists(refused)).toBe(0);
  });

  it("an undo after an insertion removes the key, its e-mail, its payment reference and its index entries, and changes the keys' version", async () => {
    const indexes = ["t3:{keys}:created", "t3:{keys}:erasable"];
    const names = ["t3:{keys}:records", "t3:{keys}:hashes", "t3:{keys}:pending", "t3:{keys}:references", "t3:{keys}:version", ...indexes];
    const marker = "t3:{keys}:undo:c.1";
    const members = ["2026-01-01T00:00:00.000Z key_undo", "2026-01-01T00:00:00.000Z key_undo"];
    const args = ["key_undo", "hash-undo", "{}", "undo@example.com", "REF-UNDO", "1", "0", ...members];
    expect(await run(undoable(INSERT_KEY, INSERTED), [...names, marker], [...args, WINDOW])).toBe("ok");
    expect(await client.get(marker)).toBe("1");
    for (const index of indexes) expect(await client.zCard(index)).toBe(1);
    const undo = [marker, ...names];
    const undoArgs = [WINDOW, "key_undo", "hash-undo", "undo@example.com", "REF-UNDO", ...members];
    expect(await run(UNDO_INSERT, undo, undoArgs)).toBe("undone");
    expect(await run(UNDO_INSERT, undo, undoArgs)).toBe("already");
    for (const name of names.slice(0, 4)) expect(await client.hLen(name)).toBe(0);
    for (const index of indexes) expect(await client.zCard(index)).toBe(0);
    expect(await client.get("t3:{keys}:version")).toBe("2");
    // Cancelled first: the insertion, should it still arrive, stores nothing.
    const early = "t3:{keys}:undo:c.2";
    expect(await run(UNDO_INSERT, [early, ...names], undoArgs)).toBe("cancelled");
    expect(await run(undoable(INSERT_KEY, INSERTED), [...names, early], [...args, WINDOW])).toBeNull();
    expect(await client.hLen("t3:{keys}:records")).toBe(0);
  });
});
