/**
 * The compiled binary's size, cold start and first strokes request: `npx tsx
 * test/bench/probes/binary-strokes.ts <binary>… ` starts each binary RUNS times in turn (PORT=0,
 * memory store), timing the first 200 of a detail from the spawn, then the first strokes request
 * (where the stroke data is read) and a second one, and its RSS before and after; prints the medians.
 */
import { readFileSync, statSync } from "node:fs";
import { startServer } from "../lib.ts";

const binaries = process.argv.slice(2);
const RUNS = Number(process.env.RUNS ?? 7);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? Number.NaN) / 1024;
const timed = async (url: string) => {
  const t0 = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  return { ms: performance.now() - t0, status: response.status };
};

const results = new Map(
  binaries.map((b) => [b, { cold: [] as number[], first: [] as number[], second: [] as number[], rss0: [] as number[], rss1: [] as number[], status: 0 }]),
);
for (let run = 0; run < RUNS; run++) {
  for (const binary of binaries) {
    const r = results.get(binary) as NonNullable<ReturnType<typeof results.get>>;
    const server = await startServer(binary, [], { QUOTA_STORE: "memory", ACCESS_LOG: "0" }, `/hanja/v1/hanja/${encodeURIComponent("水")}`);
    r.cold.push(server.coldStartMs);
    r.rss0.push(rssMb(server.proc.pid as number));
    const first = await timed(`${server.url}/hanja/v1/hanja/${encodeURIComponent("値")}/strokes`);
    r.status = first.status;
    r.first.push(first.ms);
    r.second.push((await timed(`${server.url}/hanja/v1/hanja/${encodeURIComponent("水")}/strokes`)).ms);
    r.rss1.push(rssMb(server.proc.pid as number));
    await server.stop();
  }
}
for (const [binary, r] of results) {
  console.log(
    `${binary}: ${(statSync(binary).size / 1e6).toFixed(1)} MB; cold start ${median(r.cold).toFixed(0)} ms (of ${RUNS}: ${r.cold.map((v) => v.toFixed(0)).join(" ")}); ` +
      `RSS ${median(r.rss0).toFixed(0)} MB; first strokes request (値) ${r.status}, ${median(r.first).toFixed(1)} ms; second ${median(r.second).toFixed(1)} ms; RSS after ${median(r.rss1).toFixed(0)} MB`,
  );
}
