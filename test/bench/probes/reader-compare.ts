// Two builds of the reader compared in one session (issue 36's speed): in process, µs of CPU per
// 200-character text and MB/s of the reader benchmark's texts of at most 1,000 characters, each
// tree's `readHanja` on the same data beside the `hanja` package; under wrk (Node, 50
// connections), `GET /read` of 1,000 different 200-character texts as a share of the character
// detail, the two bundles taking turns within each round (which goes first alternates), and a
// node:http server answering the detail's bytes (the ceiling any answer of that size meets here).
//   npx tsx test/bench/probes/reader-compare.ts <before tree> <before bundle> <after bundle>
// The before tree is a worktree of the older commit (its node_modules linked); both read this
// tree's dist/. ROUNDS (default 5), SECONDS per case (default 3).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import hanjaPackage from "hanja";
import { ROOT, load, median, startServer, table } from "../lib.ts";
import { phrasePicker, readerTexts } from "../readerTexts.ts";

const [beforeTree, beforeBundle, afterBundle] = process.argv.slice(2);
if (!beforeTree || !beforeBundle || !afterBundle) throw new Error("usage: reader-compare.ts <before tree> <before bundle> <after bundle>");
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SECONDS = Number(process.env.SECONDS ?? 3);
const peer = ((hanjaPackage as unknown as { default?: typeof hanjaPackage }).default ?? hanjaPackage) as typeof hanjaPackage;

type Reader = (text: string, data: unknown) => unknown;
const trees = { before: beforeTree, after: ROOT };
const readers = {} as Record<"before" | "after", { read: Reader; data: unknown }>;
for (const [name, tree] of Object.entries(trees) as ["before" | "after", string][]) {
  const { createApp } = await import(join(tree, "runtime/core/app.ts"));
  const { readHanja } = await import(join(tree, "runtime/core/read/readHanja.ts"));
  const { loadDistFiles } = await import(join(tree, "runtime/entry/loadDist.ts"));
  readers[name] = { read: readHanja, data: createApp({ dist: loadDistFiles(join(ROOT, "dist")) }).data };
}

const pick = phrasePicker();
/** `n` different texts of `size` characters, phrases in a random order after a number. */
const textsOf = (tag: string, n: number, size: number) => readerTexts(pick, tag, n, size);

// In process: CPU per 200-character text, and MB/s of 1,000-character texts, each reader in turn per round.
const short = textsOf("p", 1_000, 200);
const long = textsOf("q", 1_000, 1_000);
const megabytes = long.reduce((n, t) => n + Buffer.byteLength(t), 0) / 1e6;
const inProcess = {
  before: { us: [] as number[], mbps: [] as number[] },
  after: { us: [] as number[], mbps: [] as number[] },
  peer: { us: [] as number[], mbps: [] as number[] },
};
const runners = {
  before: (t: string) => readers.before.read(t, readers.before.data),
  after: (t: string) => readers.after.read(t, readers.after.data),
  peer: (t: string) => peer.translate(t, "SUBSTITUTION"),
};
for (const run of Object.values(runners)) for (const t of [...short, ...long]) run(t);
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of Object.entries(runners) as [keyof typeof runners, (t: string) => unknown][]) {
    const cpu = process.cpuUsage();
    for (const t of short) run(t);
    const used = process.cpuUsage(cpu);
    inProcess[name].us.push((used.user + used.system) / short.length);
    const t0 = performance.now();
    for (const t of long) run(t);
    inProcess[name].mbps.push(megabytes / ((performance.now() - t0) / 1000));
  }
}

// Under wrk: the detail, `/read` of 200 characters, and the same detail bytes from a bare node:http server.
const DETAILS = ["水", "樂", "人", "學", "國"].map((c) => `/hanja/v1/hanja/${encodeURIComponent(c)}`);
const builds = { before: beforeBundle, after: afterBundle };
const rps: Record<string, number[]> = { "before detail": [], "before read": [], "after detail": [], "after read": [], "node:http, the detail's bytes": [] };
const ratio = { before: [] as number[], after: [] as number[] };
let failed = 0;
let detailAnswer: { body: Buffer; headers: Record<string, string> } | undefined;
for (let round = 1; round <= ROUNDS; round++) {
  const order = round % 2 === 1 ? (["before", "after"] as const) : (["after", "before"] as const);
  const paths = textsOf(`r${round}`, 1_000, 200).map((t) => `/hanja/v1/read?text=${encodeURIComponent(t)}`);
  for (const name of order) {
    const running = await startServer("node", [builds[name]], { QUOTA_STORE: "memory", DIST_DIR: join(ROOT, "dist") }, DETAILS[0] as string);
    for (const path of paths) await (await fetch(running.url + path)).arrayBuffer();
    if (detailAnswer === undefined) {
      const answer = await fetch(running.url + DETAILS[0]);
      detailAnswer = { body: Buffer.from(await answer.arrayBuffer()), headers: Object.fromEntries(answer.headers) };
    }
    await load(running.url, DETAILS, { seconds: 1 });
    const detail = await load(running.url, DETAILS, { seconds: SECONDS });
    const read = await load(running.url, paths, { seconds: SECONDS });
    failed += detail.non2xx + read.non2xx;
    rps[`${name} detail`]?.push(detail.rps);
    rps[`${name} read`]?.push(read.rps);
    ratio[name].push(read.rps / detail.rps);
    await running.stop();
  }
  console.error(`round ${round}/${ROUNDS} done`);
}
await bareServer();

/**
 * The ceiling: node:http answering the detail's bytes and headers, reading nothing of the request,
 * in a process of its own (wrk runs synchronously here, so a server in this process could not answer).
 */
async function bareServer(): Promise<void> {
  const { body, headers } = detailAnswer as { body: Buffer; headers: Record<string, string> };
  for (const name of ["content-length", "transfer-encoding", "connection", "keep-alive", "date"]) delete headers[name];
  const dir = mkdtempSync(join(tmpdir(), "reader-compare-"));
  writeFileSync(join(dir, "body"), body);
  const code = `const body = require("node:fs").readFileSync(${JSON.stringify(join(dir, "body"))}); const headers = ${JSON.stringify(headers)};
require("node:http").createServer((_, res) => { res.writeHead(200, headers); res.end(body); }).listen(0, "127.0.0.1", function () { console.error(JSON.stringify({ url: "http://127.0.0.1:" + this.address().port })); });`;
  writeFileSync(join(dir, "server.cjs"), code);
  const bare = await startServer("node", [join(dir, "server.cjs")], {}, DETAILS[0] as string);
  for (let i = 0; i < ROUNDS; i++) rps["node:http, the detail's bytes"]?.push((await load(bare.url, DETAILS, { seconds: SECONDS })).rps);
  await bare.stop();
  rmSync(dir, { recursive: true });
}

const m = (values: number[]) => median(values);
console.log(`In process, median of ${ROUNDS} rounds (1,000 texts of 200 characters; ${megabytes.toFixed(2)} MB as 1,000 texts of 1,000 characters)\n`);
console.log(
  table([
    ["reader", "CPU µs per 200-character text", "MB/s, 1,000-character texts"],
    ["before (readHanja)", m(inProcess.before.us).toFixed(1), m(inProcess.before.mbps).toFixed(2)],
    ["after (readHanja)", m(inProcess.after.us).toFixed(1), m(inProcess.after.mbps).toFixed(2)],
    ["hanja 1.1.5 (translate)", m(inProcess.peer.us).toFixed(1), m(inProcess.peer.mbps).toFixed(2)],
  ]),
);
console.log(`\nUnder wrk, Node, 50 connections, median of ${ROUNDS} rounds of ${SECONDS} s (non-2xx or timed out: ${failed})\n`);
console.log(
  table([
    ["request", "req/s", "read as a share of the detail (median of the rounds' ratios)"],
    ...Object.entries(rps).map(([name, values]) => [
      name,
      Math.round(m(values)),
      name.endsWith("read") ? `${(m(ratio[name.split(" ")[0] as "before" | "after"]) * 100).toFixed(0)} %` : "",
    ]),
  ]),
);
