/**
 * On SQLite a 503 has changed nothing (README "Failure contract"): while another connection holds
 * the write lock, an application and a count fail with `StoreUnavailableError` because their
 * statement or transaction could not take the lock, so nothing was written; once the lock is
 * released the same application is accepted and the count starts from zero. (The servers on each
 * runtime: test/conformance/storeLock.test.ts.)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { StoreUnavailableError, keyBucket } from "../../runtime/core/quota/store.ts";
import { openSqliteStore } from "../../runtime/stores/sqlite/sqliteStore.ts";
import { keyRecord } from "./contractCases.ts";

const dir = mkdtempSync(join(tmpdir(), "quota-sqlite-locked-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const DAY = "2025-03-01";

describe("SQLite locked by another connection", () => {
  it("an application and a count answered 503 are not stored: the same application and count succeed once the lock is gone", async () => {
    const path = join(dir, "quota.sqlite");
    const store = await openSqliteStore(path);
    const other = new Database(path, { timeout: 5_000 });
    try {
      const key = keyRecord({ email: "locked@example.com" });
      other.exec("BEGIN IMMEDIATE");
      let insertError: unknown;
      try {
        store.insertKey(key);
      } catch (error) {
        insertError = error;
      }
      const countError = await Promise.resolve(store.consume(keyBucket(key.id), DAY, 100)).catch((error: unknown) => error);
      other.exec("COMMIT");

      expect(insertError).toBeInstanceOf(StoreUnavailableError);
      expect((insertError as Error).message).toMatch(/locked by another connection \(SQLITE_BUSY\)/);
      expect(countError).toBeInstanceOf(StoreUnavailableError);
      expect((countError as Error).message).toMatch(/the call was not counted/);
      expect(store.keyById(key.id)).toBeNull();
      expect(store.used(keyBucket(key.id), DAY)).toBe(0);

      store.insertKey(key);
      expect(store.keyById(key.id)).toMatchObject({ id: key.id, status: "pending_deposit" });
      expect(await store.consume(keyBucket(key.id), DAY, 100)).toEqual({ allowed: true, used: 1 });
    } finally {
      other.close();
      store.close();
    }
  });
});
