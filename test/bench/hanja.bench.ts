/**
 * Interface A on Node (issue 4): requests/second and p50/p99 at 50 connections for a character
 * detail, a reading search, an English search and an idiom search, beside a plain node:http
 * server measured in the same run; cold start to the first response; RSS after load.
 * Targets: detail ≥ 60 % of baseline, searches ≥ 30 %, p99 < 10 ms, cold start ≤ 2× baseline's,
 * RSS < 200 MB. `npm run bench -- hanja` (ROUNDS, SECONDS to change the defaults).
 */
import { join } from "node:path";
import { bundle } from "../../scripts/bundle.ts";
import { ensureDist } from "../../scripts/ensureDist.ts";
import { LOAD_TOOL, ROOT, load, median, rssMb, startServer, table } from "./lib.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 5);
const enc = encodeURIComponent;
const CASES: [string, string[]][] = [
  ["character detail", ["水", "樂", "人", "學", "𮕩", "國"].map((c) => `/hanja/v1/hanja/${enc(c)}`)],
  ["reading search (q=수)", [`/hanja/v1/hanja?q=${enc("수")}`]],
  ["English search (q=water)", ["/hanja/v1/hanja?q=water"]],
  ["idiom search (q=일)", [`/hanja/v1/idioms?q=${enc("일")}`]],
];

await ensureDist();
const server = await bundle();
const results = new Map<string, { rps: number[]; p50: number[]; p99: number[] }>();
const add = (name: string, r: { rps: number; p50: number; p99: number }) => {
  const entry = results.get(name) ?? { rps: [], p50: [], p99: [] };
  entry.rps.push(r.rps);
  entry.p50.push(r.p50);
  entry.p99.push(r.p99);
  results.set(name, entry);
};
const cold = { baseline: [] as number[], server: [] as number[] };
const rss: number[] = [];

for (let round = 1; round <= ROUNDS; round++) {
  const baseline = await startServer("node", [join(ROOT, "test/bench/baselines/hello.node.mjs")], {}, "/");
  cold.baseline.push(baseline.coldStartMs);
  await load(baseline.url, ["/"], { seconds: 1 });
  add("baseline (node:http)", await load(baseline.url, ["/"], { seconds: SECONDS }));
  await baseline.stop();

  const app = await startServer("node", [server], { QUOTA_STORE: "memory" }, CASES[0]?.[1][0] ?? "/");
  cold.server.push(app.coldStartMs);
  for (const [name, paths] of CASES) {
    await load(app.url, paths, { seconds: 1 });
    const r = await load(app.url, paths, { seconds: SECONDS });
    if (r.non2xx > 0) throw new Error(`${name}: ${r.non2xx} non-2xx responses`);
    add(name, r);
  }
  rss.push(rssMb(app.proc.pid));
  await app.stop();
  console.error(`round ${round}/${ROUNDS} done`);
}

const base = median(results.get("baseline (node:http)")?.rps ?? []);
const rows: (string | number)[][] = [["case", "req/s (median)", "× baseline", "p50 ms", "p99 ms"]];
for (const [name, r] of results) rows.push([name, Math.round(median(r.rps)), `${((median(r.rps) / base) * 100).toFixed(0)} %`, median(r.p50), median(r.p99)]);
console.log(`\nInterface A on Node ${process.version}, ${LOAD_TOOL}, 50 connections, ${SECONDS} s per case, median of ${ROUNDS} rounds\n`);
console.log(table(rows));
console.log(`\ncold start to first 200: baseline ${median(cold.baseline).toFixed(0)} ms, server ${median(cold.server).toFixed(0)} ms (${(median(cold.server) / median(cold.baseline)).toFixed(2)}× baseline)`);
console.log(`server RSS after load: ${median(rss).toFixed(0)} MB`);
