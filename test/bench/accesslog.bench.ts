/**
 * What one access-log line costs a request on each runtime, two ways. In process: `app.handle` for
 * cached interface A answers with the log off and on (no HTTP, so only the app's own work and the
 * log's), the lines written to stdout as the servers write them (here to /dev/null). Under load:
 * two servers of the bundle, log off and on, loaded in turn with a character detail; the CPU each
 * request took. The second shows what the first cannot: the log's strings and bytes living among
 * a real server's garbage. `npm run bench -- accesslog` (ROUNDS, N requests a round, SECONDS a load).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundle } from "../../scripts/bundle.ts";
import { DIST, ensureDist } from "../../scripts/ensureDist.ts";
import { LOAD_TOOL, ROOT, load, median, runtimeCommands, startServer, table } from "./lib.ts";

await ensureDist();
const work = mkdtempSync(join(tmpdir(), "hanja-bench-log-"));
const harness = await bundle(join(work, "access-log-cost.mjs"), join(ROOT, "test/bench/probes/access-log-cost.ts"));

// Each runtime's command and the arguments before the program (the harness or the server).
const runtimes = runtimeCommands(DIST);
const rows: (string | number)[][] = [["runtime", "handle, log off (µs/request)", "handle, log on (µs/request)", "the log's cost (µs/request)"]];
for (const [name, command, flags] of runtimes) {
  const run = spawnSync(command, [...flags, harness], { env: { ...process.env, DIST_DIR: DIST }, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  const line = run.stderr.trim().split("\n").pop() ?? "";
  if (run.status !== 0 || !line.startsWith("{")) throw new Error(`${name}: the harness failed (${run.status}): ${run.stderr}`);
  const { off, on } = JSON.parse(line) as { off: number; on: number };
  rows.push([name, off.toFixed(2), on.toFixed(2), (on - off).toFixed(2)]);
  console.error(`${name} done`);
}
console.log("In process, medians of the rounds:\n");
console.log(table(rows));

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SECONDS = Number(process.env.SECONDS ?? 4);
const DETAIL = `/hanja/v1/hanja/${encodeURIComponent("水")}`;
const server = await bundle();
const loaded: (string | number)[][] = [["runtime", "detail, log off (CPU µs/request)", "detail, log on (CPU µs/request)", "the log's cost (CPU µs/request)"]];
for (const [name, command, flags] of runtimes) {
  const serverArgs = [...flags, server];
  const servers = {
    off: await startServer(command, serverArgs, { DIST_DIR: DIST, QUOTA_STORE: "memory", ACCESS_LOG: "0" }, DETAIL),
    on: await startServer(command, serverArgs, { DIST_DIR: DIST, QUOTA_STORE: "memory", ACCESS_LOG: "1" }, DETAIL),
  };
  const cpu: Record<"off" | "on", number[]> = { off: [], on: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of ["off", "on"] as const) {
      const { url, proc } = servers[mode];
      await load(url, [DETAIL], { seconds: 1 });
      cpu[mode].push((await load(url, [DETAIL], { seconds: SECONDS, server: proc })).cpuUs ?? Number.NaN);
    }
  }
  await Promise.all([servers.off.stop(), servers.on.stop()]);
  loaded.push([name, median(cpu.off).toFixed(2), median(cpu.on).toFixed(2), (median(cpu.on) - median(cpu.off)).toFixed(2)]);
  console.error(`${name} under load done`);
}
rmSync(work, { recursive: true, force: true });
console.log(`\nUnder load (the bundle, ${LOAD_TOOL}, 50 connections, ${SECONDS} s a load, median of ${ROUNDS} rounds):\n`);
console.log(table(loaded));
