// Pipelining clients that never read, against the server on each runtime: CONNECTIONS connections
// each send PIPELINED GETs of large answers (the OpenAPI document, 50-row searches, 20-question
// quizzes) in one go and read nothing back. Prints, per runtime, the server's peak RSS, whether it
// lived, and how long another client waited for /healthz while the flood held on (a probe every
// 500 ms on a fresh connection, 10 s timeout).
//   npx tsx test/bench/probes/pipelining.ts            # node, bun, deno; 400 × 2,000
//   SOURCE_ROOT=/tmp/before npx tsx test/bench/probes/pipelining.ts   # an older checkout
//   RUNTIMES=node CONNECTIONS=800 PIPELINED=3000 HOLD_SECONDS=30 npx tsx test/bench/probes/pipelining.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { environment, sourceCommand } from "../../conformance/servers.ts";
import { flood, probeLatency, rssOf } from "../../helpers/pipelining.ts";
import { spawnServer } from "../../helpers/server.ts";
import { median } from "../lib.ts";

/** Another checkout to serve from (a worktree of an older commit, for the "before" figures, with a dist/). */
const SOURCE_ROOT = process.env.SOURCE_ROOT;
const RUNTIMES = (process.env.RUNTIMES ?? "node,bun,deno").split(",") as ("node" | "bun" | "deno")[];
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 400);
const PIPELINED = Number(process.env.PIPELINED ?? 2_000);
const HOLD_SECONDS = Number(process.env.HOLD_SECONDS ?? 20);
/** node:http accepts one connection a turn of its event loop: a probe in the first moments waits behind the flood's connections. */
const SETTLE_MS = 3_000;

for (const runtime of RUNTIMES) {
  const dir = mkdtempSync(join(tmpdir(), "hanja-pipelining-"));
  const env = environment({ QUOTA_DB: join(dir, "quota.sqlite") });
  const server = await spawnServer({ ...sourceCommand(runtime, env), env, cwd: SOURCE_ROOT });
  const port = Number(new URL(server.url).port);
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(server.pid))), 100);
  // Probes while the flood's connections are still being accepted, and after.
  const early: number[] = [];
  const probes: number[] = [];
  const started = Date.now();
  const held = flood(port, CONNECTIONS, PIPELINED);
  while (Date.now() - started < HOLD_SECONDS * 1000) {
    const latency = await probeLatency(server.url, 10_000);
    (Date.now() - started < SETTLE_MS ? early : probes).push(latency);
    if (process.env.VERBOSE)
      console.error(`${((Date.now() - started) / 1000).toFixed(1)} s: probe ${Math.round(latency)} ms, RSS ${Math.round(rssOf(server.pid) / 1024)} MB`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  held.release();
  clearInterval(sampler);
  const alive = server.pid !== undefined && rssOf(server.pid) > 0;
  const exitCode = await server.stop();
  rmSync(dir, { recursive: true, force: true });
  const ms = (n: number) => (Number.isFinite(n) ? `${Math.round(n)} ms` : "timeout");
  console.log(
    `${runtime}: ${CONNECTIONS} × ${PIPELINED} pipelined, ${HOLD_SECONDS} s: peak RSS ${Math.round(peak / 1024)} MB, ` +
      `probe in the first ${SETTLE_MS / 1000} s max ${ms(Math.max(...early))}, after: median ${ms(median(probes))}, max ${ms(Math.max(...probes))} (${probes.length} probes), ` +
      `${alive ? "alive" : "DIED"} (exit ${exitCode})${alive ? "" : `\n${server.stderr().slice(-600)}`}`,
  );
}
