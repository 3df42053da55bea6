// Two source trees compared in process (no HTTP, no server): `app.handle` for a character detail
// that is routed every time (a new query each call, so no remembered answer) and for a quiz of
// three as the demo (a new client IP each call, memory store), the trees taking turns within each
// round, CPU µs per call, medians of ROUNDS rounds of N calls. What routing and the handlers cost,
// without the server around them; the "before" tree is a worktree of the older commit:
//   git worktree add /tmp/before <commit> && ln -s "$PWD/node_modules" /tmp/before/
//   npx tsx test/bench/probes/compare-trees.ts /tmp/before .
// ROUNDS (default 15), N (default 4000), DIST_DIR (default dist/) for both trees.
import { resolve } from "node:path";

interface Handles {
  handle(request: { method: string; url: string; headers: Headers }, info: { clientAddress: string }): unknown;
}

const [before, after] = process.argv.slice(2);
if (!before || !after) throw new Error("usage: compare-trees.ts <before tree> <after tree>");
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const N = Number(process.env.N ?? 4000);
const dist = resolve(process.env.DIST_DIR ?? "dist");

const apps: Record<string, Handles> = {};
for (const [name, root] of Object.entries({ before, after })) {
  const { createApp } = await import(resolve(root, "runtime/core/app.ts"));
  const { loadDistFiles } = await import(resolve(root, "runtime/entry/loadDist.ts"));
  apps[name] = createApp({ dist: loadDistFiles(dist), onError: () => {} });
}

let calls = 0;
const cases = {
  detail: (app: Handles) =>
    app.handle({ method: "GET", url: `http://localhost/hanja/v1/hanja/%E6%B0%B4?r=${++calls}`, headers: new Headers() }, { clientAddress: "127.0.0.1" }),
  quiz: (app: Handles) => {
    const n = ++calls;
    const clientAddress = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    return app.handle({ method: "GET", url: "http://localhost/quiz/v1/quiz?count=3", headers: new Headers() }, { clientAddress });
  },
};

const micros: Record<string, number[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const name of round % 2 ? ["after", "before"] : ["before", "after"]) {
    for (const [label, call] of Object.entries(cases)) {
      const app = apps[name] as Handles;
      const start = process.cpuUsage();
      for (let i = 0; i < N; i++) await call(app);
      const used = process.cpuUsage(start);
      (micros[`${label} ${name}`] ??= []).push((used.user + used.system) / N);
    }
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
for (const label of Object.keys(cases)) {
  const was = median(micros[`${label} before`] ?? []);
  const now = median(micros[`${label} after`] ?? []);
  console.log(`${label.padEnd(7)} before ${was.toFixed(2)} µs  after ${now.toFixed(2)} µs  ${(((now - was) / was) * 100).toFixed(1)} %`);
}
process.exit(0);
