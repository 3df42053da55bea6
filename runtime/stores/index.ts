/**
 * Opens the quota store an embedding names (`hanja-api/stores`). The kinds are those of the
 * registry (`registry.ts`); a kind's driver is only loaded when asked for, so a memory-only
 * embedding never touches SQLite.
 */
import type { QuotaStore } from "../core/quota/store.ts";
import { type StoreChoice, openStore, storeKind } from "./registry.ts";

export { STORE_KINDS, type StoreKindName } from "./registry.ts";

/**
 * Which quota store to open: `{ kind: "sqlite", path? }` (durable, shared by several processes;
 * default file `./.data/quota.sqlite`) or `{ kind: "memory" }` (one process, lost on restart).
 */
export type QuotaStoreConfig = StoreChoice;

/** Opens the configured quota store. */
export async function openQuotaStore(config: QuotaStoreConfig): Promise<QuotaStore> {
  const { kind, ...options } = config;
  return openStore(storeKind(kind), options as Record<string, string>);
}
