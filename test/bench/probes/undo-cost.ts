// What the undo markers (runtime/stores/redis/undo.ts) cost a count on Redis: this checkout's
// Redis store against another checkout's (BEFORE=<its root>, e.g. a worktree of the commit before
// them), in one process, on one private redis-server, in interleaved rounds. Each round sends, for
// SECONDS, turns of BATCH counts of keys (one script a turn) and, apart, single demo counts (one
// script each), and measures this process's CPU and redis-server's CPU per count. Medians.
//   BEFORE=/path/to/old/checkout ROUNDS=7 SECONDS=2 npx tsx test/bench/probes/undo-cost.ts
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { keyBucket } from "../../../runtime/core/quota/store.ts";
import { removeAllRedis, startRedis } from "../../helpers/redisServer.ts";
import { keyRecord } from "../../store/contractCases.ts";

const BEFORE = process.env["BEFORE"];
if (BEFORE === undefined) throw new Error("BEFORE=<root of the checkout to compare with> is required");
const ROUNDS = Number(process.env["ROUNDS"] ?? 7);
const SECONDS = Number(process.env["SECONDS"] ?? 2);
const BATCH = Number(process.env["BATCH"] ?? 20);
const DAY = new Date().toISOString().slice(0, 10);
const LIMIT = 1_000_000_000;

type Store = Awaited<ReturnType<typeof import("../../../runtime/stores/redis/redisStore.ts").openRedisStore>>;

/** redis-server's CPU time so far, in ms (utime + stime from /proc, 100 ticks a second). */
function redisCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Counts for `SECONDS`: turns of `batch` counts; returns counts made and CPU µs per count (this process, redis-server). */
async function round(store: Store, buckets: string[], batch: number, redisPid: number) {
  const cpu = process.cpuUsage();
  const redis = redisCpuMs(redisPid);
  const until = performance.now() + SECONDS * 1000;
  let counts = 0;
  while (performance.now() < until) {
    await Promise.all(Array.from({ length: batch }, (_, i) => store.consume(buckets[(counts + i) % buckets.length] as string, DAY, LIMIT)));
    counts += batch;
  }
  const used = process.cpuUsage(cpu);
  return { counts, serverUs: (used.user + used.system) / counts, redisUs: ((redisCpuMs(redisPid) - redis) * 1000) / counts };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const redis = await startRedis();
try {
  const open = async (root: string, prefix: string) => {
    const { openRedisStore } = (await import(join(root, "runtime/stores/redis/redisStore.ts"))) as typeof import("../../../runtime/stores/redis/redisStore.ts");
    return openRedisStore({ url: redis.url, prefix, log: () => {} });
  };
  const stores = { before: await open(BEFORE, "before:"), after: await open(join(import.meta.dirname, "../../.."), "after:") };
  const keys = Array.from({ length: 40 }, () => keyRecord({ plan: "annual", status: "active" }));
  const cases = [
    { name: `keys, ${BATCH} a turn`, buckets: keys.map((k) => keyBucket(k.id)), batch: BATCH },
    { name: "keys, 1 a turn", buckets: keys.map((k) => keyBucket(k.id)), batch: 1 },
    { name: "demo, one script each", buckets: Array.from({ length: 40 }, (_, i) => `ip:10.0.0.${i}`), batch: BATCH },
  ];
  const samples = new Map<string, { serverUs: number[]; redisUs: number[]; rate: number[] }>();
  for (let r = 0; r < ROUNDS; r++) {
    for (const c of cases) {
      const order = r % 2 === 0 ? (["before", "after"] as const) : (["after", "before"] as const);
      for (const which of order) {
        const result = await round(stores[which], c.buckets, c.batch, redis.pid);
        const key = `${c.name}|${which}`;
        const s = samples.get(key) ?? { serverUs: [], redisUs: [], rate: [] };
        s.serverUs.push(result.serverUs);
        s.redisUs.push(result.redisUs);
        s.rate.push(result.counts / SECONDS);
        samples.set(key, s);
      }
    }
  }
  console.log(`Counts on Redis, before and after the undo markers: ${ROUNDS} interleaved rounds of ${SECONDS} s, medians\n`);
  console.log("case                       counts/s before  after   process CPU µs/count before  after  redis-server CPU µs/count before  after");
  for (const c of cases) {
    const b = samples.get(`${c.name}|before`) as { serverUs: number[]; redisUs: number[]; rate: number[] };
    const a = samples.get(`${c.name}|after`) as { serverUs: number[]; redisUs: number[]; rate: number[] };
    const f = (n: number) => n.toFixed(1).padStart(6);
    console.log(
      `${c.name.padEnd(26)} ${String(Math.round(median(b.rate))).padStart(15)}  ${String(Math.round(median(a.rate))).padStart(6)}  ${f(median(b.serverUs)).padStart(28)}  ${f(median(a.serverUs))}  ${f(median(b.redisUs)).padStart(31)}  ${f(median(a.redisUs))}`,
    );
  }
  await Promise.all([stores.before.close(), stores.after.close()]);
} finally {
  await removeAllRedis();
}
