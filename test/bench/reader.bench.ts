/**
 * The reader (`GET`/`POST /read`, `readHanja`) beside the `hanja` npm package (1.1.5, pinned as a
 * development dependency), in the same run:
 *
 * 1. accuracy: the share of the phrases of `test/content/reader-phrases.csv` each reads exactly
 *    as their standard reading (target ≥ 97 %);
 * 2. speed in process: MB/s of UTF-8 mixed text (the phrases, shuffled, ~1 MB) read by each, as one
 *    text and as the texts of at most 1,000 characters a client would send, after
 *    a first reading that loads the words and one of the text itself (their times printed apart;
 *    target: faster than the package);
 * 3. under load (wrk, Node, 50 connections): req/s of `GET /read` with 1,000 different texts of 200
 *    characters in turn (the server keeps no answer to free text, so each request is read anew), as
 *    a share of the character detail's req/s in the same round (target ≥ 50 %), each with the
 *    server's CPU per request; and a plain node:http server answering one `/read` answer's bytes
 *    and headers to the same 1,000 targets (`baselines/hello.node.mjs`, reading nothing), which is
 *    what the runtime itself allows for an answer of that size;
 * 4. the most `/read` could reach: on the same texts in process (a process of their own,
 *    `readCost.ts`), the CPU of the reading alone and of the whole answer (`app.handle`); the detail's CPU per request over the reading's plus what
 *    node:http spends sending the answer's bytes is the share a server doing nothing but read and
 *    send would have.
 *
 * `npm run bench -- reader` (ROUNDS, SECONDS to change the defaults).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import hanjaPackage from "hanja";
import { createApp } from "../../runtime/core/app.ts";
import { readHanja } from "../../runtime/core/read/readHanja.ts";
import { loadDistFiles } from "../../runtime/entry/loadDist.ts";
import { bundle } from "../../scripts/bundle.ts";
import { ensureDist } from "../../scripts/ensureDist.ts";
import { ROOT, load, median, startServer, table } from "./lib.ts";
import { phrasePicker, readTargets, readerPhrases, readerTexts } from "./readerTexts.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SECONDS = Number(process.env.SECONDS ?? 4);
// The package is CommonJS with `exports.default`: under ESM its functions are one level down.
const peer = ((hanjaPackage as unknown as { default?: typeof hanjaPackage }).default ?? hanjaPackage) as typeof hanjaPackage;

await ensureDist();
const app = createApp({ dist: loadDistFiles(join(ROOT, "dist")) });
const phrases = readerPhrases();

// 1. Accuracy (the first reading also loads the words: timed).
const started = performance.now();
readHanja(phrases[0]?.phrase ?? "", app.data);
const firstMs = performance.now() - started;
const right = { service: 0, peer: 0 };
for (const { phrase, reading } of phrases) {
  if (readHanja(phrase, app.data).hangul === reading) right.service++;
  if (peer.translate(phrase, "SUBSTITUTION") === reading) right.peer++;
}
const share = (n: number) => `${((n / phrases.length) * 100).toFixed(1)} % (${n} of ${phrases.length})`;

// 2. Speed in process on the same mixed text.
const pick = phrasePicker();
const pieces: string[] = [];
let bytes = 0;
while (bytes < 1_000_000) {
  const phrase = pick();
  pieces.push(phrase);
  bytes += Buffer.byteLength(phrase) + 2;
}
const text = pieces.join(". ");
const megabytes = Buffer.byteLength(text) / 1e6;
// The same text also as the texts a client would send: cut at phrase ends into texts of at most 1,000 characters.
const texts1k: string[] = [""];
for (const phrase of pieces) {
  const last = texts1k.length - 1;
  if ([...(texts1k[last] as string)].length + phrase.length + 2 > 1000) texts1k.push(phrase);
  else texts1k[last] = texts1k[last] ? `${texts1k[last]}. ${phrase}` : phrase;
}
const speed = { service: [] as number[], peer: [] as number[], service1k: [] as number[], peer1k: [] as number[] };
// Once untimed: the characters of the text get their usual readings (worked out once, then kept).
const started2 = performance.now();
readHanja(text, app.data);
const firstTextMs = performance.now() - started2;
const mbps = (run: () => void, mb: number) => {
  const t = performance.now();
  run();
  return mb / ((performance.now() - t) / 1000);
};
const megabytes1k = texts1k.reduce((n, t) => n + Buffer.byteLength(t), 0) / 1e6;
for (let round = 0; round < ROUNDS; round++) {
  speed.service.push(mbps(() => readHanja(text, app.data), megabytes));
  speed.peer.push(mbps(() => peer.translate(text, "SUBSTITUTION"), megabytes));
  speed.service1k.push(mbps(() => texts1k.forEach((t) => readHanja(t, app.data)), megabytes1k));
  speed.peer1k.push(mbps(() => texts1k.forEach((t) => peer.translate(t, "SUBSTITUTION")), megabytes1k));
}

// 3. Under load: 200-character texts, 1,000 in turn, beside the character detail and node:http answering a /read answer's bytes.
const server = await bundle();
const HELLO = join(ROOT, "test/bench/baselines/hello.node.mjs");
const saved = mkdtempSync(join(tmpdir(), "reader-bench-"));
const details = ["水", "樂", "人", "學", "國"].map((c) => `/hanja/v1/hanja/${encodeURIComponent(c)}`);
const rps = { read: [] as number[], detail: [] as number[], bare: [] as number[], share: [] as number[] };
const cpu = { read: [] as number[], detail: [] as number[], bare: [] as number[] };
const failed = { read: 0, detail: 0, bare: 0 };
let answerBytes = 0;
// In process, on each round's texts, in a process of their own (readCost.ts): the reading alone, and the whole answer as the server makes it.
const inProcess = { read: [] as number[], handle: [] as number[] };
const readCost = (texts: string[], round: number): { read: number; handle: number } => {
  const file = join(saved, `texts-${round}.json`);
  writeFileSync(file, JSON.stringify(texts));
  const out = execFileSync(process.execPath, ["--import", "tsx", join(ROOT, "test/bench/readCost.ts"), file], { encoding: "utf8" });
  return JSON.parse(out);
};
for (let round = 1; round <= ROUNDS; round++) {
  const running = await startServer("node", [server], { QUOTA_STORE: "memory" }, details[0] as string);
  const texts = readerTexts(pick, String(round), 1_000, 200);
  const paths = readTargets(texts);
  // Each text once, one at a time, before the clock runs: the words load and the characters' usual
  // readings are worked out (then kept), as on a server that has been reading for a while.
  for (const path of paths) await (await fetch(running.url + path)).arrayBuffer();
  const files = await saveAnswer(running.url + paths[0], round);
  await load(running.url, details, { seconds: 1 });
  const detail = await load(running.url, details, { seconds: SECONDS, server: running.proc });
  const read = await load(running.url, paths, { seconds: SECONDS, server: running.proc });
  await running.stop();
  // The same /read bytes from node:http alone, to the same targets; writing a turn's answers together, as the service does.
  const hello = await startServer("node", [HELLO], { ...files, PER_TURN: "1" }, "/");
  await load(hello.url, paths, { seconds: 1 });
  const bare = await load(hello.url, paths, { seconds: SECONDS, server: hello.proc });
  await hello.stop();
  // wrk counts its timeouts (2 s) with the non-2xx answers: on a busy shared machine a few happen; reported, not fatal.
  failed.read += read.non2xx;
  failed.detail += detail.non2xx;
  failed.bare += bare.non2xx;
  rps.read.push(read.rps);
  rps.detail.push(detail.rps);
  rps.bare.push(bare.rps);
  rps.share.push(read.rps / detail.rps);
  cpu.read.push(read.cpuUs ?? Number.NaN);
  cpu.detail.push(detail.cpuUs ?? Number.NaN);
  cpu.bare.push(bare.cpuUs ?? Number.NaN);
  const cost = readCost(texts, round);
  inProcess.read.push(cost.read);
  inProcess.handle.push(cost.handle);
  console.error(`round ${round}/${ROUNDS} done`);
}

/** One `/read` answer's body and headers (those node:http adds left out), saved for the plain server. */
async function saveAnswer(url: string, round: number): Promise<{ BODY_FILE: string; HEADERS_FILE: string }> {
  const answer = await fetch(url);
  const headers = Object.fromEntries(answer.headers);
  for (const name of ["content-length", "transfer-encoding", "connection", "keep-alive", "date"]) delete headers[name];
  const body = Buffer.from(await answer.arrayBuffer());
  answerBytes = body.length;
  const files = { BODY_FILE: join(saved, `read-${round}.json`), HEADERS_FILE: join(saved, `read-${round}.headers.json`) };
  writeFileSync(files.BODY_FILE, body);
  writeFileSync(files.HEADERS_FILE, JSON.stringify(headers));
  return files;
}

console.log(
  `Phrases read exactly right (${phrases.length} phrases, test/content/reader-phrases.csv); first reading, loading the words: ${firstMs.toFixed(0)} ms; first reading of the mixed text: ${firstTextMs.toFixed(0)} ms\n`,
);
console.log(
  table([
    [
      "reader",
      "right",
      `MB/s in process, one ${megabytes.toFixed(2)} MB text (median of ${ROUNDS})`,
      `MB/s, the same as ${texts1k.length} texts of ≤ 1,000 characters`,
    ],
    ["this service (readHanja)", share(right.service), median(speed.service).toFixed(2), median(speed.service1k).toFixed(2)],
    ["hanja 1.1.5 (translate, SUBSTITUTION)", share(right.peer), median(speed.peer).toFixed(2), median(speed.peer1k).toFixed(2)],
  ]),
);
const detailRps = median(rps.detail);
const percent = (ratio: number) => `${(ratio * 100).toFixed(0)} %`;
console.log(`\nUnder wrk, Node, 50 connections, median of ${ROUNDS} rounds of ${SECONDS} s; a /read answer of ${answerBytes} bytes\n`);
console.log(
  table([
    ["request", "req/s", "vs detail", "server CPU µs/request", "non-2xx or timed out (all rounds)"],
    ["GET /hanja/v1/hanja/{character} (detail)", Math.round(detailRps), "100 %", median(cpu.detail).toFixed(1), failed.detail],
    [
      "GET /hanja/v1/read?text= (200 characters, 1,000 texts in turn)",
      Math.round(median(rps.read)),
      `${percent(median(rps.read) / detailRps)} (rounds' median ${percent(median(rps.share))})`,
      median(cpu.read).toFixed(1),
      failed.read,
    ],
    [
      "node:http alone, a /read answer's bytes, the same targets",
      Math.round(median(rps.bare)),
      percent(median(rps.bare) / detailRps),
      median(cpu.bare).toFixed(1),
      failed.bare,
    ],
  ]),
);
// The least a server can spend on a /read: the reading itself (in process) and node:http sending its answer's bytes.
const floor = median(inProcess.read) + median(cpu.bare);
console.log(
  `\nIn process (readCost.ts), CPU µs per text on the same texts (median of ${ROUNDS} rounds): the reading (readHanja) ${median(inProcess.read).toFixed(1)}, ` +
    `the whole answer (app.handle: the query decoded, read, written as JSON in bytes) ${median(inProcess.handle).toFixed(1)}.\n` +
    `The most /read could reach: the detail's CPU per request over the reading's plus node:http's sending its bytes ` +
    `(${median(cpu.detail).toFixed(1)} / (${median(inProcess.read).toFixed(1)} + ${median(cpu.bare).toFixed(1)})) = ${percent(median(cpu.detail) / floor)} of the detail's req/s; ` +
    `with the whole answer made in process instead of the reading alone: ${percent(median(cpu.detail) / (median(inProcess.handle) + median(cpu.bare)))}.`,
);
