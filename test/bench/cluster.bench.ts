/**
 * The Redis store on one Redis and on a Redis Cluster of 3 primaries (each with a replica), the
 * same load through two server instances (Node, bundled) on each: 1,000 annual keys and 5,000 demo
 * addresses calling `GET /quiz/v1/quiz`, one wrk per instance. From each primary's
 * `INFO commandstats` and CPU time: its share of the metered scripts (target: a third ±20 %), its
 * Redis CPU per metered call, and the capacity the busiest primary allows (calls/s at one core),
 * beside one Redis's (target ≥ 2.5× at 3 primaries). The wall-clock calls/s this machine drives
 * are printed too: servers, wrk and every redis-server share its cores, so they are bounded by
 * them, not by Redis. `npm run bench -- cluster`.
 */
import { bundle } from "../../scripts/bundle.ts";
import { ensureDist } from "../../scripts/ensureDist.ts";
import { type TestRedis, removeAllRedis, startRedis, startRedisCluster } from "../helpers/redisServer.ts";
import { annualKeys, cpuMs, load, median, startServer, table } from "./lib.ts";

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

async function round(target: "single" | "cluster", n: number): Promise<Round> {
  const url = target === "single" ? single.url : cluster.url;
  const env = { QUOTA_STORE: "redis", REDIS_URL: url, REDIS_PREFIX: `bench-${n}:`, ADMIN_TOKEN: ADMIN, TRUST_PROXY_HOPS: "1", ACCESS_LOG: "0" };
  const apps = await Promise.all(
    Array.from({ length: INSTANCES }, () => startServer("node", [server], target === "cluster" ? { ...env, REDIS_CLUSTER: "1" } : env, "/healthz")),
  );
  const keys = await annualKeys(apps[0]!.url, KEYS, ADMIN);
  const headers = [
    ...keys.map((key) => ({ "X-API-Key": key })),
    ...Array.from({ length: ADDRESSES }, (_, i) => ({ "X-Forwarded-For": `10.${80 + n}.${i >> 8}.${i & 255}` })),
  ];
  const paths = headers.map(() => "/quiz/v1/quiz");
  await Promise.all(apps.map((app) => load(app.url, paths, { seconds: 1, headers })));
  const primaries: TestRedis[] = target === "single" ? [single] : cluster.primaries();
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

const rounds: Record<"single" | "cluster", Round[]> = { single: [], cluster: [] };
for (let n = 1; n <= ROUNDS; n++) {
  rounds.single.push(await round("single", n));
  rounds.cluster.push(await round("cluster", n));
  console.error(`round ${n}/${ROUNDS} done`);
}
await removeAllRedis();

/** Calls/s at which the busiest primary would spend one core: calls ÷ its CPU seconds. */
const capacity = (r: Round) => r.calls / (Math.max(...r.primaries.map((p) => p.cpuMs)) / 1000);
const rows: (string | number)[][] = [
  ["", "calls/s (wall clock)", "scripts a call", "primary", "share of scripts", "Redis CPU µs a script", "capacity calls/s"],
];
for (const target of ["single", "cluster"] as const) {
  const runs = rounds[target];
  const primaries = runs[0]!.primaries.length;
  for (let p = 0; p < primaries; p++) {
    rows.push([
      p === 0 ? `${target === "single" ? "one Redis" : "cluster, 3 primaries"}` : "",
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
