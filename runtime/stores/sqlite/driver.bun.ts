/** The SQLite driver on Bun: its built-in `bun:sqlite`. */
import type { SqlDriver, SqlRow, SqlStatement, SqlValue } from "./sqlDriver.ts";

/** Loads `bun:sqlite`; the function it answers opens a database file with it. */
export async function loadBunSqlite(): Promise<(path: string) => SqlDriver> {
  const { Database } = await import("bun:sqlite");
  return (path) => openWith(new Database(path, { create: true, readwrite: true }));
}

function openWith(db: import("bun:sqlite").Database): SqlDriver {
  return {
    name: "bun:sqlite",
    prepare(sql: string): SqlStatement {
      const statement = db.prepare<SqlRow, SqlValue[]>(sql);
      return {
        run: (...params) => ({ changes: Number(statement.run(...params).changes) }),
        // bun:sqlite answers null for "no row"; the seam promises undefined.
        get: (...params) => statement.get(...params) ?? undefined,
        first: (...params) => statement.values(...params)[0]?.[0],
        all: (...params) => statement.all(...params),
      };
    },
    exec: (sql) => void db.exec(sql),
    close: () => db.close(),
  };
}
