/** The SQLite driver on Node before 22.13: the `better-sqlite3` package (a native addon). */
import type BetterSqlite3 from "better-sqlite3";
import type { SqlDriver, SqlRow, SqlStatement, SqlValue } from "./sqlDriver.ts";

/**
 * Loads `better-sqlite3`; the function it answers opens a database file with it. The package is
 * external to the bundle, so a bundle copied elsewhere may not find it: the error says what to do.
 */
export async function loadBetterSqlite3(): Promise<(path: string) => SqlDriver> {
  let Database: typeof BetterSqlite3;
  try {
    ({ default: Database } = await import("better-sqlite3"));
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    throw new Error(
      `the SQLite store on Node ${process.versions.node} (no node:sqlite before 22.13) needs the better-sqlite3 package where the server runs: npm install better-sqlite3@12, or set QUOTA_STORE=memory (${reason})`,
    );
  }
  return (path) => openWith(new Database(path));
}

function openWith(db: BetterSqlite3.Database): SqlDriver {
  return {
    name: "better-sqlite3",
    prepare(sql: string): SqlStatement {
      const statement = db.prepare<SqlValue[], SqlRow>(sql);
      // `pluck` makes a statement answer its first column; a second one keeps `get` answering rows.
      let plucked: BetterSqlite3.Statement<SqlValue[], unknown> | undefined;
      return {
        run: (...params) => ({ changes: statement.run(...params).changes }),
        get: (...params) => statement.get(...params),
        first: (...params) => (plucked ??= db.prepare<SqlValue[], unknown>(sql).pluck()).get(...params),
        all: (...params) => statement.all(...params),
      };
    },
    exec: (sql) => void db.exec(sql),
    close: () => void db.close(),
  };
}
