// Where the µs of a `GET /read` of 200 characters go, in process: app.handle whole (with and
// without the access log), and its phases one by one on the same 1,000 texts: the query's decoding,
// the checks of `text`, the reading, its JSON. CPU time, median of ROUNDS (default 5).
//   npx tsx test/bench/probes/read-phases.ts
import { join } from "node:path";
import { createApp } from "../../../runtime/core/app.ts";
import { parseQuery, queryOf } from "../../../runtime/core/http/params.ts";
import { readHanja } from "../../../runtime/core/read/readHanja.ts";
import { readResultJson } from "../../../runtime/core/read/readResultJson.ts";
import { READ_PARAMS } from "../../../runtime/core/routes/readParams.ts";
import { createAccessLog } from "../../../runtime/entry/accessLog.ts";
import { loadDistFiles } from "../../../runtime/entry/loadDist.ts";
import { ROOT, median } from "../lib.ts";
import { phrasePicker, readTargets, readerTexts } from "../readerTexts.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const texts = readerTexts(phrasePicker(), "1", 1_000, 200);
const urls = readTargets(texts).map((target) => `http://localhost${target}`);
const headers = { get: (name: string) => (name === "host" ? "localhost" : null) };
const requests = urls.map((url) => ({ method: "GET", url, headers }));

const dist = loadDistFiles(join(ROOT, "dist"));
const plain = createApp({ dist });
const log = createAccessLog(true, () => {});
const logged = createApp({ dist, log: log.write });
const data = plain.data;

const phases: Record<string, () => void> = {
  "app.handle, no access log": () => {
    for (const r of requests) plain.handle(r);
  },
  "app.handle, access log": () => {
    for (const r of requests) logged.handle(r);
  },
  queryOf: () => {
    for (const u of urls) queryOf(u);
  },
  "queryOf + parseQuery (the checks of text)": () => {
    for (const u of urls) parseQuery(queryOf(u), READ_PARAMS);
  },
  readHanja: () => {
    for (const t of texts) readHanja(t, data);
  },
  "readHanja + its JSON (readResultJson)": () => {
    for (const t of texts) readResultJson(readHanja(t, data));
  },
};
const results: Record<string, number[]> = {};
for (const run of Object.values(phases)) run();
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of Object.entries(phases)) {
    const cpu = process.cpuUsage();
    run();
    const used = process.cpuUsage(cpu);
    (results[name] ??= []).push((used.user + used.system) / texts.length);
  }
}
const body = readResultJson(readHanja(texts[0] as string, data));
console.log(`1,000 texts of 200 characters; a query of about ${urls[0]?.length} characters, an answer of about ${Buffer.byteLength(body)} bytes`);
console.log(`CPU µs per request, median of ${ROUNDS} rounds`);
for (const [name, values] of Object.entries(results)) console.log(`${name.padEnd(50)} ${median(values).toFixed(1)}`);
