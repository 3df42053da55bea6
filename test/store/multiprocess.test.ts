/**
 * Exact counts across processes sharing one SQLite file: k workers each call `consume` in a
 * tight loop on the same bucket and day, released together; the grants must add up to
 * min(total, limit) and be exactly the counts 1…that, each granted once.
 *
 * With a limit of 30 one process usually takes all 30 while the others sleep in SQLite's busy
 * handler; the large case keeps the processes interleaving for seconds, and is the one that
 * fails a counter written as read-then-write (checked by hand against such a mutant).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { openSqliteStore } from "../../runtime/stores/sqlite/sqliteStore.ts";

const ROOT = join(import.meta.dirname, "../..");
const WORKER = join(import.meta.dirname, "consumeWorker.ts");
const DAY = "2025-03-01";
const dir = mkdtempSync(join(tmpdir(), "quota-multiprocess-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface WorkerReport {
  driver: string;
  granted: number[];
}

/** Starts a worker and resolves once it is ready; `go(startAt)` releases it at that instant (epoch ms), `done` is its report. */
function startWorker(args: string[]): Promise<{ go: (startAt: number) => void; done: Promise<WorkerReport> }> {
  const child = spawn(process.execPath, ["--import", "tsx", WORKER, ...args], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  return new Promise((resolveReady, rejectReady) => {
    let report: WorkerReport | undefined;
    lines.on("line", (line) => {
      if (line === "ready") resolveReady({ go: (startAt) => child.stdin.write(`${startAt}\n`), done });
      else report = JSON.parse(line) as WorkerReport;
    });
    const done = exited.then((code) => {
      if (code !== 0 || report === undefined) throw new Error(`worker exited ${code}: ${stderr}`);
      return report;
    });
    done.catch(rejectReady);
  });
}

async function race(workers: number, callsEach: number, limit: number): Promise<void> {
  const path = join(dir, `race-${workers}-${callsEach}-${limit}.sqlite`);
  (await openSqliteStore(path)).close(); // migrate once up front; the workers race on counts only
  const bucket = `bucket-${workers}`;
  const started = await Promise.all(Array.from({ length: workers }, () => startWorker([path, bucket, DAY, String(limit), String(callsEach)])));
  const startAt = Date.now() + 50;
  for (const worker of started) worker.go(startAt);
  const reports = await Promise.all(started.map((worker) => worker.done));

  const expected = Math.min(workers * callsEach, limit);
  const granted = reports.flatMap((report) => report.granted).sort((a, b) => a - b);
  expect(reports.map((report) => report.driver)).toEqual(Array(workers).fill("better-sqlite3"));
  expect(granted.length).toBe(expected);
  expect(granted).toEqual(Array.from({ length: expected }, (_, i) => i + 1));
  const store = await openSqliteStore(path);
  expect(store.used(bucket, DAY)).toBe(expected);
  store.close();
}

describe("SqliteQuotaStore across processes", () => {
  it("2 processes × 100 calls against a limit of 30 → exactly 30", () => race(2, 100, 30));
  it("4 processes × 50 calls against a limit of 30 → exactly 30", () => race(4, 50, 30));
  it("4 processes × 1000 calls against a limit of 3000 → exactly 3000 (contention while granting)", () => race(4, 1000, 3000));
});
