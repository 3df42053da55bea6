/** `keys deposits`, `keys expiring` and `keys show HJ…` against a real database file. */
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqliteStore } from "../../runtime/stores/sqlite/sqliteStore.ts";
import { bigStatement } from "./bigStatement.ts";
import { keyRecord } from "./contractCases.ts";

const ROOT = join(import.meta.dirname, "../..");
const STATEMENT = join(ROOT, "fixtures/statements/shinhan-euckr.csv");
const dir = mkdtempSync(join(tmpdir(), "quota-deposits-"));
const db = join(dir, "quota.sqlite");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DAY_MS = 86_400_000;
// The statement's references: HJAB12CD (pending here) and HJZX56CV (active, ending in 10 days).
const pending = keyRecord({ id: "key_ab12cdEFGHIJ", created_at: "2026-11-01T00:00:00.000Z" });
const endsSoon = new Date(Date.now() + 10 * DAY_MS - 3_600_000).toISOString();
const active = keyRecord({ id: "key_zx56cvBNMLKJ", plan: "annual", status: "active", confirmed_at: "2025-11-01T00:00:00.000Z", expires_at: endsSoon });
const later = keyRecord({
  id: "key_late00000000",
  plan: "annual",
  status: "active",
  confirmed_at: "2026-06-01T00:00:00.000Z",
  expires_at: new Date(Date.now() + 200 * DAY_MS).toISOString(),
});

beforeAll(async () => {
  const store = await openSqliteStore(db);
  for (const key of [pending, active, later]) store.insertKey(key);
  store.close();
});

/** Runs the CLI on the test database; never rejects, so exit codes can be checked. */
function keys(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "runtime/cli/keys.ts", ...args, "--db", db], { cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

/**
 * Runs the CLI with `input` on stdin (or none), stdout taken as it comes: its lines counted, the
 * first `keep` kept and those `pick` selects; and the process's peak resident memory (maxRSS, MB).
 */
function keysStreamed(
  args: string[],
  options: { input?: Buffer; keep?: number; pick?: (line: string) => boolean } = {},
): Promise<{ code: number | null; lines: number; kept: string[]; picked: string[]; stderr: string; maxRssMb: number; ms: number }> {
  const { input, keep = Number.POSITIVE_INFINITY, pick = () => false } = options;
  // Writes the process's peak RSS on stderr as it exits.
  const peak = "data:text/javascript,process.on('exit',()=>process.stderr.write('maxRSS '+process.resourceUsage().maxRSS+'\\n'))";
  const started = Date.now();
  const child = spawn(process.execPath, ["--import", "tsx", "--import", peak, "runtime/cli/keys.ts", ...args, "--db", db], { cwd: ROOT });
  let lines = 0;
  let rest = "";
  const kept: string[] = [];
  const picked: string[] = [];
  let stderr = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop() ?? "";
    for (const line of parts) {
      if (lines++ < keep) kept.push(line);
      if (pick(line)) picked.push(line);
    }
  });
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => void (stderr += chunk));
  child.stdin.end(input);
  return new Promise((resolve) =>
    child.once("close", (code) => {
      const rss = /^maxRSS (\d+)$/m.exec(stderr);
      resolve({
        code,
        lines,
        kept,
        picked,
        stderr: stderr.replace(/^maxRSS \d+\n/m, ""),
        maxRssMb: Number(rss?.[1] ?? Number.NaN) / 1024,
        ms: Date.now() - started,
      });
    }),
  );
}

const lines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));

describe("keys deposits, expiring, show HJ…", () => {
  it("reports an EUC-KR statement without changing anything, credits it with --apply, and credits nothing the second time", async () => {
    const dry = await keys("deposits", STATEMENT);
    expect(dry.code).toBe(0);
    expect(lines(dry.stdout).map((r) => [r.line, r.outcome, r.key ?? null, r.action ?? null])).toEqual([
      [2, "matched", pending.id, "confirm"],
      [3, "matched", active.id, "renew"],
      [5, "unmatched", null, null],
    ]);
    expect(dry.stderr).toMatch(/^keys: deposits \(euc-kr\): 2 matched, 1 unmatched, .*nothing changed: run again with --apply/);
    expect(JSON.parse((await keys("show", pending.id)).stdout)).toMatchObject({ status: "pending_deposit" });

    const applied = await keys("deposits", STATEMENT, "--apply");
    expect(applied.code).toBe(0);
    expect(applied.stderr).toMatch(/; 2 credited\n$/);
    const renewed = JSON.parse((await keys("show", active.id)).stdout);
    expect(renewed).toMatchObject({ status: "active", confirmed_at: "2026-11-20T15:00:00.000Z" });
    expect(Date.parse(renewed.expires_at)).toBeGreaterThan(Date.parse(endsSoon) + 364 * DAY_MS);

    const again = await keys("deposits", STATEMENT, "--apply", "--encoding", "cp949");
    expect(lines(again.stdout).map((r) => r.outcome)).toEqual(["counted", "counted", "unmatched"]);
    expect(again.stderr).toMatch(/; 0 credited\n$/);
    expect(JSON.parse((await keys("show", active.id)).stdout).expires_at).toBe(renewed.expires_at);
  });

  it("refuses a bad encoding or --columns as usage (exit 2), an unreadable statement with exit 1, changing nothing", async () => {
    const encoding = await keys("deposits", STATEMENT, "--encoding", "latin1");
    expect(encoding.code).toBe(2);
    expect(encoding.stderr).toContain('--encoding must be utf-8 or euc-kr (cp949), got "latin1"');
    const columns = await keys("deposits", STATEMENT, "--columns", "when=x");
    expect(columns.code).toBe(2);
    expect(columns.stderr).toContain('"when=x" does not start with date=, depositor= or amount=');
    const utf8 = await keys("deposits", STATEMENT, "--encoding", "utf-8");
    expect(utf8.code).toBe(1);
    expect(utf8.stderr).toMatch(/shinhan-euckr\.csv: not valid UTF-8 \(try --encoding euc-kr\); nothing changed/);
    const apply = await keys("list", "--apply");
    expect(apply.code).toBe(2);
    expect(apply.stderr).toContain("--apply, --encoding and --columns only apply to deposits");
  });

  it("lists the keys expiring within N days, soonest first, with the days left and the reference to pay with", async () => {
    // After the deposits above: the pending key ends in a year, the one that ended in 10 days in about 375.
    const soon = await keys("expiring", "--within", "400");
    expect(soon.code).toBe(0);
    expect(lines(soon.stdout).map((r) => [r.id, r.reference, r.days_left])).toEqual([
      [later.id, "HJLATE00", 200],
      [pending.id, "HJAB12CD", 365],
      [active.id, "HJZX56CV", expect.any(Number)],
    ]);
    expect(lines((await keys("expiring", "--within", "250")).stdout).map((r) => r.id)).toEqual([later.id]);
    expect((await keys("expiring")).stdout).toBe("");
    const bad = await keys("expiring", "--within", "soon");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--within must be a whole number of days, got "soon"');
  });

  it("shows a key by its payment reference, in any case; an unknown reference is exit 1 naming it", async () => {
    const shown = await keys("show", "hjab12cd");
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: pending.id, payment_reference: "HJAB12CD", plan: "annual" });
    const unknown = await keys("show", "HJ000000");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('keys: no key with payment reference "HJ000000"\n');
  });

  it("reads a statement from stdin (-) as from a file", async () => {
    const fromFile = await keys("deposits", STATEMENT);
    const fromStdin = await keysStreamed(["deposits", "-"], { input: readFileSync(STATEMENT) });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    // The keys' ends are written from now: the same but for the time each run took.
    const timeless = (line: string) => line.replace(/"expires_at":"[^"]*"/, "");
    expect(fromStdin.kept.map(timeless)).toEqual(fromFile.stdout.trim().split("\n").map(timeless));
    expect(fromStdin.stderr).toBe(fromFile.stderr);
  });

  it("reads a 65 MB statement in under 200 MB of memory, a spoofed row unreadable, every line reported in order", { timeout: 120_000 }, async () => {
    const file = join(dir, "big.csv");
    const spoofed = 500_000;
    const last = await bigStatement(file, 65_000_000, {
      // 1,000 won from a depositor named "HJAB12CD,,9900", written unquoted.
      [spoofed]: "2026-11-20 10:00:00,타행이체,HJAB12CD,,9900,0,1000,51000\n",
    });
    expect(statSync(file).size).toBeGreaterThanOrEqual(65_000_000);
    const run = await keysStreamed(["deposits", file], { keep: 3, pick: (line) => line.startsWith(`{"line":${spoofed},`) });
    console.log(
      `keys deposits, ${(statSync(file).size / 1e6).toFixed(1)} MB statement of ${last - 1} deposits: ${run.ms} ms, maxRSS ${run.maxRssMb.toFixed(0)} MB`,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.maxRssMb).toBeLessThanOrEqual(200);
    expect(run.lines).toBe(last - 1);
    expect(run.kept.map((line) => JSON.parse(line).line)).toEqual([2, 3, 4]);
    expect(run.picked.map((line) => JSON.parse(line))).toEqual([
      { line: spoofed, outcome: "unreadable", detail: expect.stringMatching(/^8 cells where the header has 6: /) },
    ]);
    expect(run.stderr).toBe(
      `keys: deposits (utf-8): 0 matched, ${last - 2} unmatched, 0 short, 0 ambiguous, 0 counted, 0 revoked, 0 early, 1 unreadable; nothing changed\n`,
    );
  });
});
