/**
 * What the first strokes request costs a server started from this checkout's dist/: `npx tsx
 * test/bench/probes/strokes-memory.ts` starts the Node and the Bun server RUNS times each (PORT=0,
 * memory store), asks a detail, then the strokes of 値 (where the stroke files are read), and prints
 * that request's time and the RSS before and after it. Run it in two checkouts to compare.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer } from "../lib.ts";

const RUNS = Number(process.env.RUNS ?? 5);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? Number.NaN) / 1024;
const servers: [string, string, string[]][] = [
  ["node", "node", ["--import", "tsx", "runtime/entry/server.ts"]],
  ["bun", join(process.cwd(), "node_modules/.bin/bun"), ["runtime/entry/server.ts"]],
];
for (const [name, command, args] of servers) {
  const ms: number[] = [];
  const before: number[] = [];
  const after: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const server = await startServer(command, args, { QUOTA_STORE: "memory", ACCESS_LOG: "0" }, `/hanja/v1/hanja/${encodeURIComponent("水")}`);
    before.push(rssMb(server.proc.pid as number));
    const t0 = performance.now();
    const response = await fetch(`${server.url}/hanja/v1/hanja/${encodeURIComponent("値")}/strokes`);
    await response.arrayBuffer();
    ms.push(performance.now() - t0);
    after.push(rssMb(server.proc.pid as number));
    if (response.status !== 200) throw new Error(`${name}: the strokes of 値 answered ${response.status}`);
    await server.stop();
  }
  console.log(
    `${name}: first strokes request ${median(ms).toFixed(0)} ms (of ${RUNS}: ${ms.map((v) => v.toFixed(0)).join(" ")}); RSS ${median(before).toFixed(0)} → ${median(after).toFixed(0)} MB`,
  );
}
process.exit(0);
