/**
 * Interface A on Node (issue 4): requests/second and p50/p99 at 50 connections for a character
 * detail, a reading search, an English search and an idiom search, beside plain node:http
 * servers measured in the same run — one answering a 17-byte body, and one per case answering
 * the exact bytes of that case's response (so payload size, which costs node:http itself as
 * much as it costs us, is separated from the service's own overhead), both as node:http servers
 * usually write (in the request event) and as the service's listener writes (a turn's answers
 * together, after its reads: `PER_TURN=1`), the ceiling of the service's own way; cold start to
 * the first response; RSS after load.
 * Targets: detail ≥ 60 % of baseline, searches ≥ 30 %, p99 < 10 ms, cold start ≤ 2× baseline's,
 * RSS < 200 MB. `npm run bench -- hanja` (ROUNDS, SECONDS to change the defaults).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundle } from "../../scripts/bundle.ts";
import { ensureDist } from "../../scripts/ensureDist.ts";
import { LOAD_TOOL, ROOT, load, median, rssMb, startServer, table } from "./lib.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SECONDS = Number(process.env.SECONDS ?? 4);
const enc = encodeURIComponent;
const CASES: [string, string[]][] = [
  ["character detail", ["水", "樂", "人", "學", "𮕩", "國"].map((c) => `/hanja/v1/hanja/${enc(c)}`)],
  ["reading search (q=수)", [`/hanja/v1/hanja?q=${enc("수")}`]],
  ["English search (q=water)", ["/hanja/v1/hanja?q=water"]],
  ["idiom search (q=일)", [`/hanja/v1/idioms?q=${enc("일")}`]],
];

await ensureDist();
const server = await bundle();
const work = mkdtempSync(join(tmpdir(), "hanja-bench-a-"));
const HELLO = join(ROOT, "test/bench/baselines/hello.node.mjs");
type Series = { rps: number[]; p50: number[]; p99: number[] };
const app = new Map<string, Series>();
const sameSize = new Map<string, number[]>();
const sameSizePerTurn = new Map<string, number[]>();
const hello: Series = { rps: [], p50: [], p99: [] };
const push = (series: Series, r: { rps: number; p50: number; p99: number }) => {
  series.rps.push(r.rps);
  series.p50.push(r.p50);
  series.p99.push(r.p99);
};
const cold = { baseline: [] as number[], server: [] as number[] };
const rss: number[] = [];

for (let round = 1; round <= ROUNDS; round++) {
  const baseline = await startServer("node", [HELLO], {}, "/");
  cold.baseline.push(baseline.coldStartMs);
  await load(baseline.url, ["/"], { seconds: 1 });
  push(hello, await load(baseline.url, ["/"], { seconds: SECONDS }));
  await baseline.stop();

  const started = await startServer("node", [server], { QUOTA_STORE: "memory" }, CASES[0]?.[1][0] ?? "/");
  cold.server.push(started.coldStartMs);
  // The same-size baseline of a case answers the bytes of its first response.
  const bodies = new Map<string, string>();
  for (const [name, paths] of CASES) {
    const file = join(work, `${bodies.size}.json`);
    writeFileSync(file, Buffer.from(await (await fetch(started.url + paths[0], { headers: { connection: "close" } })).arrayBuffer()));
    bodies.set(name, file);
  }
  for (const [name, paths] of CASES) {
    await load(started.url, paths, { seconds: 1 });
    const r = await load(started.url, paths, { seconds: SECONDS });
    if (r.non2xx > 0) throw new Error(`${name}: ${r.non2xx} non-2xx responses`);
    const series = app.get(name) ?? { rps: [], p50: [], p99: [] };
    push(series, r);
    app.set(name, series);
  }
  rss.push(rssMb(started.proc.pid));
  await started.stop();

  for (const [name, file] of bodies) {
    for (const [perTurn, into] of [
      ["0", sameSize],
      ["1", sameSizePerTurn],
    ] as const) {
      const fixed = await startServer("node", [HELLO], { BODY_FILE: file, PER_TURN: perTurn }, "/");
      await load(fixed.url, ["/"], { seconds: 1 });
      into.set(name, [...(into.get(name) ?? []), (await load(fixed.url, ["/"], { seconds: SECONDS })).rps]);
      await fixed.stop();
    }
  }
  console.error(`round ${round}/${ROUNDS} done`);
}
rmSync(work, { recursive: true, force: true });

const base = median(hello.rps);
const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(0)} %`;
const rows: (string | number)[][] = [
  ["case", "req/s", "vs hello", "same-size node:http req/s", "vs same size", "same size, per turn req/s", "vs that", "p50 ms", "p99 ms"],
];
rows.push(["baseline: node:http, 17-byte body", Math.round(base), "100 %", "", "", "", "", median(hello.p50), median(hello.p99)]);
for (const [name, r] of app) {
  const same = median(sameSize.get(name) ?? []);
  const perTurn = median(sameSizePerTurn.get(name) ?? []);
  const rps = median(r.rps);
  rows.push([name, Math.round(rps), pct(rps, base), Math.round(same), pct(rps, same), Math.round(perTurn), pct(rps, perTurn), median(r.p50), median(r.p99)]);
}
console.log(`\nInterface A on Node ${process.version}, ${LOAD_TOOL}, 50 connections, ${SECONDS} s per case, median of ${ROUNDS} rounds`);
console.log(
  "(same-size: a plain node:http server answering the exact bytes of that case's response, in its request event; per turn: the same, writing a turn's answers together after its reads, as the service does)\n",
);
console.log(table(rows));
console.log(
  `\ncold start to first 200: baseline ${median(cold.baseline).toFixed(0)} ms, server ${median(cold.server).toFixed(0)} ms (${(median(cold.server) / median(cold.baseline)).toFixed(2)}× baseline)`,
);
console.log(`server RSS after load: ${median(rss).toFixed(0)} MB`);
