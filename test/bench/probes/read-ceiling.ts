// `GET /read` of 200 characters under wrk against what node:http itself allows for answers that
// size: per round, for each bundle given (in turns), the character detail and `/read` of 1,000
// texts; then node:http answering one `/read` answer's bytes and headers to the same 1,000 request
// targets (reading nothing of them), and the detail's bytes. req/s and the server's CPU µs per
// request, medians of ROUNDS rounds of SECONDS.
//   npx tsx test/bench/probes/read-ceiling.ts <bundle>[?SETTING=value&…] [<bundle> …]
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { ROOT, type LoadOptions, type LoadResult, Results, load, median, startServer, table } from "../lib.ts";
import { phrasePicker, readTargets, readerTexts } from "../readerTexts.ts";

const bundles = process.argv.slice(2);
if (bundles.length === 0) throw new Error("usage: read-ceiling.ts <bundle> [<bundle> …]");
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 3);
const HELLO = join(ROOT, "test/bench/baselines/hello.node.mjs");

const pick = phrasePicker();
const paths = (round: number) => readTargets(readerTexts(pick, String(round), 1_000, 200));
const DETAILS = ["水", "樂", "人", "學", "國"].map((c) => `/hanja/v1/hanja/${encodeURIComponent(c)}`);
const dir = mkdtempSync(join(tmpdir(), "read-ceiling-"));
const results = new Results();
const names = bundles.map((b, i) => `${i + 1} ${basename(b)}`);
const ratios: Record<string, number[]> = {};

/** An answer's body and headers, saved for the bare server. */
async function save(url: string, name: string): Promise<{ BODY_FILE: string; HEADERS_FILE: string }> {
  const answer = await fetch(url);
  const headers = Object.fromEntries(answer.headers);
  for (const h of ["content-length", "transfer-encoding", "connection", "keep-alive", "date"]) delete headers[h];
  const files = { BODY_FILE: join(dir, `${name}.body`), HEADERS_FILE: join(dir, `${name}.json`) };
  writeFileSync(files.BODY_FILE, Buffer.from(await answer.arrayBuffer()));
  writeFileSync(files.HEADERS_FILE, JSON.stringify(headers));
  return files;
}

let bare: { read: Record<string, string>; detail: Record<string, string> } | undefined;
const run = async (name: string, url: string, targets: string[], server: LoadOptions["server"]): Promise<LoadResult> => {
  const result = await load(url, targets, { seconds: SECONDS, server });
  results.add(name, result);
  return result;
};
for (let round = 1; round <= ROUNDS; round++) {
  const targets = paths(round);
  const order = round % 2 === 1 ? names.map((_, i) => i) : names.map((_, i) => names.length - 1 - i);
  for (const i of order) {
    // A bundle may carry settings of its own: `server.mjs?ACCESS_LOG=0`.
    const [bundle, settings] = (bundles[i] as string).split("?");
    const env = Object.fromEntries(new URLSearchParams(settings ?? ""));
    const running = await startServer("node", [bundle as string], { QUOTA_STORE: "memory", DIST_DIR: join(ROOT, "dist"), ...env }, DETAILS[0] as string);
    for (const path of targets) await (await fetch(running.url + path)).arrayBuffer();
    bare ??= { read: await save(running.url + targets[0], "read"), detail: await save(running.url + DETAILS[0], "detail") };
    await load(running.url, DETAILS, { seconds: 1 });
    const detail = await run(`${names[i]}: detail`, running.url, DETAILS, running.proc);
    const read = await run(`${names[i]}: read`, running.url, targets, running.proc);
    (ratios[names[i] as string] ??= []).push(read.rps / detail.rps);
    await running.stop();
  }
  const started = bare as NonNullable<typeof bare>;
  for (const [name, env, targets2] of [
    ["node:http, a /read answer's bytes, the /read targets", started.read, targets],
    ["node:http, the detail's bytes", started.detail, DETAILS],
  ] as const) {
    const server = await startServer("node", [HELLO], { ...env, PER_TURN: "1" }, "/");
    await load(server.url, targets2, { seconds: 1 });
    await run(name, server.url, targets2, server.proc);
    await server.stop();
  }
  console.error(`round ${round}/${ROUNDS} done`);
}
console.log(
  `Under wrk, Node, 50 connections, median of ${ROUNDS} rounds of ${SECONDS} s; a /read answer of ${readFileSync(bare?.read.BODY_FILE as string).length} bytes`,
);
const rows: (string | number)[][] = [["case", "req/s", "server CPU µs/request (median, least)", "read / detail (median of rounds)"]];
for (const [name, s] of results.entries()) {
  const bundle = names.find((n) => name === `${n}: read`);
  rows.push([
    name,
    Math.round(median(s.rps)),
    `${median(s.cpuUs).toFixed(1)}, ${Math.min(...s.cpuUs).toFixed(1)}`,
    bundle ? `${(median(ratios[bundle] as number[]) * 100).toFixed(0)} %` : "",
  ]);
}
console.log(table(rows));
