/**
 * What the metrics (`METRICS_TOKEN`) cost a request on each runtime, two ways, as the access log's
 * benchmark measures the log. In process: `app.handle` for remembered interface A answers with
 * metrics off and on (no HTTP: only the app's own work). Under load: two servers of the bundle,
 * metrics off and on, loaded in turn (the order swapped every round) with a character detail; the
 * CPU each request took, medians of the rounds. Both with the access log off (the metrics then
 * time each request themselves) and on (the default: they share its clock readings).
 * `npm run bench -- metrics` (ROUNDS, N requests a round in process, SECONDS a load, LOGS=0,1).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundle } from "../../scripts/bundle.ts";
import { DIST, ensureDist } from "../../scripts/ensureDist.ts";
import { LOAD_TOOL, ROOT, load, median, runtimeCommands, startServer, table } from "./lib.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const SECONDS = Number(process.env.SECONDS ?? 4);
const LOGS = (process.env.LOGS ?? "0,1").split(",");
const DETAIL = `/hanja/v1/hanja/${encodeURIComponent("水")}`;
const TOKEN = "bench-metrics-token-0123456789";

await ensureDist();
const work = mkdtempSync(join(tmpdir(), "hanja-bench-metrics-"));
const harness = await bundle(join(work, "metrics-cost.mjs"), join(ROOT, "test/bench/probes/metrics-cost.ts"));
const runtimes = runtimeCommands(DIST);
const percent = (off: number, on: number) => `${(((on - off) / off) * 100).toFixed(1)} %`;

const inProcess: (string | number)[][] = [["runtime", "access log", "metrics off (CPU µs/request)", "metrics on (CPU µs/request)", "the metrics' cost"]];
for (const log of LOGS) {
  for (const [name, command, flags] of runtimes) {
    const run = spawnSync(command, [...flags, harness], {
      env: { ...process.env, DIST_DIR: DIST, LOG: log },
      stdio: ["ignore", "ignore", "pipe"],
      encoding: "utf8",
    });
    const line = run.stderr.trim().split("\n").pop() ?? "";
    if (run.status !== 0 || !line.startsWith("{")) throw new Error(`${name}: the harness failed (${run.status}): ${run.stderr}`);
    const { off, on } = JSON.parse(line) as { off: number; on: number };
    inProcess.push([name, log === "1" ? "on" : "off", off.toFixed(2), on.toFixed(2), `${(on - off).toFixed(2)} µs`]);
    console.error(`${name}, log ${log}, in process done`);
  }
}
console.log("In process, medians of the rounds:\n");
console.log(table(inProcess));

const server = await bundle();
const loaded: (string | number)[][] = [["runtime", "access log", "detail, metrics off (CPU µs/request)", "metrics on", "on / off", "per round, on / off"]];
for (const log of LOGS) {
  for (const [name, command, flags] of runtimes) {
    const env = { DIST_DIR: DIST, QUOTA_STORE: "memory", ACCESS_LOG: log };
    const servers = {
      off: await startServer(command, [...flags, server], env, DETAIL),
      on: await startServer(command, [...flags, server], { ...env, METRICS_TOKEN: TOKEN }, DETAIL),
    };
    const cpu: Record<"off" | "on", number[]> = { off: [], on: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of round % 2 ? (["on", "off"] as const) : (["off", "on"] as const)) {
        const { url, proc } = servers[mode];
        await load(url, [DETAIL], { seconds: 1 });
        cpu[mode].push((await load(url, [DETAIL], { seconds: SECONDS, server: proc })).cpuUs ?? Number.NaN);
      }
    }
    const scrape = await fetch(`${servers.on.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    if (scrape.status !== 200 || !(await scrape.text()).includes('route="/hanja/v1/hanja/{character}"'))
      throw new Error(`${name}: /metrics did not count the load`);
    await Promise.all([servers.off.stop(), servers.on.stop()]);
    const [off, on] = [median(cpu.off), median(cpu.on)];
    const rounds = cpu.on.map((v, i) => (v / (cpu.off[i] ?? Number.NaN)).toFixed(3)).join(" ");
    loaded.push([name, log === "1" ? "on" : "off", off.toFixed(2), on.toFixed(2), percent(off, on), rounds]);
    console.error(`${name}, log ${log}, under load done`);
  }
}
rmSync(work, { recursive: true, force: true });
console.log(`\nUnder load (the bundle, ${LOAD_TOOL}, 50 connections, ${SECONDS} s a load, median of ${ROUNDS} rounds):\n`);
console.log(table(loaded));
