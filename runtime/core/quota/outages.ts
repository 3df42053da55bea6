/**
 * A quota store outage as the operator reads it in the log: one `warn` line when the first call is
 * answered 503 because the store cannot answer, one when the store answers again, saying how long
 * it lasted and how many calls were answered 503 meanwhile; nothing per request in between (a
 * Redis down under load would otherwise write a stack trace per metered call). The store answers
 * again when a change succeeds, or, for a store with a `probe` (Redis), when the probe sent every
 * `PROBE_MS` during the outage is answered: an outage ends with the store's return, not with the
 * next metered call, which may come much later.
 */
import { OPERATIONS, type Operation } from "./boundedStore.ts";
import type { QuotaStore, StoreUnavailableError } from "./store.ts";

/** One log line (a JSON object written as one line). */
export type LogLine = (line: Record<string, unknown>) => void;

/** How often a store's probe is sent while an outage is under way. */
export const PROBE_MS = 1_000;

/** The outages of one app's store. */
export class StoreOutages {
  /** When the outage under way began (ms since the epoch), or undefined while the store answers. */
  private since: number | undefined;
  /** Calls answered 503 in the outage under way. */
  private refused = 0;
  /** The probes' timer while an outage is under way. */
  private probing: ReturnType<typeof setInterval> | undefined;
  /** A probe sent and not answered yet: one at a time. */
  private asking = false;

  constructor(
    private readonly log: LogLine,
    private readonly clock: () => number = Date.now,
    /** Asks the store to answer (`QuotaStore.probe`); none: only a change ends an outage. */
    private readonly probe?: () => Promise<void>,
    private readonly probeMs = PROBE_MS,
  ) {}

  /** Whether an outage is under way. */
  get active(): boolean {
    return this.since !== undefined;
  }

  /** A call was answered 503 because of `error`: the first of an outage is logged (with its cause and request id), the others counted. */
  unavailable(error: StoreUnavailableError, requestId: string): void {
    this.refused++;
    if (this.since !== undefined) return;
    this.since = this.clock();
    this.log({
      level: "warn",
      msg: "quota store unavailable: calls that need it answer 503 until it answers again",
      cause: error.message,
      request_id: requestId,
    });
    if (this.probe !== undefined) {
      this.probing = setInterval(() => this.ask(), this.probeMs);
      // Never keeps a process alive on its own (Node, Bun and Deno have unref).
      (this.probing as { unref?: () => void }).unref?.();
    }
  }

  /** Sends the probe, unless one is on its way; its answer ends the outage under way. */
  private ask(): void {
    if (this.asking || this.probe === undefined) return;
    this.asking = true;
    const outage = this.since;
    const probe = this.probe;
    // A probe that throws at once is a failed probe, as one that rejects (never an uncaught error in a timer).
    new Promise<unknown>((resolve) => resolve(probe())).then(
      () => {
        this.asking = false;
        // Not an outage that began after the probe was sent.
        if (this.since === outage) this.answered();
      },
      () => {
        this.asking = false;
      },
    );
  }

  /** The store has carried out a change: an outage under way ends, logged with its length and its 503s. */
  answered(): void {
    if (this.since !== undefined) this.end("quota store answering again");
  }

  /** The app closes: an outage under way is reported as it stands. */
  close(): void {
    if (this.since !== undefined) this.end("closing while the quota store is unavailable");
  }

  private end(what: string): void {
    clearInterval(this.probing);
    this.probing = undefined;
    const seconds = Math.round((this.clock() - (this.since as number)) / 100) / 10;
    const calls = this.refused;
    this.since = undefined;
    this.refused = 0;
    this.log({
      level: "warn",
      msg: `${what} after ${seconds} s; ${calls} ${calls === 1 ? "call" : "calls"} answered 503 meanwhile`,
      outage_seconds: seconds,
      unavailable_calls: calls,
    });
  }
}

/**
 * The operations that change the store. Only their success ends an outage: a read may be answered
 * from the store's memory without reaching it (the Redis store answers a metered call's key lookup
 * so), and would end an outage that goes on.
 */
const WRITES: ReadonlySet<Operation> = new Set([
  "consume",
  "insertKey",
  "updateKey",
  "eraseApplicant",
  "acquireLease",
  "releaseLease",
  "pruneCounters",
  "pruneUsage",
  "insertClass",
  "submitToClass",
  "pruneClasses",
]);

/**
 * `store` telling `outages` when a change succeeds. Outside an outage a write passes through as
 * it is (no promise step is added to a metered call); during one, its success ends the outage.
 */
export function watchedStore(store: QuotaStore, outages: StoreOutages): QuotaStore {
  // Fails to compile should an operation take more than the three arguments passed on below.
  const threeAtMost: Parameters<QuotaStore[Operation]> extends [unknown?, unknown?, unknown?] ? true : never = true;
  void threeAtMost;
  const watched = { close: () => store.close() } as QuotaStore;
  if (store.health) watched.health = store.health.bind(store);
  if (store.probe) watched.probe = store.probe.bind(store);
  const methods = store as unknown as Record<Operation, (...args: unknown[]) => unknown>;
  for (const operation of OPERATIONS) {
    // Looked up at each call, not bound once: a store's method replaced later (a test's fault) is
    // the one called. Three arguments at most (the widest operation's), passed without a rest
    // array: this runs twice on every metered call.
    const call = (a?: unknown, b?: unknown, c?: unknown) => methods[operation].call(store, a, b, c);
    (watched as unknown as Record<Operation, unknown>)[operation] = !WRITES.has(operation)
      ? call
      : (a?: unknown, b?: unknown, c?: unknown) => {
          const result = call(a, b, c);
          if (!outages.active) return result;
          if (!(result instanceof Promise)) {
            outages.answered();
            return result;
          }
          return result.then((value: unknown) => {
            outages.answered();
            return value;
          });
        };
  }
  return watched;
}
