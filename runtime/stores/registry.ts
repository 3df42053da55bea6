/**
 * Every kind of quota store the server can use, in one list. To add a kind: a driver folder with a
 * `kind.ts` declaring it (`StoreKind` in `storeKind.ts`: variables, secrets, what it needs from the
 * runtime, how to open it, its time bound) and an entry here. Configuration (`QUOTA_STORE` and the
 * kind's variables), `--help`, start-up, `npm run start:deno`'s Deno permissions and the `keys`
 * CLI read this list; the store contract suite (test/store/) runs against every kind. The README's
 * configuration table and Deno command list each variable (a test checks both).
 *
 * Every kind keeps the failure contract stated on `QuotaStore` (runtime/core/quota/store.ts):
 * operations answer synchronously or with a promise; each within a bounded time; a store that
 * cannot answer now throws `StoreUnavailableError` having changed nothing, which the service
 * answers `503 service_unavailable` with `Retry-After` and a problem body, never a hang and never
 * a call counted twice.
 */
import { boundedStore } from "../core/quota/boundedStore.ts";
import type { QuotaStore } from "../core/quota/store.ts";
import { memoryKind } from "./memory/kind.ts";
import { redisKind } from "./redis/kind.ts";
import { sqliteKind } from "./sqlite/kind.ts";
import type { OpenUse, StoreKind, StoreVariable } from "./storeKind.ts";

export type { OpenUse, StoreKind, StoreNeeds, StoreVariable } from "./storeKind.ts";

/** The kinds by `QUOTA_STORE` value; the first is the default. */
export const STORE_KINDS = {
  sqlite: sqliteKind,
  memory: memoryKind,
  redis: redisKind,
} as const;

/** A value of `QUOTA_STORE`. */
export type StoreKindName = keyof typeof STORE_KINDS;

/** The kind used when `QUOTA_STORE` is unset. */
export const DEFAULT_STORE_KIND: StoreKindName = "sqlite";

/** The `open` options of a kind. */
export type StoreOptions<K extends StoreKindName> = (typeof STORE_KINDS)[K] extends StoreKind<infer O> ? Partial<Record<O, string>> : never;

/** A kind and its options, as an embedding passes them to `openQuotaStore`. */
export type StoreChoice = { [K in StoreKindName]: { kind: K } & StoreOptions<K> }[StoreKindName];

/** Whether `name` is a kind of the registry. */
export function isStoreKind(name: string): name is StoreKindName {
  return Object.hasOwn(STORE_KINDS, name);
}

/** The kind named `name` (a `StoreKindName`). */
export function storeKind(name: StoreKindName): StoreKind {
  return STORE_KINDS[name] as StoreKind;
}

/** Every variable of every kind, in registry order. */
export function storeVariables(): StoreVariable[] {
  return Object.values(STORE_KINDS).flatMap((kind) => [...(kind as StoreKind).variables]);
}

/** The configuration field that carries a variable's value: `QUOTA_DB` → `quotaDb`. */
export function settingName(variable: string): string {
  return variable.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** A kind's `open` options from configuration fields named by `settingName`. */
export function optionsFrom(kind: StoreKind, settings: Readonly<Record<string, unknown>>): Record<string, string> {
  const options: Record<string, string> = {};
  for (const variable of kind.variables) {
    const value = settings[settingName(variable.name)];
    if (typeof value === "string") options[variable.option] = value;
  }
  return options;
}

/** Opens a kind with its options, held to the kind's time bound when its operations answer later. */
export async function openStore(kind: StoreKind, options: Record<string, string>, use?: OpenUse): Promise<QuotaStore> {
  const store = await kind.open(options, use);
  return kind.timeoutMs === undefined ? store : boundedStore(store, kind.timeoutMs, `${kind.name} store`);
}
