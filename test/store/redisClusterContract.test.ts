/**
 * The QuotaStore contract and the store failure contract against the Redis store on a Redis
 * Cluster (`REDIS_CLUSTER=1`) of 3 primaries and 3 replicas started by the test, opened through
 * the store registry as the server opens it; each case under a prefix of its own. The keys'
 * counts spread over the primaries (`scripts.ts`).
 */
import { afterAll, describe, expect, it } from "vitest";
import { openStore, storeKind } from "../../runtime/stores/registry.ts";
import { type TestRedis, type TestRedisCluster, removeAllRedis, skipRedis, startRedisCluster } from "../helpers/redisServer.ts";
import { contractCases, keyRecord } from "./contractCases.ts";
import { failureCases } from "./failureCases.ts";
import { scaleCases } from "./scaleCases.ts";
import { usageCases } from "./usageCases.ts";
import { classCases } from "./classCases.ts";
import { keyBucket } from "../../runtime/core/quota/store.ts";
import { keySlot } from "../../runtime/stores/redis/connection.ts";

afterAll(removeAllRedis);

let cluster: Promise<TestRedisCluster> | undefined;
let prefixes = 0;

async function open() {
  return openStore(storeKind("redis"), {
    url: (await (cluster ??= startRedisCluster(["--appendonly", "yes"]))).url,
    prefix: `cluster-${++prefixes}:`,
    cluster: "1",
  });
}

describe.skipIf(skipRedis)("RedisQuotaStore contract on a Redis Cluster", () => {
  for (const check of [...contractCases, ...usageCases, ...classCases, ...scaleCases, ...failureCases]) {
    it(check.name, async () => {
      const store = await open();
      try {
        await check.run(store);
      } finally {
        await store.close();
      }
    });
  }

  it("refuses a cluster's node named without REDIS_CLUSTER=1, and a database other than 0 with it, saying which setting", async () => {
    const url = (await (cluster ??= startRedisCluster(["--appendonly", "yes"]))).url;
    await expect(openStore(storeKind("redis"), { url, prefix: "p:" })).rejects.toThrow(/is a node of a Redis Cluster: set REDIS_CLUSTER=1/);
    await expect(openStore(storeKind("redis"), { url: url.replace(/\/0$/, "/2"), prefix: "p:", cluster: "1" })).rejects.toThrow(
      /names database 2, but a Redis Cluster \(REDIS_CLUSTER=1\) has only database 0/,
    );
    const variable = storeKind("redis").variables.find((v) => v.name === "REDIS_CLUSTER");
    expect(variable?.check?.("yes")).toMatch(/must be 1 .* or 0/);
    expect(variable?.check?.("1")).toBeUndefined();
  });

  it("spreads the keys' counts over the three primaries, each key's counter and history in the slot of its own hash tag", async () => {
    const store = await open();
    const prefix = `cluster-${prefixes}:`;
    try {
      const day = "2026-11-29";
      const keys = Array.from({ length: 30 }, () => keyRecord());
      for (const key of keys) await store.insertKey(key);
      await Promise.all(keys.map((key) => store.consume(keyBucket(key.id), day, 10)));
      const test = await (cluster as Promise<TestRedisCluster>);
      const holders = test.primaries().map((node) => test.cli(node, "KEYS", `${prefix}{key:*}:count:${day}`).split("\n").filter(Boolean).length);
      expect(holders).toHaveLength(3);
      expect(holders.reduce((a, b) => a + b, 0)).toBe(30);
      // 30 keys over 3 primaries: each holds some (all on one would be the `{keys}` layout).
      for (const held of holders) expect(held).toBeGreaterThan(0);
      for (const key of keys) expect(await store.used(keyBucket(key.id), day)).toBe(1);
      expect(await store.usage(keys[0]!.id, day, day)).toEqual([{ date: day, calls: 1 }]);
    } finally {
      await store.close();
    }
  });

  it("reads each of 1,500 keys' records from the `{keys}` primary once: their later calls are one count script each", async () => {
    const store = await open();
    try {
      const day = "2026-11-29";
      const keys = Array.from({ length: 1_500 }, () => keyRecord());
      const TURN = 100;
      for (let i = 0; i < keys.length; i += TURN) await Promise.all(keys.slice(i, i + TURN).map((key) => store.insertKey(key)));
      // As metering does: the record (from memory when the store has it), then the count.
      const callEach = async () => {
        for (let i = 0; i < keys.length; i += TURN)
          await Promise.all(
            keys.slice(i, i + TURN).map(async (key) => {
              expect((await store.keyByHash(key.hash, true))?.id).toBe(key.id);
              expect((await store.consume(keyBucket(key.id), day, 10)).allowed).toBe(true);
            }),
          );
      };
      await callEach();
      const test = await (cluster as Promise<TestRedisCluster>);
      const primaries = test.primaries();
      for (const node of primaries) test.cli(node, "CONFIG", "RESETSTAT");
      await callEach();
      const calls = (command: string) =>
        primaries
          .map((node) => Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(test.cli(node, "INFO", "commandstats"))?.[1] ?? 0))
          .reduce((a, b) => a + b, 0);
      // One count script per call (each key in its own slot) and no lookup script: every record came
      // from memory. (Commands that scripts run count too, so the version's GET cannot be told apart.)
      expect(calls("evalsha")).toBe(keys.length);
      for (const key of keys.slice(0, 20)) expect(await store.used(keyBucket(key.id), day)).toBe(2);
    } finally {
      await store.close();
    }
  });

  it("answers the counts that reach a primary while its WAIT is out with one WAIT after it, to that primary alone, each once the replica can hold it", async () => {
    const store = await open();
    const prefix = `cluster-${prefixes}:`;
    const test = await (cluster as Promise<TestRedisCluster>);
    const primary = test.primaries()[0] as TestRedis;
    // The primary's slots and its replica, as CLUSTER NODES says.
    const lines = test.cli(primary, "CLUSTER", "NODES").split("\n").filter(Boolean);
    const own = lines.find((line) => line.includes(`:${primary.port}@`)) as string;
    const id = own.split(" ")[0] as string;
    const ranges = own
      .split(" ")
      .slice(8)
      .map((range) => range.split("-").map(Number) as [number, number?]);
    const onPrimary = (slot: number) => ranges.some(([from, to]) => slot >= from && slot <= (to ?? from));
    const replicaPort = Number(/:(\d+)@/.exec(lines.find((line) => line.split(" ")[3] === id) as string)?.[1]);
    const replica = test.nodes.find((node) => node.port === replicaPort) as TestRedis;
    const day = "2026-11-29";
    // Demo callers whose counters are on that primary.
    const buckets: string[] = [];
    for (let i = 0; buckets.length < 40; i++)
      if (onPrimary(keySlot(`${prefix}count:${day}:ip:10.0.${i >> 8}.${i & 255}`))) buckets.push(`ip:10.0.${i >> 8}.${i & 255}`);
    try {
      // The replica in sync first. No count before (one whose WAIT the replica did not acknowledge in
      // time, on a busy machine, would stop this store's waits on the primary for 5 s).
      for (let i = 0; i < 100 && !/slave0:.*state=online/.test(test.cli(primary, "INFO", "replication")); i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      for (const node of test.primaries()) test.cli(node, "CONFIG", "RESETSTAT");
      // The replica stopped for 60 ms: the first WAIT is answered only once it runs again.
      process.kill(replica.pid, "SIGSTOP");
      const stopped = performance.now();
      let continued = Number.POSITIVE_INFINITY;
      const answeredAt: number[] = [];
      const calls = buckets.map(
        (bucket, i) =>
          new Promise<unknown>((resolve, reject) =>
            // One call a millisecond, each in a turn of its own.
            setTimeout(
              () => Promise.resolve(store.consume(bucket, day, 30)).then((result) => (answeredAt.push(performance.now()), resolve(result)), reject),
              i,
            ),
          ),
      );
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 60 - (performance.now() - stopped))));
      process.kill(replica.pid, "SIGCONT");
      continued = performance.now();
      expect(await Promise.all(calls)).toEqual(buckets.map(() => ({ allowed: true, used: 1 })));
      // None answered before its count could be on the replica.
      expect(Math.min(...answeredAt)).toBeGreaterThanOrEqual(continued);
      // 40 calls in 40 turns: one WAIT for the first, one for those that came while it was out (one a turn would be 40).
      const waits = (node: TestRedis) => Number(/cmdstat_wait:calls=(\d+)/.exec(test.cli(node, "INFO", "commandstats"))?.[1] ?? 0);
      expect(waits(primary)).toBeGreaterThanOrEqual(1);
      expect(waits(primary)).toBeLessThanOrEqual(3);
      // The other primaries are not asked (the client's own routing of WAIT sends it to every primary).
      for (const node of test.primaries()) if (node !== primary) expect(waits(node)).toBe(0);
      for (const bucket of buckets) expect(await store.used(bucket, day)).toBe(1);
    } finally {
      process.kill(replica.pid, "SIGCONT");
      await store.close();
    }
  });
});
