/**
 * The service's guard on the store contract's time bound: an operation that answers with a
 * promise and has not settled within the bound fails with `StoreUnavailableError` (a 503), so a
 * request never hangs on a store. A store keeps its own bound first (SQLite's busy timeout, a
 * network store's command timeout), because only the store knows whether an operation it gave up
 * on changed anything; this guard catches a store that breaks its bound. Operations that answer
 * at once (the memory and SQLite stores) pass through untouched, without a promise or a timer.
 */
import { Deadlines } from "./deadlines.ts";
import { type QuotaStore, StoreUnavailableError } from "./store.ts";

/** An operation of the store contract (what a wrapper of a store passes on). */
export type Operation = Exclude<keyof QuotaStore, "close" | "health" | "probe">;
/** Every operation, so that one added to `QuotaStore` and missed here fails to compile (it would go unwrapped). */
const EVERY_OPERATION = {
  consume: 1,
  used: 1,
  usage: 1,
  insertKey: 1,
  eraseApplicant: 1,
  keyByHash: 1,
  keyById: 1,
  keyPage: 1,
  erasablePage: 1,
  acquireLease: 1,
  releaseLease: 1,
  pruneCounters: 1,
  pruneUsage: 1,
  updateKey: 1,
  insertClass: 1,
  classByCode: 1,
  classesOfKey: 1,
  studentOf: 1,
  submitToClass: 1,
  classSubmissions: 1,
  pruneClasses: 1,
} satisfies Record<Operation, 1>;
/** Every operation of `QuotaStore`. */
export const OPERATIONS = Object.keys(EVERY_OPERATION) as readonly Operation[];

/** `store` with every operation that answers later bounded to `timeoutMs` milliseconds. */
export function boundedStore(store: QuotaStore, timeoutMs: number, name = "quota store"): QuotaStore {
  const bounded = { close: () => store.close() } as QuotaStore;
  if (store.health) bounded.health = store.health.bind(store);
  if (store.probe) {
    const probe = store.probe.bind(store);
    const late = () => new StoreUnavailableError(`${name}: probe did not answer within ${timeoutMs} ms`);
    bounded.probe = () => deadlines.bound(probe(), late);
  }
  // One timer for every call (they share the bound), not one per call.
  const deadlines = new Deadlines(timeoutMs);
  for (const operation of OPERATIONS) {
    const call = store[operation].bind(store) as (...args: unknown[]) => unknown;
    const late = () => new StoreUnavailableError(`${name}: ${operation} did not answer within ${timeoutMs} ms`);
    (bounded as unknown as Record<Operation, unknown>)[operation] = (...args: unknown[]) => {
      const result = call(...args);
      return result instanceof Promise ? deadlines.bound(result, late) : result;
    };
  }
  return bounded;
}
