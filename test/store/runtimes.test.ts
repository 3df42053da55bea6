/**
 * The contract on the other runtimes: `smoke.ts` run by Bun (driver `bun:sqlite`) and by Deno
 * (driver `node:sqlite`, with read/write permission on the database directory and nothing else).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { contractCases } from "./contractCases.ts";
import { SHARED_FILE_CASE } from "./sharedFile.ts";

const ROOT = join(import.meta.dirname, "../..");
const SMOKE = "test/store/smoke.ts";
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

interface SmokeReport {
  runtime: string;
  driver: string;
  passed: string[];
  failed: { name: string; error: string }[];
}

/** Runs `npx <args…> <dir>` in the project and parses the report on its last stdout line. */
function smoke(args: (dir: string) => string[]): Promise<SmokeReport> {
  const dir = mkdtempSync(join(tmpdir(), "quota-smoke-"));
  dirs.push(dir);
  return new Promise((resolve, reject) => {
    execFile("npx", [...args(dir), dir], { cwd: ROOT }, (error, stdout, stderr) => {
      const last = stdout.trim().split("\n").at(-1) ?? "";
      try {
        resolve(JSON.parse(last) as SmokeReport);
      } catch {
        reject(new Error(`smoke run failed (${error?.message ?? "no report"}):\n${stdout}\n${stderr}`));
      }
    });
  });
}

function expectAllPassed(report: SmokeReport): void {
  expect(report.failed).toEqual([]);
  expect(report.passed).toEqual([...contractCases.map((check) => check.name), "keys and counts survive close and reopen", SHARED_FILE_CASE]);
}

describe("the SQLite store on other runtimes", () => {
  it("passes the contract on Bun with bun:sqlite", async () => {
    const report = await smoke(() => ["bun", SMOKE]);
    expect(report).toMatchObject({ runtime: "bun", driver: "bun:sqlite" });
    expectAllPassed(report);
  });

  it("passes the contract on Deno with node:sqlite and only --allow-read/--allow-write on its directory", async () => {
    const report = await smoke((dir) => ["deno", "run", `--allow-read=${dir}`, `--allow-write=${dir}`, SMOKE]);
    expect(report).toMatchObject({ runtime: "deno", driver: "node:sqlite" });
    expectAllPassed(report);
  });
});
