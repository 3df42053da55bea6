/**
 * How many keys there are by plan and status, for `/metrics`: counted by walking the store in pages
 * (`eachKey`, the event loop free between pages), at most once per `KEY_COUNT_TTL_MS`, never once
 * per scrape; a scrape reports the last count and when it was made, and starts a new one when it
 * is old. Several processes sharing a store each count it: the interval keeps that cheap.
 */
import { KEY_STATUSES, keyStatus } from "../quota/keyActions.ts";
import { eachKey } from "../quota/keyPages.ts";
import type { KeyRecord, QuotaStore } from "../quota/store.ts";
import type { MetricsText } from "./textFormat.ts";

/** The plans a key can be on (the demo has no key). */
const KEY_PLANS: readonly KeyRecord["plan"][] = ["free", "annual"];

/** How old a count may be before a scrape starts another: five minutes. */
export const KEY_COUNT_TTL_MS = 300_000;

/** How long the first scrape waits for the first count before answering without it. */
export const FIRST_COUNT_WAIT_MS = 1_000;

/** One count: keys by `plan status` (a pair with none is absent, and written as 0), and the moment it was made. */
interface Count {
  readonly keys: ReadonlyMap<string, number>;
  readonly at: Date;
}

/** The key counts of one app's store. */
export class KeyCounts {
  private last: Count | undefined;
  private counting: Promise<void> | undefined;

  constructor(
    private readonly store: QuotaStore,
    private readonly now: () => Date,
  ) {}

  /**
   * Writes the last count, after starting a new one when it is older than the TTL (or there is
   * none). Only the first scrape waits for a count, and at most `FIRST_COUNT_WAIT_MS`: a large
   * store is counted in the background and reported from the next scrape on.
   */
  async write(out: MetricsText): Promise<void> {
    const at = this.now();
    if (!this.counting && (this.last === undefined || at.getTime() - this.last.at.getTime() >= KEY_COUNT_TTL_MS)) {
      this.counting = this.count().finally(() => (this.counting = undefined));
    }
    if (this.last === undefined && this.counting) await Promise.race([this.counting, delay(FIRST_COUNT_WAIT_MS)]);
    out.family(
      "hanja_api_keys",
      "gauge",
      "API keys by plan and status (pending_deposit, active, expired, revoked), as last counted (see hanja_api_keys_counted_timestamp_seconds).",
    );
    const last = this.last;
    if (last === undefined) return;
    for (const plan of KEY_PLANS) {
      for (const status of KEY_STATUSES) out.sample("hanja_api_keys", { plan, status }, last.keys.get(`${plan} ${status}`) ?? 0);
    }
    out.family("hanja_api_keys_counted_timestamp_seconds", "gauge", "When hanja_api_keys was counted (Unix time); it is counted again when five minutes old.");
    out.sample("hanja_api_keys_counted_timestamp_seconds", {}, last.at.getTime() / 1000);
  }

  /** Walks every key once; a store that fails leaves the last count as it was (the failure is in the store metrics). */
  private async count(): Promise<void> {
    const at = this.now();
    const keys = new Map<string, number>();
    try {
      for await (const key of eachKey(this.store)) {
        const slot = `${key.plan} ${keyStatus(key, at)}`;
        keys.set(slot, (keys.get(slot) ?? 0) + 1);
      }
    } catch {
      return;
    }
    this.last = { keys, at };
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    // Waiting never keeps a process alive on its own.
    (timer as { unref?: () => void }).unref?.();
  });
}
