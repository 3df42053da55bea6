// A slow spell of Redis (`DEBUG SLEEP`) under a Node, a Bun and a Deno server sharing it, with
// applicants, keyed calls and demo calls in flight (issue 33, point 4): what the calls answered
// 503 left counted and stored. Prints the figures of each run as a JSON line, then their spans.
//   RUNS=3 SLEEP=3 npx tsx test/bench/probes/slow-redis.ts
// Needs dist/ built and a redis-server on PATH (or REDIS_SERVER).
import { bunSource, denoSource, nodeSource } from "../../conformance/servers.ts";
import { removeAllRedis, startRedis } from "../../helpers/redisServer.ts";
import { stopAllServers } from "../../helpers/server.ts";
import { type SlowSpellFigures, slowSpell, slowSpellEnv } from "../../store/slowRedis.ts";

const RUNS = Number(process.env["RUNS"] ?? 3);
const SLEEP = Number(process.env["SLEEP"] ?? 3);
const ADMIN_TOKEN = "slow-redis-probe-admin-token";

const runs: SlowSpellFigures[] = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const redis = await startRedis(["--enable-debug-command", "local"]);
    const env = slowSpellEnv(redis.url, ADMIN_TOKEN);
    const servers = await Promise.all([nodeSource(env), bunSource(env), denoSource(env)]);
    const figures = await slowSpell(
      servers.map((s) => s.url),
      redis.url,
      ADMIN_TOKEN,
      SLEEP,
    );
    console.log(JSON.stringify(figures));
    runs.push(figures);
    await Promise.all(servers.map((s) => s.stop()));
    await redis.remove();
  }
} finally {
  await stopAllServers();
  await removeAllRedis();
}

const span = (values: number[]) => (Math.min(...values) === Math.max(...values) ? String(values[0]) : `${Math.min(...values)}–${Math.max(...values)}`);
console.log(`\n${runs.length} runs, DEBUG SLEEP ${SLEEP}, Node + Bun + Deno on one Redis:`);
console.log(
  `  demo address: used after ${span(runs.map((r) => r.demo.usedAfter))}, served ${span(runs.map((r) => r.demo.served))} of ${span(runs.map((r) => r.demo.calls))} calls made during the spell; then served ${span(runs.map((r) => r.demo.servedAfterOf31))} of 31`,
);
console.log(
  `  keys: used − served ${span(runs.flatMap((r) => r.keys.map((k) => k.usedAfter - k.served)))} (per key; ${span(runs.flatMap((r) => r.keys.map((k) => k.unavailable)))} calls answered 503 per key)`,
);
console.log(
  `  applicants answered 503: ${span(runs.map((r) => r.applicants.unavailable))} of ${span(runs.map((r) => r.applicants.total))}; refused with 409 when they applied again: ${span(runs.map((r) => r.applicants.againRefused409))} (other: ${span(runs.map((r) => r.applicants.againOther))})`,
);
console.log(`  slowest 503: ${span(runs.map((r) => r.slowest503Ms))} ms; unexpected statuses: ${span(runs.map((r) => r.unexpected.length))}`);
