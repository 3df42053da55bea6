// Where the µs of a `GET /read` of 200 characters go, in process: app.handle whole (access log on,
// writing nowhere) and its phases on the same 1,000 texts (the query's decoding, the reading, the
// reading and its JSON in UTF-8, as the server sends it), for each tree given (this one by default), the trees in one process
// taking turns round by round. CPU time per text, median and least of ROUNDS (default 21).
//   npx tsx test/bench/probes/read-phases.ts [<tree> …]
// An older tree is a worktree of its commit (its node_modules linked); every tree reads this one's dist/.
import { join } from "node:path";
import { ROOT } from "../lib.ts";
import { phrasePicker, readRequests, readerTexts } from "../readerTexts.ts";

const trees = process.argv.length > 2 ? process.argv.slice(2) : [ROOT];
const ROUNDS = Number(process.env.ROUNDS ?? 21);
const texts = readerTexts(phrasePicker(), "1", 1_000, 200);
const requests = readRequests(texts);
const urls = requests.map((request) => request.url);

type Phase = { tree: string; phase: string; run: () => void };
const phases: Phase[] = [];
for (const tree of trees) {
  const module = (path: string) => import(join(tree, path));
  const { createApp } = await module("runtime/core/app.ts");
  const { readHanja } = await module("runtime/core/read/readHanja.ts");
  const { loadDistFiles } = await module("runtime/entry/loadDist.ts");
  const { createAccessLog } = await module("runtime/entry/accessLog.ts");
  const { queryOf } = await module("runtime/core/http/params.ts");
  // Trees before the answer's JSON was written member by member used JSON.stringify; before it was
  // written in bytes, the server encoded the string (Buffer.from: measuring it, then encoding it).
  const json: (result: unknown) => string | Uint8Array = await module("runtime/core/read/readResultJson.ts").then(
    (m) => m.readResultJson,
    () => JSON.stringify,
  );
  const bytes = (result: unknown) => {
    const answer = json(result);
    return typeof answer === "string" ? Buffer.from(answer) : answer;
  };
  const app = createApp({ dist: loadDistFiles(join(ROOT, "dist")), log: createAccessLog(true, () => {}).write });
  const add = (phase: string, run: () => void) => phases.push({ tree, phase, run });
  add("app.handle (GET /read, access log on)", () => requests.forEach((r) => app.handle(r)));
  add("the query's decoding (queryOf)", () => urls.forEach((u) => queryOf(u)));
  add("the reading (readHanja)", () => texts.forEach((t) => readHanja(t, app.data)));
  add("the reading and its JSON in UTF-8", () => texts.forEach((t) => bytes(readHanja(t, app.data))));
}

for (const { run } of phases) run();
const times = new Map<Phase, number[]>(phases.map((p) => [p, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const phase of round % 2 ? [...phases].reverse() : phases) {
    const started = process.cpuUsage();
    phase.run();
    const used = process.cpuUsage(started);
    times.get(phase)?.push((used.user + used.system) / texts.length);
  }
}
const figure = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${(sorted[sorted.length >> 1] as number).toFixed(1)} (${(sorted[0] as number).toFixed(1)})`;
};
console.log(`In process, µs of CPU per 200-character text (1,000 texts), median (least) of ${ROUNDS} rounds, the trees taking turns`);
for (const name of new Set(phases.map((p) => p.phase))) {
  const cells = phases.filter((p) => p.phase === name).map((p) => `${figure(times.get(p) ?? [])}`.padEnd(14));
  console.log(`${name.padEnd(40)} ${cells.join("  ")}`);
}
console.log(`trees: ${trees.join(", ")}`);
