// GET /quiz answered in process (`app.fetch`, no network, the memory store), for comparing two
// checkouts of the service on one machine in one run: `npx tsx test/bench/probes/quiz-in-process.ts
// [--root other/checkout] [--ms 1500] [--query count=20]`. Prints one JSON line: answers per second.
// Each quiz now signs its quiz_id (HMAC-SHA-256 through Web Crypto): this measures what that costs.
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { root: { type: "string" }, ms: { type: "string" }, query: { type: "string" } } });
const root = values.root ?? join(import.meta.dirname, "../../..");
const { createApp } = await import(join(root, "runtime/core/app.ts"));
const { loadDistFiles } = await import(join(root, "runtime/entry/loadDist.ts"));
const app = createApp({ dist: loadDistFiles(join(root, "dist")), onError: () => {} });
const url = `http://localhost/quiz/v1/quiz?${values.query ?? ""}`;
let ip = 0;
const once = async () => {
  ip++;
  const response = await app.fetch(new Request(url), { clientAddress: `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}` });
  if (response.status !== 200) throw new Error(`status ${response.status}`);
  await response.text();
};
for (let i = 0; i < 300; i++) await once();
const ms = Number(values.ms ?? 1500);
let answered = 0;
const start = performance.now();
while (performance.now() - start < ms) {
  await once();
  answered++;
}
console.log(JSON.stringify({ root, query: values.query ?? "", perSecond: Math.round((answered * 1000) / (performance.now() - start)) }));
