/**
 * `npm run bench:build`: wall time and peak memory of a full build from the Unihan 17.0.0 zip,
 * against the floor of just opening the zip with unzipper, decompressing every file and splitting
 * it into lines. Targets (issue 2): build ≤ 3× the floor, peak RSS < 1 GiB.
 *
 * Each measurement runs in a fresh child process (so maxRSS is that run's own peak and neither
 * side profits from the other's warm JIT); floor and build alternate, RUNS times each, and the
 * medians are reported. Module loading is outside the timed region in both. Not a test: it prints.
 *
 * Input: `UNIHAN_ZIP` or the pinned release in pipeline/data/unihan/; CSVs from pipeline/data.
 */
import { pinnedZip, readPin } from "../../pipeline/pin/pin.ts";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import unzipper from "unzipper";
import { buildDist } from "../../pipeline/buildDist.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const ZIP = resolve(process.env.UNIHAN_ZIP || pinnedZip(readPin()));
const RUNS = 5;
const TARGET_RATIO = 3;
const TARGET_RSS_MB = 1024;

/** What one child reports on its last stdout line. */
interface Sample {
  ms: number;
  rssMb: number;
  detail: string;
}

/** The floor: open the zip, inflate every entry to text, split it into lines. */
async function floor(): Promise<string> {
  const directory = await unzipper.Open.file(ZIP);
  let lines = 0;
  let chars = 0;
  for (const file of directory.files) {
    const text = (await file.buffer()).toString("utf8");
    chars += text.length;
    lines += text.split("\n").length;
  }
  return `${directory.files.length} files, ${lines} lines, ${(chars / 1e6).toFixed(1)} M chars`;
}

/** The full pipeline into a temporary dist/, quiet. */
async function build(): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), "hanja-bench-"));
  try {
    const summary = await buildDist({
      unihan: ZIP,
      dataDir: join(ROOT, "pipeline/data"),
      outDir: join(out, "dist"),
      sourceDateEpoch: 0,
      log: () => {},
    });
    const { counts, unihan } = summary.manifest;
    return `Unihan ${unihan.version}: ${counts.characters} characters, ${counts.idioms} idioms`;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function child(kind: string): Promise<void> {
  const started = performance.now();
  const detail = kind === "floor" ? await floor() : await build();
  const ms = performance.now() - started;
  const sample: Sample = { ms, rssMb: process.resourceUsage().maxRSS / 1024, detail };
  console.log(JSON.stringify(sample));
}

function measure(kind: "floor" | "build"): Sample {
  const result = spawnSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--child", kind], { cwd: ROOT, encoding: "utf8" });
  const last = result.stdout.trim().split("\n").pop() ?? "";
  if (result.status !== 0 || !last.startsWith("{")) {
    throw new Error(`bench: the ${kind} run failed (exit ${result.status}):\n${result.stderr || result.stdout}`);
  }
  return JSON.parse(last) as Sample;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function main(): void {
  let zipBytes: number;
  try {
    zipBytes = statSync(ZIP).size;
  } catch {
    console.error(`bench: ${ZIP} not found (set UNIHAN_ZIP, or restore the pinned zip with git checkout)`);
    process.exit(1);
  }
  console.log(`Build benchmark: ${ZIP} (${(zipBytes / 1e6).toFixed(1)} MB), ${RUNS} runs each, alternating, each in a fresh process`);
  const floors: Sample[] = [];
  const builds: Sample[] = [];
  for (let i = 0; i < RUNS; i++) {
    floors.push(measure("floor"));
    builds.push(measure("build"));
    process.stderr.write(`  run ${i + 1}/${RUNS} done\n`);
  }
  console.log(`floor: ${floors[0]?.detail}`);
  console.log(`build: ${builds[0]?.detail}`);
  console.log("");
  const row = (cells: string[]) => console.log(cells.map((c, i) => (i === 0 ? c.padEnd(8) : c.padStart(14))).join(""));
  row(["run", "floor ms", "build ms", "floor RSS MB", "build RSS MB"]);
  floors.forEach((f, i) => {
    const b = builds[i] as Sample;
    row([String(i + 1), f.ms.toFixed(0), b.ms.toFixed(0), f.rssMb.toFixed(0), b.rssMb.toFixed(0)]);
  });
  const floorMs = median(floors.map((s) => s.ms));
  const buildMs = median(builds.map((s) => s.ms));
  const buildRss = median(builds.map((s) => s.rssMb));
  row(["median", floorMs.toFixed(0), buildMs.toFixed(0), median(floors.map((s) => s.rssMb)).toFixed(0), buildRss.toFixed(0)]);
  console.log("");
  const ratio = buildMs / floorMs;
  const peak = Math.max(...builds.map((s) => s.rssMb));
  const verdict = (ok: boolean) => (ok ? "ok" : "MISSED");
  console.log(`ratio build/floor (medians): ${ratio.toFixed(2)}×   target ≤ ${TARGET_RATIO}×     ${verdict(ratio <= TARGET_RATIO)}`);
  console.log(
    `peak RSS of a build (median): ${buildRss.toFixed(0)} MB (max ${peak.toFixed(0)} MB)   target < ${TARGET_RSS_MB} MB   ${verdict(buildRss < TARGET_RSS_MB && peak < TARGET_RSS_MB)}`,
  );
}

const at = process.argv.indexOf("--child");
if (at !== -1) {
  child(process.argv[at + 1] ?? "").catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main();
}
