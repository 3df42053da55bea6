/**
 * Personal data kept only while needed: the applicant's name, e-mail, phone and depositor of a key
 * still awaiting its deposit are erased `retentionDays` after the application, and those of a
 * revoked key `retentionDays` after its revocation. The key itself is kept: a pending key goes on
 * working at the free limit and a late deposit is still matched by its payment reference.
 */
import { paymentReference } from "./keyActions.ts";
import { yieldToEventLoop } from "./keyPages.ts";
import type { KeyRecord, QuotaStore } from "./store.ts";

/** Days personal data is kept by default. */
export const DEFAULT_RETENTION_DAYS = 30;

/** A key whose personal data is erased, or about to be. */
export interface Erasure {
  id: string;
  payment_reference: string;
  status: "pending_deposit" | "revoked";
  /** When the application was made, or the key revoked (ISO 8601). */
  since: string;
  /** When its personal data is (or was due to be) erased (ISO 8601). */
  erase_at: string;
}

/**
 * When the retention clock of `key` started, while its personal data is kept: the application for
 * a pending key, the revocation for a revoked one; null otherwise (what the stores index).
 */
export function erasableSince(key: KeyRecord): string | null {
  if (key.erased_at) return null;
  return key.status === "pending_deposit" ? key.created_at : key.status === "revoked" ? key.revoked_at : null;
}

/** When `key`'s personal data is due to be erased, or null while it is needed (an active key) or already gone. */
export function erasureOf(key: KeyRecord, retentionDays: number): Erasure | null {
  const since = erasableSince(key);
  if (since === null || key.status === "active") return null;
  const at = Date.parse(since) + retentionDays * 86_400_000;
  if (Number.isNaN(at)) return null;
  return { id: key.id, payment_reference: paymentReference(key.id), status: key.status, since, erase_at: new Date(at).toISOString() };
}

/** The erasures due by `now + withinDays` (0: those due now), soonest first, read a page at a time from the store's index: what an operator sees before it goes. */
export async function* erasuresDue(store: QuotaStore, now: Date, retentionDays: number, withinDays = 0): AsyncGenerator<Erasure, void, undefined> {
  const until = now.getTime() + withinDays * 86_400_000;
  // The store compares instants as text (up to a second off for an instant without milliseconds):
  // it is asked a second further, and each key is checked here exactly.
  const started = new Date(until - retentionDays * 86_400_000 + 1_000).toISOString();
  let after: string | null = null;
  for (;;) {
    const page = await store.erasablePage(started, after, SWEEP_BATCH);
    for (const key of page.keys) {
      const erasure = erasureOf(key, retentionDays);
      if (erasure !== null && Date.parse(erasure.erase_at) <= until) yield erasure;
    }
    if (page.next === null) return;
    after = page.next;
    await yieldToEventLoop();
  }
}

/** What a sweep did: `leased` false when another process held the lease (it sweeps; this one did nothing). */
export interface SweepResult {
  leased: boolean;
  /** Applications whose personal data this sweep erased. */
  erased: number;
  /** Daily counters of past days deleted. */
  pruned: number;
  /** Days of keys' usage history deleted (older than `USAGE_KEEP_DAYS`). */
  prunedUsage: number;
  /** Class quizzes erased with their students' names and answers (past their `keep_until`). */
  prunedClasses: number;
}

/**
 * Erases the personal data now due and reports each erasure with `log` (key id, status and the
 * rule, no personal data), in steps of `SWEEP_BATCH` keys with the event loop free between them.
 * One process sweeps at a time: the sweep holds the store's lease `SWEEP_LEASE` (renewed at each
 * step), and a process that finds it held leaves the work to its holder. Safe even so against a
 * process that erases at the same moment (the CLI with an old lease gone): a key is erased once,
 * and not at all if it was confirmed meanwhile. With `pruneBefore` (a day), daily counters of the
 * days before it are deleted after, in steps too, and with `pruneUsageBefore` the keys' usage
 * history of the days before that one; with `pruneClassesAt` (an instant), the class quizzes kept
 * until then, with their students' names and answers. An aborted `signal` stops the sweep at its
 * next step (the process is closing its store).
 */
export async function eraseDue(
  store: QuotaStore,
  now: Date,
  retentionDays: number,
  log: (line: Record<string, unknown>) => void,
  options: { pruneBefore?: string; pruneUsageBefore?: string; pruneClassesAt?: string; holder?: string; signal?: AbortSignal } = {},
): Promise<SweepResult> {
  const holder = options.holder ?? globalThis.crypto.randomUUID();
  const result: SweepResult = { leased: false, erased: 0, pruned: 0, prunedUsage: 0, prunedClasses: 0 };
  if (!(await store.acquireLease(SWEEP_LEASE, holder, SWEEP_LEASE_MS))) return result;
  result.leased = true;
  try {
    let batch: Erasure[] = [];
    let ran = performance.now();
    /** Gives the event loop a turn once this sweep has held it for STEP_MS (a synchronous store never gives it back by itself). */
    const pause = async () => {
      if (performance.now() - ran < STEP_MS) return;
      await yieldToEventLoop();
      ran = performance.now();
    };
    const eraseBatch = async () => {
      for (let start = 0; start < batch.length; start += ERASE_STEP) {
        // A step's erasures go together (Redis pipelines them), each still its own atomic change;
        // a synchronous store (SQLite) runs them back to back, each a commit, so the steps are small.
        const step = batch.slice(start, start + ERASE_STEP);
        const done = await Promise.all(step.map((erasure) => store.eraseApplicant(erasure.id, erasure.status, now.toISOString())));
        for (const [i, erasure] of step.entries()) if (done[i]) logErasure(erasure, retentionDays, log);
        result.erased += done.filter(Boolean).length;
        await pause();
      }
      batch = [];
      if (options.signal?.aborted) throw new LeaseLostError();
      // The lease is renewed at each step; lost (it expired and another process took it), this sweep stops.
      if (!(await store.acquireLease(SWEEP_LEASE, holder, SWEEP_LEASE_MS))) throw new LeaseLostError();
    };
    for await (const erasure of erasuresDue(store, now, retentionDays)) {
      batch.push(erasure);
      if (batch.length >= SWEEP_BATCH) await eraseBatch();
    }
    if (batch.length > 0) await eraseBatch();
    const { pruneBefore, pruneUsageBefore, pruneClassesAt, signal } = options;
    if (pruneBefore !== undefined) result.pruned += await inSteps((limit) => store.pruneCounters(pruneBefore, limit), signal);
    if (pruneUsageBefore !== undefined) result.prunedUsage += await inSteps((limit) => store.pruneUsage(pruneUsageBefore, limit), signal);
    if (pruneClassesAt !== undefined) result.prunedClasses += await inSteps((limit) => store.pruneClasses(pruneClassesAt, limit), signal, CLASS_PRUNE_BATCH);
  } catch (error) {
    if (!(error instanceof LeaseLostError)) throw error;
  } finally {
    await store.releaseLease(SWEEP_LEASE, holder);
  }
  return result;
}

/** Runs `prune` a batch at a time, the event loop free in between, until a batch deletes less than a full one; answers how many it deleted. */
async function inSteps(prune: (limit: number) => number | Promise<number>, signal: AbortSignal | undefined, batch = PRUNE_BATCH): Promise<number> {
  let total = 0;
  for (let pruned = batch; pruned === batch; total += pruned) {
    await yieldToEventLoop();
    if (signal?.aborted) break;
    pruned = await prune(batch);
  }
  return total;
}

function logErasure(erasure: Erasure, retentionDays: number, log: (line: Record<string, unknown>) => void): void {
  const rule = erasure.status === "pending_deposit" ? "awaiting its deposit" : "revoked";
  log({
    level: "info",
    msg: `personal data erased: key ${rule} for ${retentionDays} days`,
    key_id: erasure.id,
    status: erasure.status,
    since: erasure.since,
  });
}

/** The sweep stops: its lease went to another process (this one stalled past the lease), or its process is closing. */
class LeaseLostError extends Error {}

/** The lease one sweeping process holds. */
export const SWEEP_LEASE = "retention-sweep";
/** How long a sweep's lease lasts unless renewed: a process that dies mid-sweep holds it this long at most. */
export const SWEEP_LEASE_MS = 5 * 60_000;
/** Keys read per page of the sweep (the lease is renewed after each). */
const SWEEP_BATCH = 200;
/** Erasures made together. */
const ERASE_STEP = 10;
/** The sweep gives the event loop a turn at least this often (ms of work): a request waits no longer for it. */
const STEP_MS = 8;
/** Old counters deleted per step (one statement, one commit). */
const PRUNE_BATCH = 250;
/** Class quizzes erased per step (each with up to its students' submissions, in one commit). */
const CLASS_PRUNE_BATCH = 20;
/** Daily counters of this many days before today are kept (a day's counts matter a day; a few are kept for the operator). */
export const COUNTER_KEEP_DAYS = 7;

/** The first day whose counters are kept on `today` (`YYYY-MM-DD`). */
export function firstKeptDay(now: Date): string {
  return new Date(now.getTime() - COUNTER_KEEP_DAYS * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Days a key's usage history is kept at least after the day ended: what `keys usage` and the admin
 * routes show (a year of an annual key, with a month to spare for its renewal).
 */
export const USAGE_KEEP_DAYS = 400;

/** The first day whose usage history is kept at `now`: a day goes once `USAGE_KEEP_DAYS` full days have passed since it ended, in any time zone. */
export function firstKeptUsageDay(now: Date): string {
  return new Date(now.getTime() - (USAGE_KEEP_DAYS + 2) * 86_400_000).toISOString().slice(0, 10);
}
