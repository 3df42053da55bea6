// Preloaded into a Node server (`node --import test/bench/probes/heapSampler.mjs <bundle>`, or in
// NODE_OPTIONS) to see its heap from outside: on SIGUSR2 it prints one `SAMPLE {…}` line on stderr
// (process.memoryUsage() and each V8 space as size/used, MB); on SIGPWR one `GC {…}` line with the
// collections so far by kind, [count, ms of pause]. GROW=<percent> sets V8's --heap-growing-percent
// at start (Node refuses that flag in NODE_OPTIONS), to measure a factor on a bundle that does not set one.
import { PerformanceObserver, constants } from "node:perf_hooks";
import v8 from "node:v8";

if (process.env.GROW) v8.setFlagsFromString(`--heap-growing-percent=${process.env.GROW}`);
const mb = (bytes) => Math.round(bytes / 1e5) / 10;
process.on("SIGUSR2", () => {
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, `${mb(s.space_size)}/${mb(s.space_used_size)}`]));
  const memory = Object.fromEntries(Object.entries(process.memoryUsage()).map(([k, v]) => [k, mb(v)]));
  console.error(`SAMPLE ${JSON.stringify({ ...memory, ...spaces })}`);
});
const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weak",
};
const collections = { minor: [0, 0], major: [0, 0], incremental: [0, 0], weak: [0, 0] };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = collections[KINDS[entry.detail?.kind]];
    if (!kind) continue;
    kind[0]++;
    kind[1] += entry.duration;
  }
}).observe({ entryTypes: ["gc"] });
process.on("SIGPWR", () => console.error(`GC ${JSON.stringify(collections)}`));
