/**
 * Fast first answer when embedded (issue 28): the time from importing the installed package to the
 * first character detail answered in process, then to the first English search, on Node, Bun and
 * Deno — the runtime's own start not counted (each probe takes its clock when its script starts).
 * Target: ≤ 60 ms to the first detail on each. The probe imports the compiled package (lib/, as an
 * installed package has it; `npm run build:package` runs first) and makes the app with the bundled
 * data. `npm run bench -- embedded`; `ROUNDS` (7) fresh processes per runtime, interleaved.
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

// A host project whose node_modules/hanja-api is this checkout (lib/ through its exports), as npm links a local package.
const dir = mkdtempSync(join(tmpdir(), "hanja-embedded-bench-"));
writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "probe", private: true, type: "module", dependencies: { "hanja-api": `file:${ROOT}` } }));
mkdirSync(join(dir, "node_modules"));
symlinkSync(ROOT, join(dir, "node_modules/hanja-api"), "dir");
const probe = join(dir, "probe.mjs");
writeFileSync(probe, PROBE);

const RUNTIMES: Record<string, string[]> = {
  node: [process.execPath, probe],
  bun: [join(BIN, "bun"), probe],
  deno: [join(BIN, "deno"), "run", "--allow-read", "--allow-env", probe],
};
const samples: Record<string, { importMs: number[]; detailMs: number[]; searchMs: number[] }> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, [command, ...args]] of Object.entries(RUNTIMES)) {
    const result = spawnSync(command as string, args, { cwd: dir, encoding: "utf8" });
    if (result.status !== 0) throw new Error(`${name} probe failed:\n${result.stderr}`);
    const figures = JSON.parse(result.stdout.trim().split("\n").at(-1) as string) as Record<"importMs" | "detailMs" | "searchMs", number>;
    const into = (samples[name] ??= { importMs: [], detailMs: [], searchMs: [] });
    for (const key of ["importMs", "detailMs", "searchMs"] as const) into[key].push(figures[key]);
  }
}
rmSync(dir, { recursive: true, force: true });

const version = (name: string) => (name === "node" ? process.version : spawnSync(RUNTIMES[name]?.[0] as string, ["--version"], { encoding: "utf8" }).stdout.split("\n")[0]);
console.log(`First answers in process from the installed package's code (lib/), median of ${ROUNDS} fresh processes per runtime, interleaved; target ≤ 60 ms to the first detail\n`);
const rows: (string | number)[][] = [["runtime", "import ms", "import → first detail ms", "then first English search ms"]];
for (const [name, s] of Object.entries(samples)) rows.push([`${name} ${version(name)}`, median(s.importMs).toFixed(1), median(s.detailMs).toFixed(1), median(s.searchMs).toFixed(1)]);
console.log(table(rows));
