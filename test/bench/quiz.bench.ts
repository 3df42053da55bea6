/**
 * Interface B on Node (issue 5): `GET /quiz` with annual keys on the SQLite, memory and Redis
 * stores, beside a plain node:http server measured in the same run. Targets: SQLite ≥ 40 % of the
 * baseline's requests/second, p99 < 10 ms at 50 connections; Redis ≥ 80 % of SQLite (issue 25).
 * Redis is a private redis-server (AOF on, fsync every second, as the README recommends) on the
 * same machine; its own CPU per request is printed too. `npm run bench -- quiz`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundle } from "../../scripts/bundle.ts";
import { ensureDist } from "../../scripts/ensureDist.ts";
import { startRedis } from "../helpers/redisServer.ts";
import { LOAD_TOOL, ROOT, Results, annualKeys, cpuMs, load, median, startServer, table } from "./lib.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SECONDS = Number(process.env.SECONDS ?? 4);
const ADMIN = "bench-admin-token-0123456789";
// Enough annual keys (10,000 calls a day each) that no request of the run is refused.
const KEYS = 40;

await ensureDist();
const server = await bundle();
const runs = new Results();
const redis = await startRedis(["--appendonly", "yes", "--appendfsync", "everysec"]);
const STORES = ["sqlite", "memory", "redis"] as const;
// redis-server's own CPU per answered request: it runs on the same two cores as the server and wrk.
const redisCpuUs: number[] = [];

for (let round = 1; round <= ROUNDS; round++) {
  const baseline = await startServer("node", [join(ROOT, "test/bench/baselines/hello.node.mjs")], {}, "/");
  await load(baseline.url, ["/"], { seconds: 1 });
  runs.add("baseline (node:http)", await load(baseline.url, ["/"], { seconds: SECONDS, server: baseline.proc }));
  await baseline.stop();
  for (const store of STORES) {
    const dir = mkdtempSync(join(tmpdir(), "hanja-bench-"));
    const storeEnv: Record<string, string> =
      store === "redis" ? { REDIS_URL: redis.url, REDIS_PREFIX: `bench-${round}:` } : { QUOTA_DB: join(dir, "quota.sqlite") };
    const app = await startServer("node", [server], { QUOTA_STORE: store, ...storeEnv, ADMIN_TOKEN: ADMIN, TRUST_PROXY_HOPS: "1" }, "/healthz");
    const keys = await annualKeys(app.url, KEYS, ADMIN);
    const headers = keys.map((key) => ({ "X-API-Key": key }));
    const paths = keys.map(() => "/quiz/v1/quiz");
    await load(app.url, paths, { seconds: 1, headers });
    const redisCpuBefore = cpuMs(redis.pid);
    const r = await load(app.url, paths, { seconds: SECONDS, headers, server: app.proc });
    if (store === "redis") redisCpuUs.push(((cpuMs(redis.pid) - redisCpuBefore) * 1000) / r.requests);
    if (r.non2xx > 0) throw new Error(`quiz on ${store}: ${r.non2xx} non-2xx responses (keys used up?)`);
    runs.add(`GET /quiz with a key, ${store} store`, r);
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  console.error(`round ${round}/${ROUNDS} done`);
}
await redis.remove();

const baseRuns = runs.get("baseline (node:http)").rps;
const base = median(baseRuns);
const baseCpu = median(runs.get("baseline (node:http)").cpuUs);
// Each round measures the baseline and then the service: the ratio within a round is the least
// disturbed by the machine's load drifting between rounds.
const rows: (string | number)[][] = [
  ["case", "req/s (median)", "× baseline", "× baseline, per round (median)", "p50 ms", "p99 ms", "CPU µs/request", "× baseline by CPU"],
];
for (const [name, r] of runs.entries()) {
  const perRound = median(r.rps.map((rps, i) => rps / (baseRuns[i] ?? Number.NaN)));
  const cpu = median(r.cpuUs);
  rows.push([
    name,
    Math.round(median(r.rps)),
    `${((median(r.rps) / base) * 100).toFixed(0)} %`,
    `${(perRound * 100).toFixed(0)} %`,
    median(r.p50),
    median(r.p99),
    cpu.toFixed(1),
    `${((baseCpu / cpu) * 100).toFixed(0)} %`,
  ]);
}
console.log(`\nInterface B on Node ${process.version}, ${LOAD_TOOL}, 50 connections, ${SECONDS} s per case, median of ${ROUNDS} rounds\n`);
console.log(table(rows));
const redisRuns = runs.get("GET /quiz with a key, redis store").rps;
const sqliteRuns = runs.get("GET /quiz with a key, sqlite store").rps;
console.log(
  `\nRedis ÷ SQLite: ${((median(redisRuns) / median(sqliteRuns)) * 100).toFixed(0)} % by median req/s, ` +
    `${(median(redisRuns.map((rps, i) => rps / (sqliteRuns[i] ?? Number.NaN))) * 100).toFixed(0)} % per round (median) (target ≥ 80 %).`,
);
const redisCpu = median(redisCpuUs);
const sqliteCpu = median(runs.get("GET /quiz with a key, sqlite store").cpuUs);
const serverOnRedisCpu = median(runs.get("GET /quiz with a key, redis store").cpuUs);
console.log(
  `redis-server CPU: ${redisCpu.toFixed(1)} µs a request (median), on the same two cores as the server and wrk; ` +
    `the server's CPU a request on Redis ÷ on SQLite: ${((serverOnRedisCpu / sqliteCpu) * 100).toFixed(0)} %.`,
);
console.log(`\nBaseline per round: ${baseRuns.map((rps) => Math.round(rps)).join(", ")} req/s (a low or uneven baseline means a busy machine).`);
console.log(
  "× baseline by CPU: the baseline's CPU time per request over the case's (server process, user + system).\n" +
    "With one core each for server and load generator it is what the requests/second ratio would be if\n" +
    "nothing else took the server's core; it moves far less than requests/second on a shared machine.",
);
