import { paymentReference } from "./keyActions.ts";
import {
  DuplicateApplicationError,
  DuplicateReferenceError,
  type ConsumeResult,
  type KeyPatch,
  type KeyRecord,
  type QuotaStore,
  type StoredKeyStatus,
} from "./store.ts";

/**
 * In-process quota store: exact within one process (JavaScript runs each call to completion),
 * lost on restart. For tests, single-process deployments and embedding.
 */
export class MemoryQuotaStore implements QuotaStore {
  private readonly counters = new Map<string, number>();
  private readonly keys = new Map<string, KeyRecord>();
  private readonly byHash = new Map<string, string>();

  consume(bucket: string, day: string, limit: number): ConsumeResult {
    this.prune(day);
    const id = `${day}\u0000${bucket}`;
    const used = this.counters.get(id) ?? 0;
    if (used >= limit) return { allowed: false, used };
    this.counters.set(id, used + 1);
    return { allowed: true, used: used + 1 };
  }

  used(bucket: string, day: string): number {
    return this.counters.get(`${day}\u0000${bucket}`) ?? 0;
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
  }

  keyByHash(hash: string): KeyRecord | null {
    const id = this.byHash.get(hash);
    return id === undefined ? null : this.keyById(id);
  }

  keyById(id: string): KeyRecord | null {
    return this.keys.get(id) ?? null;
  }

  listKeys(status?: StoredKeyStatus): KeyRecord[] {
    return [...this.keys.values()]
      .filter((k) => status === undefined || k.status === status)
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
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

  private lastDay = "";
  /** Drops the counters of past days when the day changes, so memory stays bounded. */
  private prune(day: string): void {
    if (day === this.lastDay) return;
    this.lastDay = day;
    for (const id of this.counters.keys()) if (!id.startsWith(`${day}\u0000`)) this.counters.delete(id);
  }
}

/** A deep-frozen copy: records are shared with callers without copying on every read, and nobody can change them in place. */
function freeze(record: KeyRecord): KeyRecord {
  return Object.freeze({ ...record, applicant: Object.freeze({ ...record.applicant }) });
}
