/**
 * The one tiny interface the SQLite store uses over `bun:sqlite`, `node:sqlite` and
 * `better-sqlite3`: each `driver.<library>.ts` implements it, and `driver.ts` picks one.
 */

/** Which library talks to SQLite. */
export type DriverName = "bun:sqlite" | "node:sqlite" | "better-sqlite3";

/** A value the store binds: it only ever uses text, integers and NULL. */
export type SqlValue = string | number | null;
/** A result row, column name to value. */
export type SqlRow = Record<string, unknown>;

/** A prepared statement; `get` and `first` answer `undefined` when there is no row (whatever the driver says). */
export interface SqlStatement {
  run(...params: SqlValue[]): { changes: number };
  get(...params: SqlValue[]): SqlRow | undefined;
  /** The first column of the first row, without making a row object where the driver can. */
  first(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): SqlRow[];
}

/** An open database connection. */
export interface SqlDriver {
  readonly name: DriverName;
  prepare(sql: string): SqlStatement;
  /** Runs one or more statements without parameters. */
  exec(sql: string): void;
  close(): void;
}
