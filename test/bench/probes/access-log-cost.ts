// What the access log costs a request, in the app itself (no HTTP): `app.handle` for a character
// detail and a reading search, answered from the app's remembered replies, with the log off and
// on (lines written to stdout, as the servers do), alternating, ROUNDS rounds of N requests each.
// Prints one JSON line of medians (µs a request) on stderr. Bundled and run on each runtime by
// test/bench/accesslog.bench.ts; DIST_DIR names the data.
import { createApp } from "../../../runtime/core/app.ts";
import { createAccessLog } from "../../../runtime/entry/accessLog.ts";
import { loadDistFiles } from "../../../runtime/entry/loadDist.ts";

const N = Number(process.env.N ?? 400_000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const dist = loadDistFiles(process.env.DIST_DIR ?? "dist");
const headers = new Headers({ host: "127.0.0.1:8080", "accept-encoding": "gzip, br" });
const requests = [`/hanja/v1/hanja/${encodeURIComponent("水")}`, `/hanja/v1/hanja?q=${encodeURIComponent("수")}`].map((target) => ({
  method: "GET",
  url: `http://127.0.0.1:8080${target}`,
  headers,
}));

const times: Record<"off" | "on", number[]> = { off: [], on: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of ["off", "on"] as const) {
    const log = createAccessLog(mode === "on");
    const app = createApp({ dist, log: mode === "on" ? log.write : undefined });
    // The first answers build and remember the replies (compression included); then warm up.
    for (const request of requests) await app.handle(request);
    for (let i = 0; i < N / 4; i++) app.handle(requests[i & 1]!);
    const started = performance.now();
    for (let i = 0; i < N; i++) app.handle(requests[i & 1]!);
    times[mode].push(((performance.now() - started) * 1000) / N);
    log.flush();
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
console.error(JSON.stringify({ off: median(times.off), on: median(times.on) }));
