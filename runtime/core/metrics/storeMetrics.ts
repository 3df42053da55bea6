/**
 * The quota store's operations as `/metrics` reports them: latency and failures by store kind and
 * operation, measured from outside the store by a wrapper (as `boundedStore` bounds it), so every
 * kind is measured the same way and no driver knows about metrics.
 */
import { OPERATIONS, type Operation } from "../quota/boundedStore.ts";
import { DuplicateApplicationError, DuplicateReferenceError, KeyChangedError, type QuotaStore, StoreUnavailableError } from "../quota/store.ts";
import { LatencyHistogram } from "./histogram.ts";
import type { MetricsText } from "./textFormat.ts";

/** Why an operation failed, as the `error` label says it. */
type Failure = "unavailable" | "unexpected";

/** Latency and failures of one store's operations. */
export class StoreMetrics {
  private readonly latency = new Map<Operation, LatencyHistogram>();
  private readonly failures = new Map<string, number>();

  /** `kind`: the `store` label (a `QUOTA_STORE` value, or what an embedding names its store). */
  constructor(readonly kind: string) {}

  /** Counts one operation that took `ms` milliseconds; `error` when it threw or rejected. */
  operation(operation: Operation, ms: number, error?: unknown): void {
    let histogram = this.latency.get(operation);
    if (histogram === undefined) this.latency.set(operation, (histogram = new LatencyHistogram()));
    histogram.observe(ms);
    const failure = error === undefined ? undefined : failureOf(error);
    if (failure !== undefined) {
      const key = `${operation} ${failure}`;
      this.failures.set(key, (this.failures.get(key) ?? 0) + 1);
    }
  }

  /** Writes the store families. */
  write(out: MetricsText): void {
    const store = this.kind;
    out.family(
      "hanja_api_store_operation_duration_seconds",
      "histogram",
      "Time the quota store took to answer an operation, by store kind and operation (a failed operation included).",
    );
    for (const operation of OPERATIONS) {
      const histogram = this.latency.get(operation);
      if (histogram !== undefined) out.histogram("hanja_api_store_operation_duration_seconds", { store, operation }, histogram, 1e-3);
    }
    out.family(
      "hanja_api_store_errors_total",
      "counter",
      "Quota store operations that failed, by store kind, operation and error: unavailable (down, busy or slow past its time bound; answered 503) or unexpected.",
    );
    for (const operation of OPERATIONS) {
      for (const error of ["unavailable", "unexpected"] as const) {
        const n = this.failures.get(`${operation} ${error}`);
        if (n !== undefined) out.sample("hanja_api_store_errors_total", { store, operation, error }, n);
      }
    }
  }
}

/**
 * The failure an error is, or undefined for the answers the store contract gives by throwing
 * (a key changed since it was read, a duplicate application): those are not failures of the store.
 */
function failureOf(error: unknown): Failure | undefined {
  if (error instanceof KeyChangedError || error instanceof DuplicateApplicationError || error instanceof DuplicateReferenceError) return undefined;
  return error instanceof StoreUnavailableError ? "unavailable" : "unexpected";
}

/**
 * `store` with every operation timed into `metrics`. The store's own answer is passed on as it
 * is, promise or not (the metering relies on a count that answers at once staying synchronous);
 * a promise is observed beside it, so the caller waits no extra step.
 */
export function instrumentedStore(store: QuotaStore, metrics: StoreMetrics): QuotaStore {
  const measured = { close: () => store.close() } as QuotaStore;
  if (store.health) measured.health = store.health.bind(store);
  if (store.probe) measured.probe = store.probe.bind(store);
  for (const operation of OPERATIONS) {
    const call = store[operation].bind(store) as (...args: unknown[]) => unknown;
    (measured as unknown as Record<Operation, unknown>)[operation] = (...args: unknown[]) => {
      const started = performance.now();
      let result: unknown;
      try {
        result = call(...args);
      } catch (error) {
        metrics.operation(operation, performance.now() - started, error);
        throw error;
      }
      if (!(result instanceof Promise)) metrics.operation(operation, performance.now() - started);
      else
        result.then(
          () => metrics.operation(operation, performance.now() - started),
          (error: unknown) => metrics.operation(operation, performance.now() - started, error),
        );
      return result;
    };
  }
  return measured;
}
