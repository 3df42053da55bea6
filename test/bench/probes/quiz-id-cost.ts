// Quiz ids made and opened in process by two checkouts (`quizId.ts`), in one process, in
// alternating batches so both see the same load on a shared machine: `npx tsx
// test/bench/probes/quiz-id-cost.ts --before <other checkout> [--rounds 9]`. Each batch signs
// lists of 20 claims (as GET /quiz?count=20&reveal=0 does) and verifies every id one at a time (as
// POST /grade does). Runs on Bun (`npx bun test/bench/probes/…`) and Deno (`npx deno run -A …`)
// too. Prints one JSON line: the median µs per quiz of each, to make and to open.
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { before: { type: "string" }, rounds: { type: "string" } } });
if (values.before === undefined) throw new Error("--before <checkout> is required");
const ROUNDS = Number(values.rounds ?? 9);
const LISTS = 100;

interface Ids {
  sign(claims: object[]): Promise<string[]>;
  verify(id: string): Promise<object>;
}
const make = async (root: string): Promise<Ids> => {
  const { createQuizIds } = await import(join(root, "runtime/core/quiz/quizId.ts"));
  const { cryptoRandom } = await import(join(root, "runtime/core/util/random.ts"));
  // `random` is read by the first format only (its nonce); the encrypted one draws its own.
  return createQuizIds({ secrets: ["bench-secret-0123456789"], now: () => new Date(), random: cryptoRandom, dataHash: "5e1f0a9c" });
};
const apps: [string, Ids][] = [
  ["before", await make(values.before)],
  ["after", await make(join(import.meta.dirname, "../../.."))],
];
const claims = Array.from({ length: 20 }, (_, n) => ({ type: "hunum_to_hanja", typed: false, key: 1 + (n % 4), subject: 100 + n, blank: 0 }));

const batch = async (ids: Ids) => {
  let signing = 0;
  let opening = 0;
  for (let list = 0; list < LISTS; list++) {
    const started = performance.now();
    const made = await ids.sign(claims);
    const signed = performance.now();
    for (const id of made) await ids.verify(id);
    signing += signed - started;
    opening += performance.now() - signed;
  }
  const quizzes = LISTS * claims.length;
  return { make: (signing * 1000) / quizzes, open: (opening * 1000) / quizzes };
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const runs = new Map(apps.map(([name]) => [name, { make: [] as number[], open: [] as number[] }]));
for (const [, ids] of apps) await batch(ids); // warm-up: keys derived, code compiled
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, ids] of round % 2 === 0 ? apps : [...apps].reverse()) {
    const r = await batch(ids);
    runs.get(name)?.make.push(r.make);
    runs.get(name)?.open.push(r.open);
  }
}
const result = Object.fromEntries(
  [...runs].map(([name, r]) => [name, { make_us: Number(median(r.make).toFixed(1)), open_us: Number(median(r.open).toFixed(1)) }]),
);
const host = globalThis as { Bun?: { version: string }; Deno?: { version: { deno: string } } };
const runtime = host.Bun ? `bun ${host.Bun.version}` : host.Deno ? `deno ${host.Deno.version.deno}` : `node ${process.version}`;
console.log(JSON.stringify({ runtime, rounds: ROUNDS, quizzes_per_batch: LISTS * claims.length, ...result }));
