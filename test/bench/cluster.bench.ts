/**
 * The Redis store on one Redis and on a Redis Cluster of 3 primaries (each with a replica), the
 * same load through two server instances (Node, bundled) on each: 1,000 annual keys and 5,000 demo
 * addresses calling `GET /quiz/v1/quiz`, one wrk per instance. From each primary's
 * `INFO commandstats` and CPU time: its share of the metered scripts (target: a third ±20 %), its
 * Redis CPU per metered call, and the capacity the busiest primary allows (calls/s at one core),
 * beside one Redis's (target ≥ 2.5× at 3 primaries). The wall-clock calls/s this machine drives
 * are printed too: servers, wrk and every redis-server share its cores, so they are bounded by
 * them, not by Redis. Then Redis alone (`redisAlone`): a script's CPU on one Redis and on a primary,
 * each driven as hard as one core allows. `npm run bench -- cluster`.
 */
import { execFileSync } from "node:child_process";
import { bundle } from "../../scripts/bundle.ts";
import { ensureDist } from "../../scripts/ensureDist.ts";
import { type TestRedis, removeAllRedis, startRedis, startRedisCluster } from "../helpers/redisServer.ts";
import { annualKeys, cpuMs, load, median, startServer, table } from "./lib.ts";
import { keySlot } from "../../runtime/stores/redis/connection.ts";
import { quotaDay } from "../../runtime/core/quota/clock.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 4);
const ADMIN = "bench-admin-token-0123456789";
const KEYS = Number(process.env.KEYS ?? 1000);
const ADDRESSES = 5000;
const INSTANCES = 2;

await ensureDist();
const server = await bundle();
const redisArgs = ["--appendonly", "yes", "--appendfsync", "everysec"];
const single = await startRedis(redisArgs);
const cluster = await startRedisCluster(redisArgs);

/** The metered scripts a node has run since its last `CONFIG RESETSTAT` (EVALSHA and EVAL). */
function scripts(cli: (...args: string[]) => string): number {
  const stats = cli("INFO", "commandstats");
  let calls = 0;
  for (const name of ["evalsha", "eval"]) calls += Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
  return calls;
}

interface Round {
  calls: number;
  rps: number;
  /** Per primary: share of the scripts, Redis CPU µs per script run there, CPU ms in all. */
  primaries: { share: number; cpuUsPerScript: number; cpuMs: number; scripts: number }[];
}

/** The slot ranges a primary serves, as it says (`CLUSTER NODES`). */
function rangesOf(primary: TestRedis): number[][] {
  const own = cluster
    .cli(primary, "CLUSTER", "NODES")
    .split("\n")
    .find((line) => line.includes(`:${primary.port}@`)) as string;
  return own
    .split(" ")
    .slice(8)
    .map((range) => range.split("-").map(Number));
}

/** Whether `key`'s slot is in `ranges`. */
function within(ranges: number[][], key: string): boolean {
  const slot = keySlot(key);
  return ranges.some(([from, to]) => slot >= from! && slot <= (to ?? from!));
}

/** The primary of `{keys}` (the key records and version): the one the `primary` target drives alone. */
function keysPrimary(): TestRedis {
  return cluster.primaries().find((node) => within(rangesOf(node), "{keys}")) as TestRedis;
}

/**
 * One round on `target`: one Redis, the cluster, or (`primary`) the cluster with only the keys and
 * demo addresses whose counters are on the primary of `{keys}` calling, so that this primary is
 * driven at the rate one Redis is, not at a third of it.
 */
async function round(target: "single" | "cluster" | "primary", n: number): Promise<Round> {
  const url = target === "single" ? single.url : cluster.url;
  const prefix = `bench-${target}-${n}:`;
  const env = { QUOTA_STORE: "redis", REDIS_URL: url, REDIS_PREFIX: prefix, ADMIN_TOKEN: ADMIN, TRUST_PROXY_HOPS: "1", ACCESS_LOG: "0" };
  const apps = await Promise.all(
    Array.from({ length: INSTANCES }, () => startServer("node", [server], target === "single" ? env : { ...env, REDIS_CLUSTER: "1" }, "/healthz")),
  );
  let keys = await annualKeys(apps[0]!.url, KEYS, ADMIN);
  let addresses = Array.from({ length: ADDRESSES }, (_, i) => `10.${80 + n}.${i >> 8}.${i & 255}`);
  if (target === "primary") {
    const ranges = rangesOf(keysPrimary());
    const ids = await Promise.all(
      keys.map(
        async (key) => ((await (await fetch(`${apps[0]!.url}/quiz/v1/me`, { headers: { "X-API-Key": key } })).json()) as { key: { id: string } }).key.id,
      ),
    );
    const day = quotaDay(new Date(), 9 * 60).day;
    keys = keys.filter((_, i) => within(ranges, `{key:${ids[i]}}`));
    addresses = addresses.filter((address) => within(ranges, `${prefix}count:${day}:ip:${address}`));
  }
  const headers = [...keys.map((key) => ({ "X-API-Key": key })), ...addresses.map((address) => ({ "X-Forwarded-For": address }))];
  const paths = headers.map(() => "/quiz/v1/quiz");
  await Promise.all(apps.map((app) => load(app.url, paths, { seconds: 1, headers })));
  const primaries: TestRedis[] = target === "single" ? [single] : target === "primary" ? [keysPrimary()] : cluster.primaries();
  const cli =
    (node: TestRedis) =>
    (...args: string[]) =>
      cluster.cli(node, ...args);
  for (const node of primaries) cli(node)("CONFIG", "RESETSTAT");
  const cpuBefore = primaries.map((node) => cpuMs(node.pid));
  const results = await Promise.all(apps.map((app) => load(app.url, paths, { seconds: SECONDS, headers })));
  const cpu = primaries.map((node, i) => cpuMs(node.pid) - cpuBefore[i]!);
  const counts = primaries.map((node) => scripts(cli(node)));
  // Each primary's commands (calls), for the record.
  const commands = primaries.map((node) =>
    [...cli(node)("INFO", "commandstats").matchAll(/cmdstat_(\w+):calls=(\d+)/g)].map(([, name, calls]) => `${name} ${calls}`).join(", "),
  );
  console.error(`${target}, round ${n}: ${commands.map((line, i) => `primary ${i + 1}: ${line}`).join("; ")}`);
  const total = counts.reduce((a, b) => a + b, 0);
  await Promise.all(apps.map((app) => app.stop()));
  const calls = results.reduce((sum, r) => sum + r.requests, 0);
  return {
    calls,
    rps: results.reduce((sum, r) => sum + r.rps, 0),
    primaries: primaries.map((_, i) => ({ share: counts[i]! / total, cpuUsPerScript: (cpu[i]! * 1000) / counts[i]!, cpuMs: cpu[i]!, scripts: counts[i]! })),
  };
}

/**
 * Redis alone, without the servers: `redis-benchmark` runs a counting script (INCR and EXPIRE of one
 * key, as `CONSUME` does) from 20 connections against one Redis, then against a key on the first
 * primary, which replicates to its replica. Each is driven to what one core gives, so its Redis CPU
 * per script is that of a busy Redis; the servers above drive each primary at a third of one Redis's
 * rate, where each script pays more of Redis's fixed costs per wake-up (its read, reply, AOF and
 * replication writes). Gives the CPU µs per script of each.
 */
function redisAlone(node: TestRedis, key: string): number {
  const lua = "local n = redis.call('INCR', KEYS[1]); redis.call('EXPIRE', KEYS[1], 100); return n";
  const n = 100_000;
  const before = cpuMs(node.pid);
  execFileSync("redis-benchmark", ["-p", String(node.port), "-c", "20", "-n", String(n), "-q", "EVAL", lua, "1", key], { encoding: "utf8" });
  return ((cpuMs(node.pid) - before) * 1000) / n;
}

/** A key in the slots of `primary`. */
function keyOn(primary: TestRedis): string {
  const ranges = rangesOf(primary);
  for (let i = 0; ; i++) if (within(ranges, `bench:{${i}}`)) return `bench:{${i}}`;
}

const rounds: Record<"single" | "cluster" | "primary", Round[]> = { single: [], cluster: [], primary: [] };
const alone: { single: number; primary: number }[] = [];
for (let n = 1; n <= ROUNDS; n++) {
  rounds.single.push(await round("single", n));
  rounds.cluster.push(await round("cluster", n));
  rounds.primary.push(await round("primary", n));
  const primary = keysPrimary();
  alone.push({ single: redisAlone(single, "bench:{0}"), primary: redisAlone(primary, keyOn(primary)) });
  console.error(`round ${n}/${ROUNDS} done`);
}
await removeAllRedis();

/** Calls/s at which the busiest primary would spend one core: calls ÷ its CPU seconds. */
const capacity = (r: Round) => r.calls / (Math.max(...r.primaries.map((p) => p.cpuMs)) / 1000);
const rows: (string | number)[][] = [
  ["", "calls/s (wall clock)", "scripts a call", "primary", "share of scripts", "Redis CPU µs a script", "capacity calls/s"],
];
const NAMES = { single: "one Redis", cluster: "cluster, 3 primaries", primary: "cluster, {keys}'s primary driven alone" };
for (const target of ["single", "cluster", "primary"] as const) {
  const runs = rounds[target];
  const primaries = runs[0]!.primaries.length;
  for (let p = 0; p < primaries; p++) {
    rows.push([
      p === 0 ? NAMES[target] : "",
      p === 0 ? median(runs.map((r) => r.rps)).toFixed(0) : "",
      p === 0 ? median(runs.map((r) => r.primaries.reduce((s, q) => s + q.scripts, 0) / r.calls)).toFixed(2) : "",
      p + 1,
      `${(median(runs.map((r) => r.primaries[p]!.share)) * 100).toFixed(1)} %`,
      median(runs.map((r) => r.primaries[p]!.cpuUsPerScript)).toFixed(1),
      p === 0 ? median(runs.map(capacity)).toFixed(0) : "",
    ]);
  }
}
console.log(`\n${KEYS} annual keys and ${ADDRESSES} demo addresses through ${INSTANCES} instances, ${SECONDS} s a round, ${ROUNDS} rounds (medians)\n`);
console.log(table(rows));
const ratio = median(rounds.cluster.map(capacity)) / median(rounds.single.map(capacity));
const shares = rounds.cluster.flatMap((r) => r.primaries.map((p) => p.share));
console.log(
  `\ncapacity at 3 primaries ÷ at one Redis: ${ratio.toFixed(2)}× (target ≥ 2.5×); shares ${(Math.min(...shares) * 100).toFixed(1)}–${(Math.max(...shares) * 100).toFixed(1)} % (target 26.7–40 %).` +
    "\nThe wall-clock calls/s are bounded by this machine's cores, which the servers, wrk and every redis-server share, not by Redis.",
);
// The primary of `{keys}` driven at the rate one Redis is: with the shares measured, 3 primaries hold the
// calls that take this one to a core, divided by the largest share.
const driven = median(rounds.primary.map(capacity));
const atThree = driven / Math.max(...rounds.cluster.map((r) => Math.max(...r.primaries.map((p) => p.share))));
console.log(
  `\n{keys}'s primary driven alone: ${driven.toFixed(0)} calls/s at one core; 3 primaries at the shares measured: ${atThree.toFixed(0)} calls/s, ` +
    `${(atThree / median(rounds.single.map(capacity))).toFixed(2)}× one Redis (target ≥ 2.5×).`,
);
const aloneSingle = median(alone.map((a) => a.single));
const alonePrimary = median(alone.map((a) => a.primary));
console.log(
  `\nRedis alone (redis-benchmark, a counting script from 20 connections): ${aloneSingle.toFixed(1)} µs a script on one Redis, ` +
    `${alonePrimary.toFixed(1)} on a cluster's primary with its replica (${(alonePrimary / aloneSingle).toFixed(2)}×).`,
);
