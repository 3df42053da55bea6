// Two source trees compared on what a change to the data can slow down outside serving: a full
// build (`buildDist` into a temporary folder: wall and CPU time) and the embedded first answer
// (importing the tree's package, lib/, and answering the first character detail in process, as
// `npm run bench -- embedded` measures it), on Node. Each measurement is a fresh process; the trees
// take turns within each round (which goes first alternates); medians of ROUNDS rounds. Both trees
// need their package built (`npx tsx scripts/build-package.ts` in each); the "before" tree is a
// worktree of the older commit:
//   git worktree add /tmp/before <commit> && ln -s "$PWD/node_modules" /tmp/before/
//   (cd /tmp/before && npx tsx scripts/build-package.ts) && npx tsx scripts/build-package.ts
//   npx tsx test/bench/probes/compare-start.ts /tmp/before .
// ROUNDS (default 5).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { median, table } from "../lib.ts";

const [before, after] = process.argv.slice(2).map((tree) => resolve(tree));
if (!before || !after) throw new Error("usage: compare-start.ts <before tree> <after tree>");
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const work = mkdtempSync(join(tmpdir(), "hanja-compare-start-"));
// The TypeScript loader, found from here: the host projects in the temporary folder have none.
const TSX = import.meta.resolve("tsx");

/** A build of the tree's pipeline into a fresh folder, quiet; prints wall and CPU milliseconds. */
const BUILD = (tree: string, out: string) => `const { buildDist } = await import(${JSON.stringify(join(tree, "pipeline/buildDist.ts"))});
const cpu = process.cpuUsage();
const started = performance.now();
await buildDist({ dataDir: ${JSON.stringify(join(tree, "pipeline/data"))}, outDir: ${JSON.stringify(out)}, sourceDateEpoch: 0, log: () => {} });
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ buildMs: performance.now() - started, buildCpuMs: (used.user + used.system) / 1000 }));
`;

/** The embedded first detail, from the package's import on (as embedded.bench.ts). */
const FIRST_DETAIL = `const started = performance.now();
const { createBundledApp } = await import("hanja-api/node");
const app = createBundledApp();
const detail = await app.fetch(new Request("http://localhost/hanja/v1/hanja/%E6%B0%B4"));
if (detail.status !== 200) throw new Error("detail: " + detail.status);
await detail.text();
console.log(JSON.stringify({ firstDetailMs: performance.now() - started }));
`;

/** A host project whose node_modules/hanja-api is the tree, as npm links a local package; its scripts. */
function host(name: string, tree: string): { build: string; detail: string; dir: string } {
  const dir = join(work, name);
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `probe-${name}`, private: true, type: "module" }));
  symlinkSync(tree, join(dir, "node_modules/hanja-api"), "dir");
  writeFileSync(join(dir, "build.mts"), BUILD(tree, join(dir, "dist")));
  writeFileSync(join(dir, "detail.mjs"), FIRST_DETAIL);
  return { build: join(dir, "build.mts"), detail: join(dir, "detail.mjs"), dir };
}

const trees = { before: host("before", before), after: host("after", after) };
const samples: Record<string, Record<string, number[]>> = { before: {}, after: {} };
const record = (name: string, figures: Record<string, number>) => {
  for (const [key, value] of Object.entries(figures)) ((samples[name] as Record<string, number[]>)[key] ??= []).push(value);
};
const run = (dir: string, args: string[]): Record<string, number> => {
  const result = spawnSync(process.execPath, args, { cwd: dir, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${args.join(" ")} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split("\n").at(-1) as string) as Record<string, number>;
};

for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? (["before", "after"] as const) : (["after", "before"] as const);
  for (const name of order) record(name, run(trees[name].dir, ["--import", TSX, trees[name].build]));
  for (const name of order) record(name, run(trees[name].dir, [trees[name].detail]));
  console.error(`round ${round + 1}/${ROUNDS} done`);
}
rmSync(work, { recursive: true, force: true });

const rows: (string | number)[][] = [["figure", "before (median)", "after (median)", "after ÷ before", "after, all rounds"]];
for (const key of ["buildMs", "buildCpuMs", "firstDetailMs"]) {
  const b = median(samples.before?.[key] ?? []);
  const a = median(samples.after?.[key] ?? []);
  rows.push([key, b.toFixed(0), a.toFixed(0), `${((a / b) * 100).toFixed(0)} %`, (samples.after?.[key] ?? []).map((v) => v.toFixed(0)).join(" ")]);
}
console.log(`Node ${process.version}, ${ROUNDS} rounds, trees interleaved\n${table(rows)}`);
