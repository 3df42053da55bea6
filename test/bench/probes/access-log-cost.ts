// What the access log costs a request, in the app itself (no HTTP): `app.handle` for a character
// detail and a reading search, answered from the app's remembered replies, with the log off and
// on (lines written to stdout, as the servers do), alternating, ROUNDS rounds of N requests each.
// Prints one JSON line of medians (µs a request) on stderr. Bundled and run on each runtime by
// test/bench/accesslog.bench.ts; DIST_DIR names the data.
import { createApp } from "../../../runtime/core/app.ts";
import { createAccessLog } from "../../../runtime/entry/accessLog.ts";
import { loadDistFiles } from "../../../runtime/entry/loadDist.ts";
import { median, timeHandle } from "./handleLoop.ts";

const N = Number(process.env.N ?? 400_000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const dist = loadDistFiles(process.env.DIST_DIR ?? "dist");

const times: Record<"off" | "on", number[]> = { off: [], on: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of ["off", "on"] as const) {
    const log = createAccessLog(mode === "on");
    const app = createApp({ dist, log: mode === "on" ? log.write : undefined });
    times[mode].push(await timeHandle(app, N, "wall"));
    log.flush();
  }
}
console.error(JSON.stringify({ off: median(times.off), on: median(times.on) }));
