/**
 * What one access-log line costs a request on each runtime: `app.handle` for cached interface A
 * answers with the log off and on, in one process (no HTTP, so only the app's own work and the
 * log's), the lines written to stdout as the servers write them (here to /dev/null).
 * `npm run bench -- accesslog` (ROUNDS, N requests a round).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundle } from "../../scripts/bundle.ts";
import { DIST, ensureDist } from "../../scripts/ensureDist.ts";
import { BIN, ROOT, table } from "./lib.ts";

await ensureDist();
const work = mkdtempSync(join(tmpdir(), "hanja-bench-log-"));
const harness = await bundle(join(work, "access-log-cost.mjs"), join(ROOT, "test/bench/probes/access-log-cost.ts"));

const runtimes: [string, string, string[]][] = [
  ["node", "node", [harness]],
  ["bun", join(BIN, "bun"), [harness]],
  ["deno", join(BIN, "deno"), ["run", `--allow-read=${DIST}`, "--allow-env", harness]],
];
const rows: (string | number)[][] = [["runtime", "handle, log off (µs/request)", "handle, log on (µs/request)", "the log's cost (µs/request)"]];
for (const [name, command, args] of runtimes) {
  const run = spawnSync(command, args, { env: { ...process.env, DIST_DIR: DIST }, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  const line = run.stderr.trim().split("\n").pop() ?? "";
  if (run.status !== 0 || !line.startsWith("{")) throw new Error(`${name}: the harness failed (${run.status}): ${run.stderr}`);
  const { off, on } = JSON.parse(line) as { off: number; on: number };
  rows.push([name, off.toFixed(2), on.toFixed(2), (on - off).toFixed(2)]);
  console.error(`${name} done`);
}
rmSync(work, { recursive: true, force: true });
console.log(table(rows));
