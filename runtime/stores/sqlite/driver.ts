/**
 * The choice of SQLite driver among `bun:sqlite`, `node:sqlite` and `better-sqlite3` (each
 * implementing the interface of `sqlDriver.ts`). The choice is made by looking at the runtime,
 * never by trying imports until one works: a failed import would hide a real installation
 * problem behind a silent fallback. Each driver lives in its own file and is imported lazily,
 * so a bundle can leave the two it does not need external and never load them.
 */
import { accessSync, constants, existsSync, mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { DriverName, SqlDriver } from "./sqlDriver.ts";

/** Node gained an unflagged `node:sqlite` in 22.13 and 23.4 (22.5–22.12 need `--experimental-sqlite`). */
function nodeHasSqlite(version: string): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major > 23 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13);
}

/** The driver for the runtime this code runs on: Bun's own, Deno's and new Node's `node:sqlite`, else `better-sqlite3`. */
export function detectDriver(): DriverName {
  if (typeof Bun !== "undefined") return "bun:sqlite";
  if (typeof (globalThis as { Deno?: unknown }).Deno !== "undefined") return "node:sqlite";
  return nodeHasSqlite(process.versions.node) ? "node:sqlite" : "better-sqlite3";
}

/**
 * Opens (creating it and its directory if needed) the database file at `path` with the runtime's
 * driver. The driver is loaded first, so a missing one leaves no empty folder behind.
 */
export async function openDriver(path: string): Promise<SqlDriver> {
  const open = await loadDriver(detectDriver());
  if (path === ":memory:") return open(path);
  mkdirSync(dirname(path), { recursive: true });
  try {
    return open(path);
  } catch (error) {
    throw withPermissionCause(error, path);
  }
}

/**
 * SQLite says "unable to open database file" whatever kept it from opening; the usual causes, a
 * path that is a folder, a folder this process may not write (SQLite creates the file and its -wal
 * and -shm files there) or a file it may not read, are added to the message. A check that cannot
 * be made (Deno without `--allow-sys` refuses `access()`) names no cause rather than a wrong one.
 */
function withPermissionCause(error: unknown, path: string): unknown {
  if (!(error instanceof Error)) return error;
  const folder = dirname(path);
  const cause = isFolder(path)
    ? "it is a folder; QUOTA_DB names the database file"
    : mayAccess(folder, constants.W_OK | constants.X_OK) === false
      ? `the folder ${folder} is not writable by this process`
      : existsSync(path) && mayAccess(path, constants.R_OK) === false
        ? "the file is not readable by this process"
        : undefined;
  return cause === undefined ? error : new Error(`${error.message} (${cause})`);
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Whether this process may access `path` in `mode`; undefined when the check itself is refused or fails otherwise. */
function mayAccess(path: string, mode: number): boolean | undefined {
  try {
    accessSync(path, mode);
    return true;
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code === "EACCES" || code === "EPERM" || code === "EROFS" ? false : undefined;
  }
}

/** A driver's module, loaded: its function opening a database file. */
async function loadDriver(name: DriverName): Promise<(path: string) => SqlDriver> {
  switch (name) {
    case "bun:sqlite":
      return (await import("./driver.bun.ts")).loadBunSqlite();
    case "node:sqlite":
      return (await import("./driver.node-sqlite.ts")).loadNodeSqlite();
    case "better-sqlite3":
      return (await import("./driver.better-sqlite3.ts")).loadBetterSqlite3();
  }
}
