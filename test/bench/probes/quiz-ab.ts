// GET /quiz answered in process by two checkouts of the service, in one Node process, in
// alternating batches (so both see the same load on a shared machine): `npx tsx
// test/bench/probes/quiz-ab.ts --before <other checkout with dist/> [--query count=20] [--swap]`.
// Prints one JSON line: the median µs per call of each and the speed ratio (after/before; above 1
// is faster). Each app uses the memory store and a fresh client address per call.
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { before: { type: "string" }, query: { type: "string" }, swap: { type: "boolean" } } });
if (values.before === undefined) throw new Error("--before <checkout> is required");
const make = async (root: string) => {
  const { createApp } = await import(join(root, "runtime/core/app.ts"));
  const { loadDistFiles } = await import(join(root, "runtime/entry/loadDist.ts"));
  return createApp({ dist: loadDistFiles(join(root, "dist")), onError: () => {} }) as { fetch: (r: Request, c: object) => Promise<Response> };
};
const before = await make(values.before);
const after = await make(join(import.meta.dirname, "../../.."));
const apps: [string, typeof before][] = values.swap
  ? [
      ["after", after],
      ["before", before],
    ]
  : [
      ["before", before],
      ["after", after],
    ];
const query = values.query ?? "";
let ip = 0;
const batch = async (app: typeof before, n: number) => {
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    ip++;
    const response = await app.fetch(new Request(`http://localhost/quiz/v1/quiz?${query}`), {
      clientAddress: `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`,
    });
    await response.text();
  }
  return (performance.now() - started) / n;
};
for (const [, app] of apps) await batch(app, 500);
const times: Record<string, number[]> = { before: [], after: [] };
for (let round = 0; round < 20; round++) for (const [name, app] of apps) times[name]?.push(await batch(app, 200));
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] as number;
const [b, a] = [median(times.before ?? []), median(times.after ?? [])];
console.log(JSON.stringify({ query, beforeUs: Math.round(b * 1000), afterUs: Math.round(a * 1000), speed: +(b / a).toFixed(3) }));
