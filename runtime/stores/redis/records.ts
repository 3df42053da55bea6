/** The key records as the Redis store keeps them: JSON in `{keys}:records`, with the lower-cased e-mail beside the applicant. */
import type { KeyRecord } from "../../core/quota/store.ts";

/** The fields of a stored record, in the order records are built (JSON adds `email_key`, "" once erased). */
export interface StoredRecord extends Omit<KeyRecord, "applicant"> {
  name: string;
  email: string;
  phone: string | null;
  depositor: string | null;
  email_key: string;
}

/** A stored record as a frozen `KeyRecord` (records may be handed to several requests). */
export function toKeyRecord(json: string): KeyRecord {
  const r = JSON.parse(json) as StoredRecord;
  return Object.freeze({
    id: r.id,
    hash: r.hash,
    plan: r.plan,
    status: r.status,
    created_at: r.created_at,
    confirmed_at: r.confirmed_at ?? null,
    expires_at: r.expires_at ?? null,
    revoked_at: r.revoked_at ?? null,
    // Present only once erased, as the SQLite store returns it.
    ...(r.erased_at ? { erased_at: r.erased_at } : {}),
    applicant: Object.freeze({ name: r.name, email: r.email, phone: r.phone ?? null, depositor: r.depositor ?? null }),
  });
}

/** The key that makes two applications "the same e-mail": case-insensitive, as the other stores. */
export function emailKey(email: string): string {
  return email.toLowerCase();
}
