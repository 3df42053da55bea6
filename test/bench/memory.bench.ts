/**
 * Node's RSS after load (issue 35, point 6: ≤ 160 MB): the bundled server (memory store, access
 * log off) is loaded with wrk case after case — the character detail, the searches, the words
 * (`/words`: the first call reads and indexes them), the reader (`/read`, 200-character texts,
 * 500 different ones in turn) and the detail again — and its VmRSS read after each. Each case also
 * prints the RSS a fresh server reaches under that case alone, so a case's own cost is not hidden
 * by the order they run in. With `BEFORE=<bundle>` (and `BEFORE_DIST=<its dist/>`) another build is
 * measured in the same rounds, alternating with this one; `BEFORE_NODE_OPTIONS` is its NODE_OPTIONS
 * (`BEFORE=<this build's bundle> BEFORE_NODE_OPTIONS=--max-semi-space-size=16` measures this build
 * with V8's own young generation, which the server otherwise holds at its start-up size).
 *
 * `npm run bench -- memory` (ROUNDS, SECONDS to change the defaults).
 */
import { join } from "node:path";
import { bundle } from "../../scripts/bundle.ts";
import { ensureDist } from "../../scripts/ensureDist.ts";
import { ROOT, load, median, rssMb, startServer, table } from "./lib.ts";
import { phrasePicker, readTargets, readerTexts } from "./readerTexts.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 4);
const TARGET_MB = 160;
const enc = encodeURIComponent;

// 500 different texts of 200 characters made of the reviewed phrases.
const texts = readTargets(readerTexts(phrasePicker(), "memory", 500, 200));

const CASES: [string, string[]][] = [
  ["character detail", ["水", "樂", "人", "學", "𮕩", "國"].map((c) => `/hanja/v1/hanja/${enc(c)}`)],
  ["searches (수, water, idioms 일)", [`/hanja/v1/hanja?q=${enc("수")}`, "/hanja/v1/hanja?q=water", `/hanja/v1/idioms?q=${enc("일")}`]],
  [
    "words (char=水, q=수, q=水道, char=學)",
    [`char=${enc("水")}`, `q=${enc("수")}`, `q=${enc("水道")}`, `char=${enc("學")}`].map((q) => `/hanja/v1/words?${q}`),
  ],
  ["read (200 characters, 500 texts)", texts],
  ["character detail, again", ["水", "樂", "人", "學", "𮕩", "國"].map((c) => `/hanja/v1/hanja/${enc(c)}`)],
];

await ensureDist();
const builds: [string, string, string, Record<string, string>][] = [["this build", await bundle(), join(ROOT, "dist"), {}]];
if (process.env.BEFORE) {
  const options: Record<string, string> = process.env.BEFORE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BEFORE_NODE_OPTIONS } : {};
  builds.unshift(["before", process.env.BEFORE, process.env.BEFORE_DIST ?? join(ROOT, "dist"), options]);
}

/** RSS after start and after each case in turn, then of a fresh server under each case alone. */
const inTurn = new Map<string, number[][]>();
const alone = new Map<string, number[][]>();
const push = (into: Map<string, number[][]>, build: string, at: number, mb: number) => {
  const rows = into.get(build) ?? [];
  (rows[at] ??= []).push(mb);
  into.set(build, rows);
};
const serve = (file: string, dist: string, env: Record<string, string>) =>
  startServer("node", [file], { QUOTA_STORE: "memory", ACCESS_LOG: "0", DIST_DIR: dist, ...env }, CASES[0]?.[1][0] as string);

for (let round = 1; round <= ROUNDS; round++) {
  for (const [name, file, dist, env] of builds) {
    const server = await serve(file, dist, env);
    push(inTurn, name, 0, rssMb(server.proc.pid));
    for (const [i, [label, paths]] of CASES.entries()) {
      const r = await load(server.url, paths, { seconds: SECONDS });
      if (r.non2xx > 0) console.error(`${name}, ${label}: ${r.non2xx} non-2xx answers or timeouts`);
      push(inTurn, name, i + 1, rssMb(server.proc.pid));
    }
    await server.stop();
    for (const [i, [, paths]] of CASES.slice(0, 4).entries()) {
      const fresh = await serve(file, dist, env);
      await load(fresh.url, paths, { seconds: SECONDS });
      push(alone, name, i, rssMb(fresh.proc.pid));
      await fresh.stop();
    }
  }
  console.error(`round ${round}/${ROUNDS} done`);
}

const mb = (values: number[] | undefined) => (values && values.length > 0 ? median(values).toFixed(0) : "");
const names = builds.map(([name]) => name);
console.log(
  `\nNode ${process.version} RSS (MB, VmRSS), wrk 50 connections, ${SECONDS} s a case, median of ${ROUNDS} rounds; target after load ≤ ${TARGET_MB} MB\n`,
);
console.log(
  table([
    ["after", ...names.map((n) => `${n}: cases in turn`), ...names.map((n) => `${n}: that case alone, fresh server`)],
    ["start", ...names.map((n) => mb(inTurn.get(n)?.[0])), ...names.map(() => "")],
    ...CASES.map(([label], i) => [label, ...names.map((n) => mb(inTurn.get(n)?.[i + 1])), ...names.map((n) => mb(alone.get(n)?.[i]))]),
  ]),
);
for (const n of names) {
  const rows = inTurn.get(n) ?? [];
  const highest = Math.max(...rows.slice(1).map((values) => median(values)));
  const verdict = highest <= TARGET_MB ? "met" : "NOT met";
  console.log(`${n}: highest RSS after a case (median) ${highest.toFixed(0)} MB, target ≤ ${TARGET_MB} MB: ${verdict}`);
}
