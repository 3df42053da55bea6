/**
 * RSS under distinct targets (issue 46, point 1): one client sends distinct targets on every route
 * whose answers are remembered (`test/helpers/distinctTargets.ts`: searches that match nothing,
 * details with a junk parameter, pages of searches and of a character's words) over four
 * connections, to the bundled server on Node, Bun and Deno (memory store, access log off). Each
 * round prints the RSS once a request of each kind has loaded the data (idle), its peak while the
 * targets are sent, and at the end. With `BEFORE=<bundle>` (and `BEFORE_DIST=<its dist/>`) another
 * build is measured in the same rounds, alternating with this one, as it shipped: on Deno without
 * this build's V8 options (`DENO_V8_OPTIONS`).
 *
 * `npm run bench -- distinct` (ROUNDS, TARGETS, SECONDS, RUNTIMES=node,bun,deno to change the defaults).
 */
import { join } from "node:path";
import { DENO_V8_OPTIONS } from "../../scripts/start-deno.ts";
import { bundle } from "../../scripts/bundle.ts";
import { ensureDist } from "../../scripts/ensureDist.ts";
import { DEFAULT_CACHE_MB } from "../../runtime/core/util/cacheBudget.ts";
import { driveDistinct } from "../helpers/distinctTargets.ts";
import { BIN, ROOT, median, rssMb, startServer, table } from "./lib.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const TARGETS = Number(process.env.TARGETS ?? 100_000);
const SECONDS = Number(process.env.SECONDS ?? 40);
const RUNTIMES = (process.env.RUNTIMES ?? "node,bun,deno").split(",");

await ensureDist();
const builds: { name: string; file: string; dist: string; denoOptions: readonly string[] }[] = [
  { name: "this build", file: await bundle(), dist: join(ROOT, "dist"), denoOptions: DENO_V8_OPTIONS },
];
if (process.env.BEFORE) builds.unshift({ name: "before", file: process.env.BEFORE, dist: process.env.BEFORE_DIST ?? join(ROOT, "dist"), denoOptions: [] });

const command = (runtime: string, file: string, denoOptions: readonly string[]): [string, string[]] =>
  runtime === "node"
    ? ["node", [file]]
    : runtime === "bun"
      ? [join(BIN, "bun"), [file]]
      : [join(BIN, "deno"), ["run", ...denoOptions, "--allow-read", "--allow-env", "--allow-net=127.0.0.1", file]];

/** Per runtime and build: idle, peak and end RSS (MB) and targets answered, one entry per round. */
const figures = new Map<string, { idle: number[]; peak: number[]; end: number[]; requests: number[] }>();
for (let round = 1; round <= ROUNDS; round++) {
  for (const runtime of RUNTIMES) {
    for (const { name, file, dist, denoOptions } of builds) {
      const [cmd, args] = command(runtime, file, denoOptions);
      const server = await startServer(cmd, args, { QUOTA_STORE: "memory", ACCESS_LOG: "0", DIST_DIR: dist }, "/healthz");
      const pid = server.proc.pid;
      await driveDistinct(server.url, { seconds: 30, count: 16, connections: 1, from: 1_000_000_000 });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const idle = rssMb(pid);
      let peak = idle;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
      const driven = await driveDistinct(server.url, { seconds: SECONDS, count: TARGETS, connections: 4 });
      clearInterval(sampler);
      const end = rssMb(pid);
      peak = Math.max(peak, end);
      await server.stop();
      if (driven.failures > 0 || (driven.statuses["2xx"] ?? 0) !== driven.requests)
        console.error(`${runtime}, ${name}: ${driven.failures} failures, ${JSON.stringify(driven.statuses)}`);
      const key = `${runtime}\u0000${name}`;
      const row = figures.get(key) ?? { idle: [], peak: [], end: [], requests: [] };
      row.idle.push(idle);
      row.peak.push(peak);
      row.end.push(end);
      row.requests.push(driven.requests);
      figures.set(key, row);
      console.error(
        `round ${round}, ${runtime}, ${name}: idle ${idle.toFixed(0)}, peak ${peak.toFixed(0)}, end ${end.toFixed(0)} MB, ${driven.requests} targets in ${(driven.ms / 1000).toFixed(1)} s`,
      );
    }
  }
}

const mb = (values: number[]) => median(values).toFixed(0);
console.log(
  `\nRSS (MB, VmRSS) under ${TARGETS} distinct targets (at most ${SECONDS} s), 4 connections, median of ${ROUNDS} rounds; bound: Node 250 MB, Bun 400 MB, Deno 1.5 × idle + ${DEFAULT_CACHE_MB} MB (CACHE_MB)\n`,
);
const rows: string[][] = [["runtime", "build", "idle", "peak", "end", "targets answered", "bound", "peak within it"]];
for (const runtime of RUNTIMES) {
  for (const { name } of builds) {
    const row = figures.get(`${runtime}\u0000${name}`);
    if (!row) continue;
    const bound = runtime === "node" ? 250 : runtime === "bun" ? 400 : 1.5 * median(row.idle) + DEFAULT_CACHE_MB;
    rows.push([runtime, name, mb(row.idle), mb(row.peak), mb(row.end), mb(row.requests), bound.toFixed(0), median(row.peak) <= bound ? "yes" : "NO"]);
  }
}
console.log(table(rows));
