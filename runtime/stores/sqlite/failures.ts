/**
 * SQLite's failures that mean "cannot answer now" rather than a fault, told apart whatever the
 * driver (better-sqlite3's `code`, node:sqlite's `errcode`, bun:sqlite's `errno`, and the message
 * all three keep), and a ROLLBACK that never hides the failure that made it necessary.
 */
import { StoreUnavailableError } from "../../core/quota/store.ts";
import type { SqlDriver } from "./sqlDriver.ts";

/** SQLite's primary result codes for a lock held elsewhere, and for a full disk. */
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_FULL = 13;

/** Seconds a client is asked to wait when the disk is full: not something a second fixes. */
const FULL_RETRY_AFTER_S = 60;

/** The SQLite result code of a driver's error, or undefined. */
function resultCode(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, errcode, errno } = error as { code?: unknown; errcode?: unknown; errno?: unknown };
  if (typeof errcode === "number") return errcode & 0xff;
  if (typeof errno === "number" && error.name === "SQLiteError") return errno & 0xff;
  if (typeof code === "string" && code.startsWith("SQLITE_")) {
    if (/^SQLITE_BUSY/.test(code)) return SQLITE_BUSY;
    if (/^SQLITE_LOCKED/.test(code)) return SQLITE_LOCKED;
    if (/^SQLITE_FULL/.test(code)) return SQLITE_FULL;
  }
  if (/database is locked|database table is locked/i.test(error.message)) return SQLITE_BUSY;
  if (/database or disk is full/i.test(error.message)) return SQLITE_FULL;
  return undefined;
}

/** Whether another connection holds the lock (past `busy_timeout`): worth trying again shortly. */
export function isBusy(error: unknown): boolean {
  const code = resultCode(error);
  return code === SQLITE_BUSY || code === SQLITE_LOCKED;
}

/** Whether the disk (or the file's size limit) is full. */
export function isFull(error: unknown): boolean {
  return resultCode(error) === SQLITE_FULL;
}

/** The store failure contract's error for a busy or full database, else `error` as it is. */
export function unavailableOr(error: unknown, path: string): unknown {
  if (isFull(error)) {
    return new StoreUnavailableError(
      `quota store: the disk holding ${path} is full (SQLITE_FULL); free space there. Metered calls answer 503 meanwhile.`,
      FULL_RETRY_AFTER_S,
    );
  }
  if (isBusy(error)) return new StoreUnavailableError(`quota store: ${path} is locked by another connection (SQLITE_BUSY)`);
  return error;
}

/**
 * Rolls back after `failure`. SQLite has already rolled the transaction back after some failures
 * (a full disk among them), and then ROLLBACK itself fails ("no transaction is active"), which
 * must not replace the failure that explains what happened.
 */
export function rollbackAfter(db: SqlDriver, failure: unknown): unknown {
  try {
    db.exec("ROLLBACK");
  } catch {
    // Nothing was left to roll back.
  }
  return failure;
}
