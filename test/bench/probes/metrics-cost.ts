// What the metrics cost a request, in the app itself (no HTTP): `app.handle` for a character detail
// and a reading search, answered from the app's remembered replies, with metrics off and on
// (`metricsToken`), the access log as LOG says (0 by default: the metrics then measure the time
// themselves), alternating, ROUNDS rounds of N requests each. Prints one JSON line of medians
// (CPU µs a request) on stderr. Bundled and run on each runtime by test/bench/metrics.bench.ts.
import { createApp } from "../../../runtime/core/app.ts";
import { createAccessLog } from "../../../runtime/entry/accessLog.ts";
import { loadDistFiles } from "../../../runtime/entry/loadDist.ts";
import { median, timeHandle } from "./handleLoop.ts";

const N = Number(process.env.N ?? 400_000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const LOG = process.env.LOG === "1";
const dist = loadDistFiles(process.env.DIST_DIR ?? "dist");

const times: Record<"off" | "on", number[]> = { off: [], on: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of round % 2 ? (["on", "off"] as const) : (["off", "on"] as const)) {
    const log = createAccessLog(LOG);
    const app = createApp({ dist, log: LOG ? log.write : undefined, metricsToken: mode === "on" ? "bench-metrics-token-0123456789" : undefined });
    times[mode].push(await timeHandle(app, N, "cpu"));
    log.flush();
    await app.close();
  }
}
console.error(JSON.stringify({ off: median(times.off), on: median(times.on) }));
