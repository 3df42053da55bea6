/**
 * Fast first answer when embedded (issue 28): the time from importing the installed package to the
 * first character detail answered in process, then to the first English search, on Node, Bun and
 * Deno — the runtime's own start not counted (each probe takes its clock when its script starts).
 * Target: ≤ 60 ms to the first detail on each. The probe imports the compiled package (lib/, as an
 * installed package has it; `npm run build:package` runs first) and makes the app with the bundled
 * data. `npm run bench -- embedded`; `ROUNDS` (7) fresh processes per runtime, interleaved.
 *
 * Beside it, in the same rounds, a floor probe does on each runtime what the first detail needs
 * from the runtime itself, without the package: import the node: modules `hanja-api/node` imports,
 * make a Web Request and Response (Node 20 loads its fetch implementation on first use), read the
 * files the first detail reads and parse the tables. No package can answer faster than that.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, ROOT, median, table } from "./lib.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 7);

execFileSync(process.execPath, [join(BIN, "tsx"), "scripts/build-package.ts"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });

const PROBE = `const started = performance.now();
const { createBundledApp } = await import("hanja-api/node");
const imported = performance.now();
const app = createBundledApp();
const detail = await app.fetch(new Request("http://localhost/hanja/v1/hanja/%E6%B0%B4"));
if (detail.status !== 200) throw new Error("detail: " + detail.status);
await detail.text();
const detailed = performance.now();
const search = await app.fetch(new Request("http://localhost/hanja/v1/hanja?q=water"));
if (search.status !== 200) throw new Error("search: " + search.status);
await search.text();
const searched = performance.now();
console.log(JSON.stringify({ importMs: imported - started, detailMs: detailed - started, searchMs: searched - detailed }));
`;

const FLOOR = `const started = performance.now();
const [{ readFileSync }, { join }, { fileURLToPath }] = await Promise.all([import("node:fs"), import("node:path"), import("node:url"), import("node:module"), import("node:stream")]);
new Request("http://localhost/hanja/v1/hanja/%E6%B0%B4");
const dist = join(fileURLToPath(import.meta.resolve("hanja-api/package.json")), "../lib/dist");
JSON.parse(readFileSync(join(dist, "manifest.json"), "utf8"));
JSON.parse(readFileSync(join(dist, "tables.json"), "utf8"));
const details = readFileSync(join(dist, "details.jsonl"));
await new Response(details.subarray(0, 1000), { status: 200, headers: { "Content-Type": "application/json" } }).text();
console.log(JSON.stringify({ floorMs: performance.now() - started }));
`;

// A host project whose node_modules/hanja-api is this checkout (lib/ through its exports), as npm links a local package.
const dir = mkdtempSync(join(tmpdir(), "hanja-embedded-bench-"));
writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "probe", private: true, type: "module", dependencies: { "hanja-api": `file:${ROOT}` } }));
mkdirSync(join(dir, "node_modules"));
symlinkSync(ROOT, join(dir, "node_modules/hanja-api"), "dir");
const probe = join(dir, "probe.mjs");
writeFileSync(probe, PROBE);
const floor = join(dir, "floor.mjs");
writeFileSync(floor, FLOOR);

/** The command that runs a script on each runtime. */
const RUNTIMES: Record<string, (script: string) => string[]> = {
  node: (script) => [process.execPath, script],
  bun: (script) => [join(BIN, "bun"), script],
  deno: (script) => [join(BIN, "deno"), "run", "--allow-read", "--allow-env", script],
};
const FIGURES = ["importMs", "detailMs", "searchMs", "floorMs"] as const;
type Figure = (typeof FIGURES)[number];
/** The figures a script prints on its last line. */
const run = (name: string, script: string): Partial<Record<Figure, number>> => {
  const [command, ...args] = (RUNTIMES[name] as (script: string) => string[])(script);
  const result = spawnSync(command as string, args, { cwd: dir, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${name} ${script} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split("\n").at(-1) as string) as Partial<Record<Figure, number>>;
};
const samples: Record<string, Record<Figure, number[]>> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const name of Object.keys(RUNTIMES)) {
    const figures = { ...run(name, probe), ...run(name, floor) };
    const into = (samples[name] ??= { importMs: [], detailMs: [], searchMs: [], floorMs: [] });
    for (const key of FIGURES) into[key].push(figures[key] as number);
  }
}
rmSync(dir, { recursive: true, force: true });

const version = (name: string) => (name === "node" ? process.version : spawnSync(join(BIN, name), ["--version"], { encoding: "utf8" }).stdout.split("\n")[0]);
console.log(
  `First answers in process from the installed package's code (lib/), median of ${ROUNDS} fresh processes per runtime, interleaved; target ≤ 60 ms to the first detail\n`,
);
const rows: (string | number)[][] = [["runtime", "import ms", "import → first detail ms", "then first English search ms", "floor ms (the runtime alone)"]];
for (const [name, s] of Object.entries(samples)) {
  rows.push([`${name} ${version(name)}`, ...FIGURES.map((key) => median(s[key]).toFixed(1))]);
}
console.log(table(rows));
