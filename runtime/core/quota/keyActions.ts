/**
 * The operator's actions on a key, shared by the admin HTTP routes and the CLI:
 * confirming a deposit (or renewing an expired key) and revoking.
 */
import { eachKey } from "./keyPages.ts";
import type { KeyRecord, KeyStatus, QuotaStore } from "./store.ts";

/**
 * When an annual plan confirmed at `confirmed` ends: one calendar year later, the same UTC date
 * and time (366 days when the year holds a 29 February; confirmed on 29 February, it ends on
 * 1 March).
 */
export function annualExpiry(confirmed: Date): Date {
  const expires = new Date(confirmed.getTime());
  expires.setUTCFullYear(expires.getUTCFullYear() + 1);
  return expires;
}

/** `expires_at` of the records seen, parsed once (a store that edits a record in place changes the text, and it is parsed again). */
const expiryTimes = new WeakMap<KeyRecord, { text: string; time: number }>();

/** The status a key has at `now` (`expired` once an annual key passes `expires_at`). */
export function keyStatus(key: KeyRecord, now: Date): KeyStatus {
  const text = key.expires_at;
  if (key.status !== "active" || text === null) return key.status;
  let expiry = expiryTimes.get(key);
  if (expiry?.text !== text) expiryTimes.set(key, (expiry = { text, time: Date.parse(text) }));
  return expiry.time <= now.getTime() ? "expired" : "active";
}

/** Every status a key can have at a given moment, as the operator filters on it. */
export const KEY_STATUSES: readonly KeyStatus[] = ["pending_deposit", "active", "expired", "revoked"];

/**
 * The keys whose status at `now` is `status` (all keys when undefined), newest first, read a page
 * at a time. `expired` is not stored (it is an active key past its expiry), so the filter is on the
 * live status.
 */
export async function* keysWithStatus(store: QuotaStore, status: KeyStatus | undefined, now: Date): AsyncGenerator<KeyRecord, void, undefined> {
  for await (const key of eachKey(store, { status: status === "expired" ? "active" : status })) {
    if (status === undefined || keyStatus(key, now) === status) yield key;
  }
}

/** Outcome of an operator action: the updated key, or why nothing changed. */
/** What an operator's action did; `unchanged`: the key already was what the action makes it (confirming an active key). */
export type ActionResult = { ok: true; key: KeyRecord; unchanged?: true } | { ok: false; reason: "not_found" | "revoked" };

/**
 * Confirms the deposit: the key becomes `annual`/`active` for one year from now. Confirming an
 * expired key renews it for a year from now. Confirming a key that is already active changes
 * nothing (a repeated click must not sell a second year). A revoked key cannot be confirmed.
 */
export async function confirmKey(store: QuotaStore, id: string, now: Date): Promise<ActionResult> {
  const key = await store.keyById(id);
  if (!key) return { ok: false, reason: "not_found" };
  if (key.status === "revoked") return { ok: false, reason: "revoked" };
  if (keyStatus(key, now) === "active") return { ok: true, key, unchanged: true };
  const expires = annualExpiry(now);
  const updated = await store.updateKey(id, {
    plan: "annual",
    status: "active",
    confirmed_at: now.toISOString(),
    expires_at: expires.toISOString(),
  });
  // Revoked meanwhile (by another process): the store kept it revoked.
  if (updated?.status === "revoked") return { ok: false, reason: "revoked" };
  return updated ? { ok: true, key: updated } : { ok: false, reason: "not_found" };
}

/** Revokes a key for good (it answers 403 `key_revoked` from then on). */
export async function revokeKey(store: QuotaStore, id: string, now: Date): Promise<ActionResult> {
  const key = await store.keyById(id);
  if (!key) return { ok: false, reason: "not_found" };
  const updated = await store.updateKey(id, { status: "revoked", revoked_at: key.revoked_at ?? now.toISOString() });
  return updated ? { ok: true, key: updated } : { ok: false, reason: "not_found" };
}

/**
 * The reference a customer writes as the depositor name of the transfer (`HJ` + the first six
 * characters of the key id, upper-cased), so the operator can match a deposit to its key.
 */
export function paymentReference(keyId: string): string {
  return `HJ${keyId.slice(4, 10).toUpperCase()}`;
}

/** The key as the operator sees it (admin routes, CLI): everything but the hash, with the live status and the payment reference. */
export function adminView(key: KeyRecord, now: Date): Record<string, unknown> {
  const { hash: _hash, erased_at, applicant, ...rest } = key;
  return { ...rest, status: keyStatus(key, now), payment_reference: paymentReference(key.id), erased_at: erased_at ?? null, applicant };
}
