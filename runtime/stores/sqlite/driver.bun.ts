/** The SQLite driver on Bun: its built-in `bun:sqlite`. */
import type { SqlDriver, SqlRow, SqlStatement, SqlValue } from "./driver.ts";

/** Opens `path` with `bun:sqlite`. */
export async function openBunSqlite(path: string): Promise<SqlDriver> {
  const { Database } = await import("bun:sqlite");
  const db = new Database(path, { create: true, readwrite: true });
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
