/**
 * The in-memory quota store as a kind of the registry: one process, lost on restart; nothing to
 * configure and nothing needed from the runtime.
 */
import { MemoryQuotaStore } from "../../core/quota/memoryStore.ts";
import type { StoreKind } from "../storeKind.ts";

/** `QUOTA_STORE=memory`. */
export const memoryKind: StoreKind<never> = {
  name: "memory",
  summary: "one process, lost on restart",
  variables: [],
  shared: false,
  needs: () => ({ read: [], write: [], net: [] }),
  where: () => "the in-memory store",
  open: async () => new MemoryQuotaStore(),
};
