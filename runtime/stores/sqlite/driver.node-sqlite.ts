/** The SQLite driver on Deno and on Node ≥ 22.13: the built-in `node:sqlite`. */
import type { SqlDriver, SqlStatement } from "./sqlDriver.ts";

/** Loads `node:sqlite`; the function it answers opens a database file with it. */
export async function loadNodeSqlite(): Promise<(path: string) => SqlDriver> {
  const { DatabaseSync } = await import("node:sqlite");
  return (path) => openWith(new DatabaseSync(path));
}

function openWith(db: import("node:sqlite").DatabaseSync): SqlDriver {
  return {
    name: "node:sqlite",
    prepare(sql: string): SqlStatement {
      const statement = db.prepare(sql);
      return {
        run: (...params) => ({ changes: Number(statement.run(...params).changes) }),
        get: (...params) => statement.get(...params),
        first: (...params) => {
          const row = statement.get(...params);
          return row === undefined ? undefined : Object.values(row)[0];
        },
        all: (...params) => statement.all(...params),
      };
    },
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
  };
}
