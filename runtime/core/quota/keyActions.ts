/**
 * The operator's actions on a key, shared by the admin HTTP routes and the CLI:
 * confirming a deposit (or renewing an expired key) and revoking.
 */
import { eachKey } from "./keyPages.ts";
import type { KeyPatch, KeyRecord, KeyStatus, QuotaStore } from "./store.ts";

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
 * `confirmed_at` becomes `paidAt`: now for the operator's click, the deposit's own time for a
 * bank statement's line (`creditDeposit`), which is how a second run knows the line is counted.
 */
export async function confirmKey(store: QuotaStore, id: string, now: Date, paidAt = now): Promise<ActionResult> {
  const key = await store.keyById(id);
  if (!key) return { ok: false, reason: "not_found" };
  if (key.status === "revoked") return { ok: false, reason: "revoked" };
  if (keyStatus(key, now) === "active") return { ok: true, key, unchanged: true };
  return applyConfirmation(store, id, confirmation(now, paidAt));
}

/** Writes a confirmation or renewal; a key revoked meanwhile (by another process) stays revoked. */
async function applyConfirmation(store: QuotaStore, id: string, patch: KeyPatch): Promise<ActionResult> {
  const updated = await store.updateKey(id, patch);
  // Revoked meanwhile (by another process): the store kept it revoked.
  if (updated?.status === "revoked") return { ok: false, reason: "revoked" };
  return updated ? { ok: true, key: updated } : { ok: false, reason: "not_found" };
}

/**
 * Credits one deposit made at `paidAt` (a bank statement's line) to key `id` (`depositPatch`).
 * Two processes crediting the same key at the same moment may both read its old end: credit one
 * statement at a time.
 */
export async function creditDeposit(store: QuotaStore, id: string, now: Date, paidAt: Date): Promise<ActionResult> {
  const key = await store.keyById(id);
  if (!key) return { ok: false, reason: "not_found" };
  if (key.status === "revoked") return { ok: false, reason: "revoked" };
  const patch = depositPatch(key, now, paidAt);
  return patch === null ? { ok: true, key, unchanged: true } : applyConfirmation(store, id, patch);
}

/**
 * What a deposit made at `paidAt` does to a key that is not revoked: awaiting its deposit, or
 * expired, it is confirmed as `confirmKey` does (a year from now); an annual key still active is
 * renewed: a year is added to its end. A deposit made at or before the key's `confirmed_at` is
 * already counted (a statement read twice, or a deposit the operator confirmed by hand after it
 * arrived): null, nothing to do.
 */
export function depositPatch(key: KeyRecord, now: Date, paidAt: Date): KeyPatch | null {
  if (key.confirmed_at !== null && Date.parse(key.confirmed_at) >= paidAt.getTime()) return null;
  if (keyStatus(key, now) !== "active" || key.plan !== "annual" || key.expires_at === null) return confirmation(now, paidAt);
  return { confirmed_at: paidAt.toISOString(), expires_at: annualExpiry(new Date(key.expires_at)).toISOString() };
}

/** The change a confirmation makes: the annual plan for a year from now, paid at `paidAt`. */
function confirmation(now: Date, paidAt: Date): KeyPatch {
  return { plan: "annual", status: "active", confirmed_at: paidAt.toISOString(), expires_at: annualExpiry(now).toISOString() };
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

/** Whether `text` is a payment reference (`HJ` and six letters or digits, any case) rather than a key id. */
export function isPaymentReference(text: string): boolean {
  return /^HJ[0-9A-Z]{6}$/i.test(text);
}

/**
 * The keys with this payment reference, newest first. References are unique only among the
 * applications awaiting their deposit (the id's letters lose their case), so an older key may
 * share one.
 */
export async function keysWithReference(store: QuotaStore, reference: string): Promise<KeyRecord[]> {
  const wanted = reference.toUpperCase();
  const keys: KeyRecord[] = [];
  for await (const key of eachKey(store)) if (paymentReference(key.id) === wanted) keys.push(key);
  return keys;
}

const DAY_MS = 86_400_000;

/**
 * Whole days until the key's annual plan ends, counted up (a plan ending in 2 hours has 1 day
 * left); 0 once it has ended; null for a key without an end (awaiting its deposit) or revoked.
 */
export function daysLeft(key: KeyRecord, now: Date): number | null {
  if (key.expires_at === null || key.status === "revoked") return null;
  return Math.max(0, Math.ceil((Date.parse(key.expires_at) - now.getTime()) / DAY_MS));
}

/**
 * The annual keys (not revoked) whose plan ends within `days` days of `now`, soonest first;
 * those already expired are included (0: only those), as the ones to remind first.
 */
export async function keysExpiring(store: QuotaStore, now: Date, days: number): Promise<KeyRecord[]> {
  const until = now.getTime() + days * DAY_MS;
  const keys: KeyRecord[] = [];
  for await (const key of eachKey(store, { status: "active" })) if (key.expires_at !== null && Date.parse(key.expires_at) <= until) keys.push(key);
  return keys.sort((a, b) => Date.parse(a.expires_at as string) - Date.parse(b.expires_at as string));
}

/** A line of `keys expiring`: who to remind, by when, and the reference their transfer must carry. */
export function expiringLine(key: KeyRecord, now: Date): Record<string, unknown> {
  const { id, expires_at, applicant } = key;
  return {
    id,
    status: keyStatus(key, now),
    expires_at,
    days_left: daysLeft(key, now),
    reference: paymentReference(id),
    name: applicant.name,
    email: applicant.email,
  };
}

/** The key as the operator sees it (admin routes, CLI): everything but the hash, with the live status and the payment reference. */
export function adminView(key: KeyRecord, now: Date): Record<string, unknown> {
  const { hash: _hash, erased_at, applicant, ...rest } = key;
  return { ...rest, status: keyStatus(key, now), payment_reference: paymentReference(key.id), erased_at: erased_at ?? null, applicant };
}
