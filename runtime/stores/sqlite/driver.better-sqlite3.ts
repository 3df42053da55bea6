/** The SQLite driver on Node before 22.13: the `better-sqlite3` package (a native addon). */
import type BetterSqlite3 from "better-sqlite3";
import type { SqlDriver, SqlRow, SqlStatement, SqlValue } from "./driver.ts";

/** Opens `path` with `better-sqlite3`. */
export async function openBetterSqlite3(path: string): Promise<SqlDriver> {
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(path);
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
