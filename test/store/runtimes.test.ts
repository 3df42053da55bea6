/**
 * The contract on the other runtimes: `smoke.ts` run by Bun (driver `bun:sqlite`) and by Deno
 * (driver `node:sqlite`, with read/write permission on the database directory and nothing else).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REDIS_CLIENT_ENV } from "../../runtime/stores/redis/redisUrl.ts";
import { type TestRedis, removeAllRedis, skipRedis, startRedis } from "../helpers/redisServer.ts";
import { contractCases } from "./contractCases.ts";
import { scaleCases } from "./scaleCases.ts";
import { usageCases } from "./usageCases.ts";
import { classCases } from "./classCases.ts";
import { SHARED_FILE_CASE } from "./sharedFile.ts";

const ROOT = join(import.meta.dirname, "../..");
const SMOKE = "test/store/smoke.ts";
const dirs: string[] = [];
afterAll(async () => {
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  await removeAllRedis();
});

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
  expect(report.passed).toEqual(
    [...contractCases, ...usageCases, ...classCases, ...scaleCases]
      .map((check) => check.name)
      .concat("keys and counts survive close and reopen", SHARED_FILE_CASE),
  );
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

describe.skipIf(skipRedis)("the Redis store on other runtimes", () => {
  let redis: Promise<TestRedis> | undefined;
  /** Runs `redisSmoke.ts` with `args` (the runtime and its flags) against the private Redis. */
  async function redisSmoke(args: (port: number) => string[]): Promise<{ runtime: string; passed: string[]; failed: unknown[] }> {
    const { port, url } = await (redis ??= startRedis());
    return new Promise((resolve, reject) => {
      execFile("npx", [...args(port), "test/store/redisSmoke.ts", url], { cwd: ROOT }, (error, stdout, stderr) => {
        try {
          resolve(JSON.parse(stdout.trim().split("\n").at(-1) ?? ""));
        } catch {
          reject(new Error(`smoke run failed (${error?.message ?? "no report"}):\n${stdout}\n${stderr}`));
        }
      });
    });
  }

  it("passes the contract on Bun", async () => {
    const report = await redisSmoke(() => ["bun"]);
    expect(report.runtime).toBe("bun");
    expect(report.failed).toEqual([]);
    expect(report.passed).toEqual([...contractCases, ...usageCases, ...classCases, ...scaleCases].map((check) => check.name));
  });

  it("passes the contract on Deno with --allow-net for the Redis host alone and the client's two variables", async () => {
    const report = await redisSmoke((port) => ["deno", "run", "--no-prompt", `--allow-net=127.0.0.1:${port}`, `--allow-env=${REDIS_CLIENT_ENV.join(",")}`]);
    expect(report.runtime).toBe("deno");
    expect(report.failed).toEqual([]);
    expect(report.passed).toEqual([...contractCases, ...usageCases, ...classCases, ...scaleCases].map((check) => check.name));
  });
});
