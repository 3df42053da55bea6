/** `npm run keys -- usage <id>`: a key's usage history from a real database file. */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quotaDay } from "../../runtime/core/quota/clock.ts";
import { keyBucket } from "../../runtime/core/quota/store.ts";
import { openSqliteStore } from "../../runtime/stores/sqlite/sqliteStore.ts";
import { keyRecord } from "./contractCases.ts";

const ROOT = join(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "quota-usage-cli-"));
const db = join(dir, "quota.sqlite");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const key = keyRecord({ plan: "annual", status: "active" });
const DAY_MS = 86_400_000;
/** The metering day (Asia/Seoul) `daysAgo` days ago. */
const day = (daysAgo: number) => quotaDay(new Date(Date.now() - daysAgo * DAY_MS), 9 * 60).day;

beforeAll(async () => {
  const store = await openSqliteStore(db);
  store.insertKey(key);
  const counts: [number, number][] = [
    [500, 1], // older than the history kept: not shown
    [10, 2],
    [0, 3],
  ];
  for (const [daysAgo, calls] of counts) for (let i = 0; i < calls; i++) await store.consume(keyBucket(key.id), day(daysAgo), 100);
  store.close();
});

/** Runs the CLI with `env` added; never rejects, so exit codes can be checked. */
function keys(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "runtime/cli/keys.ts", ...args], { cwd: ROOT, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

describe("keys usage", () => {
  it("prints the key's calls per metering day kept, oldest first, one JSON line each, and the sum on stderr", async () => {
    const { code, stdout, stderr } = await keys({}, "usage", key.id, "--db", db);
    expect(code, stderr).toBe(0);
    expect(
      stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { date: day(10), calls: 2 },
      { date: day(0), calls: 3 },
    ]);
    expect(stderr).toMatch(new RegExp(`^keys: ${key.id}: 5 calls on 2 days from \\d{4}-\\d\\d-\\d\\d to ${day(0)}\\n$`));
  });

  it("fails with exit 1 for an unknown key; exit 2 without an id or with a malformed QUOTA_TZ_OFFSET, naming it", async () => {
    const unknown = await keys({}, "usage", "key_AbCdEf123456", "--db", db);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('keys: no key with id "key_AbCdEf123456"\n');
    const [missing, offset] = await Promise.all([keys({}, "usage", "--db", db), keys({ QUOTA_TZ_OFFSET: "KST" }, "usage", key.id, "--db", db)]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^keys: usage takes exactly one key id/);
    expect(offset.code).toBe(2);
    expect(offset.stderr).toMatch(/^keys: QUOTA_TZ_OFFSET must be an offset like \+09:00, got "KST"/);
  });
});
