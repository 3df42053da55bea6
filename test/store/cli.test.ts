/** The operator CLI (`npm run keys`) against a real database file. */
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDriver } from "../../runtime/stores/sqlite/driver.ts";
import { openSqliteStore } from "../../runtime/stores/sqlite/sqliteStore.ts";
import { DAILY_LIMITS } from "../../runtime/core/quota/plans.ts";
import { count } from "../../runtime/core/util/count.ts";
import { SWEEP_LEASE } from "../../runtime/core/quota/retention.ts";
import { unprivileged } from "../helpers/unprivileged.ts";
import { keyRecord } from "./contractCases.ts";

const ROOT = join(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "quota-cli-"));
const db = join(dir, "quota.sqlite");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pendingOld = keyRecord({ created_at: "2025-01-01T00:00:00.000Z", email: "old@example.com" });
const pendingNew = keyRecord({
  created_at: "2025-02-01T00:00:00.000Z",
  applicant: { name: "이순신", email: "new@example.com", phone: "010-0000-0000", depositor: "이순신" },
});
const expired = keyRecord({
  created_at: "2023-01-01T00:00:00.000Z",
  plan: "annual",
  status: "active",
  confirmed_at: "2023-01-02T00:00:00.000Z",
  expires_at: "2024-01-02T00:00:00.000Z",
});

beforeAll(async () => {
  const store = await openSqliteStore(db);
  for (const key of [pendingOld, pendingNew, expired]) store.insertKey(key);
  store.close();
});

/** Runs the CLI; never rejects, so exit codes can be checked. */
function keys(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return keysWithEnv(process.env, ...args);
}

function keysWithEnv(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return keysRun(process.execPath, ["--import", "tsx", "runtime/cli/keys.ts", ...args], env);
}

/** Runs the keys CLI (`command` with `args`) in the project to its exit. */
function keysRun(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: ROOT, env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

/** Runs the keys CLI bound by file permissions even when the tests run as root (`unprivileged`). */
function keysUnprivileged(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { command, args: all } = unprivileged(process.execPath, ["--import", "tsx", "runtime/cli/keys.ts", ...args]);
  return keysRun(command, all, process.env);
}

describe("keys CLI", () => {
  it("lists keys newest first, one JSON line each, with the live status", async () => {
    const { code, stdout } = await keys("list", "--db", db);
    expect(code).toBe(0);
    const lines = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line["id"])).toEqual([pendingNew.id, pendingOld.id, expired.id]);
    expect(lines[0]).toEqual({
      id: pendingNew.id,
      plan: "free",
      status: "pending_deposit",
      reference: `HJ${pendingNew.id.slice(4, 10).toUpperCase()}`,
      created_at: pendingNew.created_at,
      expires_at: null,
      name: "이순신",
      email: "new@example.com",
      depositor: pendingNew.applicant.depositor,
    });
    expect(lines[2]?.["status"]).toBe("expired");
  });

  it("filters by the status at this moment, as GET /admin/keys?status= does: an expired key is expired, not active", async () => {
    const ids = async (status: string) => {
      const { code, stdout, stderr } = await keys("list", "--status", status, "--db", db);
      expect(code, stderr).toBe(0);
      return stdout.trim() === ""
        ? []
        : stdout
            .trim()
            .split("\n")
            .map((line) => JSON.parse(line).id);
    };
    expect(await ids("pending_deposit")).toEqual([pendingNew.id, pendingOld.id]);
    expect(await ids("expired")).toEqual([expired.id]);
    expect(await ids("active")).toEqual([]);
    expect(await ids("revoked")).toEqual([]);
    const bogus = await keys("list", "--status", "bogus", "--db", db);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain('unknown status "bogus"');
  });

  it("shows one key with the applicant's details and without its hash", async () => {
    const { code, stdout } = await keys("show", pendingNew.id, "--db", db);
    expect(code).toBe(0);
    const { hash: _hash, ...rest } = pendingNew;
    expect(JSON.parse(stdout)).toEqual({ ...rest, payment_reference: `HJ${pendingNew.id.slice(4, 10).toUpperCase()}`, erased_at: null });
    expect(stdout).not.toContain(pendingNew.hash);
  });

  it("confirms a pending key for one calendar year, then revokes it; a revoked key cannot be confirmed", async () => {
    const before = Date.now();
    const confirmed = await keys("confirm", pendingOld.id, "--db", db);
    expect(confirmed.code).toBe(0);
    const key = JSON.parse(confirmed.stdout);
    expect(key).toMatchObject({ id: pendingOld.id, plan: "annual", status: "active" });
    const yearLater = new Date(key.confirmed_at);
    yearLater.setUTCFullYear(yearLater.getUTCFullYear() + 1);
    expect(key.expires_at).toBe(yearLater.toISOString());
    expect(Date.parse(key.confirmed_at)).toBeGreaterThanOrEqual(before - 1000);

    const revoked = await keys("revoke", pendingOld.id, "--db", db);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ id: pendingOld.id, status: "revoked" });

    const again = await keys("confirm", pendingOld.id, "--db", db);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("is revoked");

    const store = await openSqliteStore(db);
    expect(store.keyById(pendingOld.id)?.status).toBe("revoked");
    store.close();
  });

  it("renews an expired key; confirming it again says nothing changed and changes nothing", async () => {
    const { code, stdout, stderr } = await keys("confirm", expired.id, "--db", db);
    expect(code).toBe(0);
    expect(stderr).not.toContain("nothing changed");
    const key = JSON.parse(stdout);
    expect(key.status).toBe("active");
    expect(Date.parse(key.expires_at)).toBeGreaterThan(Date.now() + 364 * 86_400_000);

    const again = await keys("confirm", expired.id, "--db", db);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).expires_at).toBe(key.expires_at);
    expect(again.stderr).toContain(`keys: key "${expired.id}" is already active (annual until ${key.expires_at}): nothing changed.`);
  });

  it("fails with exit 1 and a message for an unknown id or a missing database", async () => {
    for (const command of ["show", "confirm", "revoke"]) {
      const result = await keys(command, "key_doesNotExist", "--db", db);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('no key with id "key_doesNotExist"');
    }
    const missing = await keys("list", "--db", join(dir, "nope.sqlite"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no quota database at");
  });

  it("fails with exit 1 and the reason, not a stack, for a file that is not its database (and leaves it as it was)", async () => {
    const notSqlite = join(dir, "notes.txt");
    writeFileSync(notSqlite, "just some text, long enough to be read as a corrupt database header\n".repeat(20));
    const other = join(dir, "other.sqlite");
    const db = await openDriver(other);
    db.exec("CREATE TABLE notes (text TEXT)");
    db.close();
    const before = readFileSync(other);
    for (const [path, reason] of [
      [notSqlite, "file is not a database"],
      [other, "is another program's database (it holds notes and no quota schema)"],
    ] as const) {
      const result = await keys("list", "--db", path);
      expect(result.code, path).toBe(1);
      expect(result.stderr).toContain(`keys: cannot open ${path}: `);
      expect(result.stderr).toContain(reason);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    expect(readFileSync(other).equals(before)).toBe(true);
  });

  it("lists and shows the keys of a database it may not write (a backup), and refuses to confirm there", async () => {
    const away = mkdtempSync(join(tmpdir(), "hanja-cli-readonly-"));
    try {
      chmodSync(away, 0o777);
      const path = join(away, "backup.sqlite");
      const store = await openSqliteStore(path);
      store.insertKey(pendingOld);
      store.close();
      // Root may write any file: the CLI runs without the powers that bypass file permissions.
      chmodSync(path, 0o444);
      const listed = await keysUnprivileged("list", "--db", path);
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout).id).toBe(pendingOld.id);
      expect((await keysUnprivileged("show", pendingOld.id, "--db", path)).code).toBe(0);
      const confirmed = await keysUnprivileged("confirm", pendingOld.id, "--db", path);
      expect(confirmed.code).toBe(1);
      expect(confirmed.stderr).toContain(`keys: cannot open ${path}: quota store: cannot write ${path}: attempt to write a readonly database`);
    } finally {
      rmSync(away, { recursive: true, force: true });
    }
  });

  it("prints usage and exits 2 for an unknown command or bad arguments, 0 for --help", async () => {
    const unknown = await keys("frobnicate", "--db", db);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    expect(unknown.stderr).toContain("Usage:");
    expect((await keys("show", "--db", db)).code).toBe(2);
    expect((await keys("list", "--bogus")).code).toBe(2);
    const help = await keys("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("confirm <id>");
  });

  it("reads the database path from QUOTA_DB", async () => {
    const { code, stdout } = await keysWithEnv({ ...process.env, QUOTA_DB: db }, "list");
    expect(code).toBe(0);
    expect(stdout.trim().split("\n")).toHaveLength(3);
  });
});

describe("the keys CLI and the registry's kinds", () => {
  const withEnv = (env: NodeJS.ProcessEnv, ...args: string[]) => keysWithEnv({ ...process.env, ...env }, ...args);

  it("lists the kinds, their options and the annual plan's limit (from the plans module) in --help", async () => {
    const help = await withEnv({}, "--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--store <kind>             the quota store: sqlite, memory");
    expect(help.stdout).toContain("--db <path>                $QUOTA_DB: SQLite file");
    expect(help.stdout).toContain(`annual plan (${count(DAILY_LIMITS.annual)} calls a day)`);
  });

  it("refuses the memory store, which lives inside one server, with the reason (exit 1), from --store or QUOTA_STORE", async () => {
    for (const result of [await withEnv({}, "list", "--store", "memory"), await withEnv({ QUOTA_STORE: "memory" }, "list")]) {
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        "keys: the memory store lives inside one server process and is out of this command's reach; use that server's admin routes (ADMIN_TOKEN)",
      );
    }
  });

  it("names an unknown kind as bad usage (exit 2)", async () => {
    const result = await withEnv({}, "list", "--store", "bogus");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('keys: unknown store "bogus"; choose sqlite or memory or redis');
  });

  it("says which option or variable names a store that does not exist, and creates nothing", async () => {
    const path = join(dir, "missing.sqlite");
    const result = await withEnv({ QUOTA_STORE: "sqlite" }, "list", "--db", path);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`keys: no quota database at ${path} (set --db or QUOTA_DB)`);
  });
});

describe("keys CLI: personal data retention", () => {
  it("lists what is about to be erased, soonest first, and erases what is due, logging no personal data", async () => {
    const path = join(dir, "retention.sqlite");
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    const due = keyRecord({ created_at: daysAgo(31), applicant: { name: "강감찬", email: "due@example.com", phone: "010-1111-2222", depositor: "강감찬" } });
    const soon = keyRecord({ created_at: daysAgo(28), email: "soon@example.com" });
    const fresh = keyRecord({ created_at: daysAgo(1), email: "fresh@example.com" });
    const store = await openSqliteStore(path);
    for (const key of [due, soon, fresh]) store.insertKey(key);
    store.close();

    const week = await keys("erasures", "--db", path);
    expect(week.code, week.stderr).toBe(0);
    const listed = week.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: string; status: string; erase_at: string; payment_reference: string });
    expect(listed.map((e) => e.id)).toEqual([due.id, soon.id]);
    expect(listed[1]).toMatchObject({ status: "pending_deposit", erase_at: new Date(Date.parse(soon.created_at) + 30 * 86_400_000).toISOString() });
    expect(
      (await keys("erasures", "--within", "0", "--db", path)).stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).id),
    ).toEqual([due.id]);
    expect((await keysWithEnv({ ...process.env, RETENTION_DAYS: "60" }, "erasures", "--db", path)).stdout).toBe("");
    expect((await keys("erasures", "--within", "soon", "--db", path)).code).toBe(2);
    // The server's bounds: a period RETENTION_DAYS may not have is bad usage here too.
    const tooLong = await keysWithEnv({ ...process.env, RETENTION_DAYS: "3651" }, "erasures", "--db", path);
    expect([tooLong.code, tooLong.stderr]).toEqual([2, expect.stringContaining("--retention (RETENTION_DAYS) must be from 1 to 3650 days, got 3651")]);

    // While another process holds the sweep's lease (a server sweeping), erase leaves it the work.
    const holder = await openSqliteStore(path);
    expect(holder.acquireLease(SWEEP_LEASE, "a server", 60_000)).toBe(true);
    const refused = await keys("erase", "--db", path);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/another process is erasing personal data now .*nothing erased/);
    holder.releaseLease(SWEEP_LEASE, "a server");
    holder.close();

    const erased = await keys("erase", "--db", path);
    expect(erased.code, erased.stderr).toBe(0);
    expect(JSON.parse(erased.stdout)).toEqual({ erased: 1 });
    expect(JSON.parse(erased.stderr)).toMatchObject({ level: "info", key_id: due.id, status: "pending_deposit" });
    for (const personal of ["강감찬", "due@example.com", "010-1111"]) expect(erased.stderr).not.toContain(personal);
    const shown = JSON.parse((await keys("show", due.id, "--db", path)).stdout) as { applicant: unknown; erased_at: string | null; status: string };
    expect(shown).toMatchObject({ status: "pending_deposit", applicant: { name: "", email: "", phone: null, depositor: null } });
    expect(shown.erased_at).not.toBeNull();
  });
});
