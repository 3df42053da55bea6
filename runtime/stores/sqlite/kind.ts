/**
 * The SQLite quota store as a kind of the registry: one file, durable, shared by every process
 * that opens it (servers and the `keys` CLI). Its driver is loaded only when it is opened.
 */
import { type StoreKind, StoreNotFoundError, folderOf } from "../storeKind.ts";

/** Where the SQLite store lives unless told otherwise (relative to the working directory). */
export const DEFAULT_QUOTA_DB = "./.data/quota.sqlite";

/** `QUOTA_STORE=sqlite`. */
export const sqliteKind: StoreKind<"path"> = {
  name: "sqlite",
  summary: "durable, several processes may share one file",
  variables: [
    {
      name: "QUOTA_DB",
      option: "path",
      default: DEFAULT_QUOTA_DB,
      help: `SQLite file (default ${DEFAULT_QUOTA_DB})`,
      flag: { name: "db", value: "path" },
    },
  ],
  shared: true,
  // Synchronous driver: each operation is bounded by SQLite's busy timeout (5 s) inside the call.
  timeoutMs: undefined,
  // SQLite writes its -wal and -shm files beside the database: the folder, not only the file.
  needs: ({ path = DEFAULT_QUOTA_DB }) => ({ read: [], write: [folderOf(path)], net: [] }),
  where: ({ path = DEFAULT_QUOTA_DB }) => path,
  async open({ path = DEFAULT_QUOTA_DB }, use = {}) {
    if (use.existing) {
      // Opening would create an empty database: a mistyped path must not look like "no keys".
      const { existsSync } = await import("node:fs");
      if (!existsSync(path)) throw new StoreNotFoundError(`no quota database at ${path}`);
    }
    const { openSqliteStore } = await import("./sqliteStore.ts");
    return openSqliteStore(path, { readOnlyUse: use.readOnly, ...(use.patient ? { busyTimeoutMs: 5_000 } : {}) });
  },
};
