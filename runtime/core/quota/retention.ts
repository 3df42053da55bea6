/**
 * Personal data kept only while needed: the applicant's name, e-mail, phone and depositor of a key
 * still awaiting its deposit are erased `retentionDays` after the application, and those of a
 * revoked key `retentionDays` after its revocation. The key itself is kept: a pending key goes on
 * working at the free limit and a late deposit is still matched by its payment reference.
 */
import { paymentReference } from "./keyActions.ts";
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

/** When `key`'s personal data is due to be erased, or null while it is needed (an active key) or already gone. */
export function erasureOf(key: KeyRecord, retentionDays: number): Erasure | null {
  if (key.erased_at) return null;
  const since = key.status === "pending_deposit" ? key.created_at : key.status === "revoked" ? key.revoked_at : null;
  if (since === null || key.status === "active") return null;
  const at = Date.parse(since) + retentionDays * 86_400_000;
  if (Number.isNaN(at)) return null;
  return { id: key.id, payment_reference: paymentReference(key.id), status: key.status, since, erase_at: new Date(at).toISOString() };
}

/** The erasures due by `now + withinDays` (0: those due now), soonest first: what an operator sees before it goes. */
export async function erasuresDue(store: QuotaStore, now: Date, retentionDays: number, withinDays = 0): Promise<Erasure[]> {
  const until = now.getTime() + withinDays * 86_400_000;
  const keys = [...(await store.listKeys("pending_deposit")), ...(await store.listKeys("revoked"))];
  return keys
    .map((key) => erasureOf(key, retentionDays))
    .filter((erasure): erasure is Erasure => erasure !== null && Date.parse(erasure.erase_at) <= until)
    .sort((a, b) => a.erase_at.localeCompare(b.erase_at) || a.id.localeCompare(b.id));
}

/**
 * Erases the personal data now due and reports each erasure with `log` (key id, status and the
 * rule, no personal data). Safe to run from several processes at once: a key is erased once, and
 * not at all if it was confirmed meanwhile. Returns the erasures this call made.
 */
export async function eraseDue(store: QuotaStore, now: Date, retentionDays: number, log: (line: Record<string, unknown>) => void): Promise<Erasure[]> {
  const erased: Erasure[] = [];
  for (const erasure of await erasuresDue(store, now, retentionDays)) {
    if (!(await store.eraseApplicant(erasure.id, erasure.status, now.toISOString()))) continue;
    erased.push(erasure);
    const rule = erasure.status === "pending_deposit" ? "awaiting its deposit" : "revoked";
    log({
      level: "info",
      msg: `personal data erased: key ${rule} for ${retentionDays} days`,
      key_id: erasure.id,
      status: erasure.status,
      since: erasure.since,
    });
  }
  return erased;
}
