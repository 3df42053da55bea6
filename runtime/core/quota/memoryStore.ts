import { MemoryClasses } from "../classes/memoryClasses.ts";
import { paymentReference } from "./keyActions.ts";
import { erasableSince } from "./retention.ts";
import {
  DuplicateApplicationError,
  DuplicateReferenceError,
  type ConsumeResult,
  type DailyUsage,
  type KeyPage,
  type KeyPageQuery,
  type KeyPatch,
  type KeyRecord,
  type QuotaStore,
  type StoredKeyStatus,
  isKeyBucket,
  keyBucket,
} from "./store.ts";

/**
 * In-process quota store: exact within one process (JavaScript runs each call to completion),
 * lost on restart. For tests, single-process deployments and embedding.
 */
export class MemoryQuotaStore extends MemoryClasses implements QuotaStore {
  /** Counts of buckets without a key, by `day NUL bucket`. */
  private readonly counters = new Map<string, number>();
  /** Keys' counts, by bucket then day: their daily count is their usage history (`usage`), kept until `pruneUsage`. */
  private readonly history = new Map<string, Map<string, number>>();
  private readonly keys = new Map<string, KeyRecord>();
  private readonly byHash = new Map<string, string>();
  private readonly leases = new Map<string, { holder: string; expires: number }>();
  /** See `creationOrder`. */
  private order: string[] | undefined;

  consume(bucket: string, day: string, limit: number): ConsumeResult {
    if (isKeyBucket(bucket)) return this.countKey(bucket, day, limit);
    const id = `${day}\u0000${bucket}`;
    const used = this.counters.get(id) ?? 0;
    if (used >= limit) return { allowed: false, used };
    this.counters.set(id, used + 1);
    return { allowed: true, used: used + 1 };
  }

  /** A key's count: its day in the key's history. */
  private countKey(bucket: string, day: string, limit: number): ConsumeResult {
    const days = this.history.get(bucket);
    const used = days?.get(day) ?? 0;
    if (used >= limit) return { allowed: false, used };
    if (days) days.set(day, used + 1);
    else this.history.set(bucket, new Map([[day, used + 1]]));
    return { allowed: true, used: used + 1 };
  }

  used(bucket: string, day: string): number {
    if (isKeyBucket(bucket)) return this.history.get(bucket)?.get(day) ?? 0;
    return this.counters.get(`${day}\u0000${bucket}`) ?? 0;
  }

  usage(id: string, fromDay: string, toDay: string): DailyUsage[] {
    const days = [...(this.history.get(keyBucket(id)) ?? [])].filter(([day]) => day >= fromDay && day <= toDay);
    return days.sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, calls]) => ({ date, calls }));
  }

  insertKey(record: KeyRecord): void {
    const email = record.applicant.email.toLowerCase();
    const reference = paymentReference(record.id);
    for (const key of this.keys.values()) {
      if (key.status !== "pending_deposit") continue;
      if (!key.erased_at && key.applicant.email.toLowerCase() === email) throw new DuplicateApplicationError();
      if (paymentReference(key.id) === reference) throw new DuplicateReferenceError();
    }
    this.keys.set(record.id, freeze(record));
    this.byHash.set(record.hash, record.id);
    this.order = undefined;
  }

  keyByHash(hash: string): KeyRecord | null {
    const id = this.byHash.get(hash);
    return id === undefined ? null : this.keyById(id);
  }

  keyById(id: string): KeyRecord | null {
    return this.keys.get(id) ?? null;
  }

  keyPage(query: KeyPageQuery): KeyPage {
    const order = this.creationOrder();
    const { after, oldestFirst = false } = query;
    // The position of the cursor in creation order: the first position past it, in the walk's direction.
    let i = oldestFirst ? 0 : order.length - 1;
    if (after) {
      const at = lowerBound(order, after);
      i = oldestFirst ? (order[at] === after ? at + 1 : at) : at - 1;
    }
    const keys: KeyRecord[] = [];
    let last: string | null = null;
    for (; i >= 0 && i < order.length && keys.length < query.limit; i += oldestFirst ? 1 : -1) {
      last = order[i] as string;
      const key = this.keys.get(last.slice(last.lastIndexOf(" ") + 1)) as KeyRecord;
      if (query.status === undefined || key.status === query.status) keys.push(key);
    }
    const more = i >= 0 && i < order.length;
    return { keys, next: more ? last : null };
  }

  erasablePage(until: string, after: string | null, limit: number): KeyPage {
    const due: [string, KeyRecord][] = [];
    for (const key of this.keys.values()) {
      const since = erasableSince(key);
      if (since === null || since > until) continue;
      const position = `${since} ${key.id}`;
      if (after === null || position > after) due.push([position, key]);
    }
    due.sort(([a], [b]) => (a < b ? -1 : 1));
    const page = due.slice(0, limit);
    return { keys: page.map(([, key]) => key), next: due.length > limit ? (page[page.length - 1] as [string, KeyRecord])[0] : null };
  }

  acquireLease(name: string, holder: string, ttlMs: number): boolean {
    const lease = this.leases.get(name);
    const now = Date.now();
    if (lease !== undefined && lease.holder !== holder && lease.expires > now) return false;
    this.leases.set(name, { holder, expires: now + ttlMs });
    return true;
  }

  releaseLease(name: string, holder: string): void {
    if (this.leases.get(name)?.holder === holder) this.leases.delete(name);
  }

  pruneCounters(beforeDay: string, limit: number): number {
    let pruned = 0;
    for (const id of this.counters.keys()) {
      if (pruned >= limit) break;
      if (id.slice(0, id.indexOf("\u0000")) < beforeDay) {
        this.counters.delete(id);
        pruned++;
      }
    }
    return pruned;
  }

  pruneUsage(beforeDay: string, limit: number): number {
    let pruned = 0;
    for (const [bucket, days] of this.history) {
      for (const day of days.keys()) {
        if (pruned >= limit) return pruned;
        if (day < beforeDay) {
          days.delete(day);
          pruned++;
        }
      }
      if (days.size === 0) this.history.delete(bucket);
    }
    return pruned;
  }

  /** `created_at id` of every key, in creation order, kept until a key is inserted. */
  private creationOrder(): string[] {
    this.order ??= [...this.keys.values()].map((key) => `${key.created_at} ${key.id}`).sort();
    return this.order;
  }

  updateKey(id: string, patch: KeyPatch): KeyRecord | null {
    const key = this.keys.get(id);
    if (!key) return null;
    if (key.status === "revoked") return key;
    const updated = freeze({ ...key, ...patch });
    this.keys.set(id, updated);
    return updated;
  }

  eraseApplicant(id: string, status: StoredKeyStatus, at: string): boolean {
    const key = this.keys.get(id);
    if (!key || key.status !== status || key.erased_at) return false;
    this.keys.set(id, freeze({ ...key, erased_at: at, applicant: { name: "", email: "", phone: null, depositor: null } }));
    return true;
  }

  close(): void {}
}

/** The first index of the sorted `order` whose entry is not below `value`. */
function lowerBound(order: readonly string[], value: string): number {
  let low = 0;
  let high = order.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((order[mid] as string) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** A deep-frozen copy: records are shared with callers without copying on every read, and nobody can change them in place. */
function freeze(record: KeyRecord): KeyRecord {
  return Object.freeze({ ...record, applicant: Object.freeze({ ...record.applicant }) });
}
