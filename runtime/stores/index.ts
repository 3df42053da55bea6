/**
 * Picks and opens the quota store the configuration names. The SQLite store (and its driver) is
 * only loaded when asked for, so a memory-only embedding never touches SQLite.
 */
import { MemoryQuotaStore } from "../core/quota/memoryStore.ts";
import type { QuotaStore } from "../core/quota/store.ts";

/** Where the SQLite store lives unless told otherwise (relative to the working directory). */
export const DEFAULT_QUOTA_DB = "./.data/quota.sqlite";

/** Which quota store to open (`QUOTA_STORE`, `QUOTA_DB`). */
export interface QuotaStoreConfig {
  /** `sqlite`: durable, shared by several processes; `memory`: one process, lost on restart. */
  kind: "memory" | "sqlite";
  /** The SQLite database file; default `./.data/quota.sqlite`. Ignored for `memory`. */
  path?: string;
}

/** Opens the configured quota store. */
export async function openQuotaStore(config: QuotaStoreConfig): Promise<QuotaStore> {
  if (config.kind === "memory") return new MemoryQuotaStore();
  const { openSqliteStore } = await import("./sqlite/sqliteStore.ts");
  return openSqliteStore(config.path ?? DEFAULT_QUOTA_DB);
}
