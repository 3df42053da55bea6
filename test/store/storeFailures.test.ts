/**
 * The SQLite store under the store failure contract, with SQLite's failures injected into a real
 * database: a full disk (SQLITE_FULL, after which SQLite has already rolled the transaction back)
 * makes metered calls `503 service_unavailable` with `Retry-After` and a log line saying the disk
 * is full, counts nothing, and leaves interface A answering; at start-up the message names the
 * full disk, not the failed ROLLBACK that used to hide it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { quotaDay } from "../../runtime/core/quota/clock.ts";
import { openDriver } from "../../runtime/stores/sqlite/driver.ts";
import type { SqlDriver } from "../../runtime/stores/sqlite/sqlDriver.ts";
import { migrate } from "../../runtime/stores/sqlite/migrations.ts";
import { SqliteQuotaStore, openSqliteStore } from "../../runtime/stores/sqlite/sqliteStore.ts";
import { call, getJson, testApp } from "../helpers/app.ts";

const dir = mkdtempSync(join(tmpdir(), "quota-failures-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** better-sqlite3's error for a full disk. */
function diskFull(): Error {
  return Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
}

/**
 * `db` with `sql` statements failing as on a full disk while `full()` is true: SQLite rolls the
 * transaction back itself, so a later ROLLBACK fails with "no transaction is active".
 */
function fillingUp(db: SqlDriver, full: () => boolean, failing: RegExp): SqlDriver {
  return {
    name: db.name,
    close: () => db.close(),
    exec(sql) {
      if (full() && failing.test(sql)) {
        db.exec("ROLLBACK");
        throw diskFull();
      }
      db.exec(sql);
    },
    prepare: (sql) => db.prepare(sql),
  };
}

describe("a full disk", () => {
  it("metered calls answer 503 with Retry-After and a problem body, the log says the disk is full, nothing is counted, interface A answers", async () => {
    const path = join(dir, "full.sqlite");
    (await openSqliteStore(path)).close();
    let full = true;
    const store = new SqliteQuotaStore(
      fillingUp(await openDriver(path), () => full, /^COMMIT$/),
      path,
    );
    const errors: unknown[] = [];
    const app = testApp({ store, onError: (error) => void errors.push(error) });
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: unknown) => void logged.push(String(line)));
    try {
      const refused = await getJson(app, "/quiz/v1/idiom/1", { clientAddress: "192.0.2.30" });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
      expect(refused.headers.get("retry-after")).toBe("60");
      expect(refused.body).toMatchObject({ status: 503, code: "service_unavailable", title: "Service unavailable", success: false });
      // One line for the outage, with the cause; not an unexpected error.
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain('"level":"warn"');
      expect(logged[0]).toContain("is full (SQLITE_FULL)");
      expect(logged[0]).not.toContain("rollback");
      expect(errors).toEqual([]);
      expect((await call(app, "/hanja/v1/meta")).status).toBe(200);
      const day = quotaDay(new Date(), 540).day;
      expect(store.used("ip:192.0.2.30", day)).toBe(0);
      full = false;
      expect((await call(app, "/quiz/v1/idiom/1", { clientAddress: "192.0.2.30" })).status).toBe(200);
      expect(store.used("ip:192.0.2.30", day)).toBe(1);
      expect(logged[1]).toMatch(/"level":"warn".*answering again.*"unavailable_calls":1/);
    } finally {
      await app.close();
      vi.restoreAllMocks();
    }
  });

  it("at start-up, the message names the full disk, not the ROLLBACK that failed after it", async () => {
    const db = fillingUp(await openDriver(join(dir, "startup.sqlite")), () => true, /CREATE TABLE/);
    try {
      expect(() => migrate(db, "startup.sqlite")).toThrow(/database or disk is full/);
    } finally {
      db.close();
    }
  });
});
