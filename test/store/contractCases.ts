/**
 * The QuotaStore contract as plain async checks (node:assert), so the same cases run under
 * vitest (`contract.test.ts`) and, through `smoke.ts`, on Bun and Deno.
 */
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { confirmKey, paymentReference, revokeKey } from "../../runtime/core/quota/keyActions.ts";
import { allKeys } from "../../runtime/core/quota/keyPages.ts";
import {
  DuplicateApplicationError,
  DuplicateReferenceError,
  KeyChangedError,
  type KeyRecord,
  type QuotaStore,
  keyBucket,
} from "../../runtime/core/quota/store.ts";

/** When the contract's cases confirm or revoke. */
const CONFIRMED_AT = new Date("2025-03-05T12:00:00.000Z");

/** A new pending key, stored. */
async function storedKey(store: QuotaStore): Promise<KeyRecord> {
  const key = keyRecord();
  await store.insertKey(key);
  return key;
}

/** One contract check, given a fresh, empty store (the harness closes it). */
export interface ContractCase {
  name: string;
  run(store: QuotaStore): Promise<void>;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** What a run of contract cases gave: the names that passed, and each failure's message. */
export interface CaseResults {
  passed: string[];
  failed: { name: string; error: string }[];
}

/**
 * Runs each case on a store of its own (`open(i)` for the i-th case), closing it after, and
 * collects the results: what the per-runtime smoke scripts print.
 */
export async function runCases(cases: readonly ContractCase[], open: (index: number) => Promise<QuotaStore>): Promise<CaseResults> {
  const results: CaseResults = { passed: [], failed: [] };
  for (const [index, check] of cases.entries()) {
    const store = await open(index);
    try {
      await check.run(store);
      results.passed.push(check.name);
    } catch (error) {
      results.failed.push({ name: check.name, error: error instanceof Error ? error.message : String(error) });
    } finally {
      await store.close();
    }
  }
  return results;
}

/** A random base62 string of `length` characters. */
export function base62(length: number): string {
  return [...randomBytes(length)].map((byte) => BASE62[byte % 62]).join("");
}

/** A fresh plaintext key as `/subscribe` would issue it (`hj_` + 32 base62 ≈ 190 bits). */
export function plaintextKey(): string {
  return `hj_${base62(32)}`;
}

/** SHA-256 hex, as the store keeps keys. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A pending key record for `email`, with fields overridable. */
export function keyRecord(overrides: Partial<KeyRecord> & { email?: string } = {}): KeyRecord {
  const { email = `${base62(8).toLowerCase()}@example.com`, ...rest } = overrides;
  return {
    id: `key_${base62(12)}`,
    hash: sha256(plaintextKey()),
    plan: "free",
    status: "pending_deposit",
    created_at: "2025-03-01T00:00:00.000Z",
    confirmed_at: null,
    expires_at: null,
    revoked_at: null,
    applicant: { name: "홍길동", email, phone: null, depositor: null },
    ...rest,
  };
}

const DAY = "2025-03-01";

export const contractCases: ContractCase[] = [
  {
    name: "consume counts from 1 and used() reads the count",
    async run(store) {
      assert.equal(await store.used("ip:1", DAY), 0);
      assert.deepEqual(await store.consume("ip:1", DAY, 5), { allowed: true, used: 1 });
      assert.deepEqual(await store.consume("ip:1", DAY, 5), { allowed: true, used: 2 });
      assert.equal(await store.used("ip:1", DAY), 2);
    },
  },
  {
    name: "consume refuses at the limit without counting, and a higher limit allows again",
    async run(store) {
      for (let i = 1; i <= 3; i++) assert.deepEqual(await store.consume("k", DAY, 3), { allowed: true, used: i });
      assert.deepEqual(await store.consume("k", DAY, 3), { allowed: false, used: 3 });
      assert.deepEqual(await store.consume("k", DAY, 3), { allowed: false, used: 3 });
      assert.equal(await store.used("k", DAY), 3);
      assert.deepEqual(await store.consume("k", DAY, 4), { allowed: true, used: 4 });
    },
  },
  {
    name: "a limit of 0 allows nothing and counts nothing",
    async run(store) {
      assert.deepEqual(await store.consume("revoked", DAY, 0), { allowed: false, used: 0 });
      assert.equal(await store.used("revoked", DAY), 0);
    },
  },
  {
    name: "buckets and days are counted separately",
    async run(store) {
      assert.equal((await store.consume("a", DAY, 1)).allowed, true);
      assert.equal((await store.consume("a", DAY, 1)).allowed, false);
      assert.deepEqual(await store.consume("b", DAY, 1), { allowed: true, used: 1 });
      assert.deepEqual(await store.consume("a", "2025-03-02", 1), { allowed: true, used: 1 });
      assert.equal((await store.consume("a", "2025-03-02", 1)).allowed, false);
    },
  },
  {
    name: "200 concurrent consumes against a limit of 30 allow exactly 30",
    async run(store) {
      const results = await Promise.all(Array.from({ length: 200 }, () => store.consume("burst", DAY, 30)));
      const allowed = results.filter((r) => r.allowed);
      assert.equal(allowed.length, 30);
      assert.deepEqual(
        allowed.map((r) => r.used).sort((x, y) => x - y),
        Array.from({ length: 30 }, (_, i) => i + 1),
      );
      assert.equal(await store.used("burst", DAY), 30);
    },
  },
  {
    name: "insertKey stores a record that keyById and keyByHash return unchanged",
    async run(store) {
      const key = keyRecord({ applicant: { name: "김 철수", email: "Kim@Example.com", phone: "+82 10-1234-5678", depositor: "김철수" } });
      await store.insertKey(key);
      assert.deepEqual(await store.keyById(key.id), key);
      assert.deepEqual(await store.keyByHash(key.hash), key);
      assert.equal(await store.keyById("key_nope"), null);
      assert.equal(await store.keyByHash(sha256("hj_nope")), null);
    },
  },
  {
    name: "a lookup for a count (keyByHash(hash, true)) answers the key; after a change, the changed key, or a count that refuses with KeyChangedError and counts nothing",
    async run(store) {
      const key = await storedKey(store);
      assert.deepEqual(await store.keyByHash(key.hash), key);
      assert.deepEqual(await store.keyByHash(key.hash, true), key);
      assert.equal(await store.keyByHash(sha256("hj_nope"), true), null);
      await confirmKey(store, key.id, CONFIRMED_AT);
      const seen = await store.keyByHash(key.hash, true);
      const bucket = keyBucket(key.id);
      try {
        const counted = await store.consume(bucket, "2025-03-05", 100);
        assert.equal(seen?.plan, "annual", "a count went ahead on the record from before the change");
        assert.deepEqual(counted, { allowed: true, used: 1 });
      } catch (error) {
        assert.ok(error instanceof KeyChangedError, String(error));
        assert.equal(await store.used(bucket, "2025-03-05"), 0);
      }
    },
  },
  {
    name: "records read back cannot change the stored key (copies, or frozen)",
    async run(store) {
      const key = keyRecord();
      await store.insertKey(key);
      const read = await store.keyById(key.id);
      assert.ok(read);
      try {
        read.status = "revoked";
        read.applicant.name = "changed";
      } catch (error) {
        assert.ok(error instanceof TypeError, "only a frozen record may refuse the change");
      }
      // Changing the inserted object afterwards does not reach the store either.
      key.applicant.phone = "000";
      assert.deepEqual(await store.keyById(key.id), { ...key, applicant: { ...key.applicant, phone: keyRecord().applicant.phone } });
    },
  },
  {
    name: "keys are listed newest first and filtered by stored status",
    async run(store) {
      const old = keyRecord({ created_at: "2025-01-01T00:00:00.000Z" });
      const mid = keyRecord({ created_at: "2025-02-01T00:00:00.000Z", status: "active", plan: "annual" });
      const recent = keyRecord({ created_at: "2025-03-01T00:00:00.000Z" });
      for (const key of [mid, recent, old]) await store.insertKey(key);
      assert.deepEqual(
        (await allKeys(store)).map((k) => k.id),
        [recent.id, mid.id, old.id],
      );
      assert.deepEqual(
        (await allKeys(store, "pending_deposit")).map((k) => k.id),
        [recent.id, old.id],
      );
      assert.deepEqual(
        (await allKeys(store, "active")).map((k) => k.id),
        [mid.id],
      );
      assert.deepEqual(await allKeys(store, "revoked"), []);
    },
  },
  {
    name: "updateKey changes only the patched fields and returns the record",
    async run(store) {
      const key = keyRecord();
      await store.insertKey(key);
      const patch = { plan: "annual", status: "active", confirmed_at: "2025-03-02T00:00:00.000Z", expires_at: "2026-03-02T00:00:00.000Z" } as const;
      const updated = await store.updateKey(key.id, patch);
      assert.deepEqual(updated, { ...key, ...patch });
      assert.deepEqual(await store.keyByHash(key.hash), { ...key, ...patch });
      assert.deepEqual(await store.updateKey(key.id, { revoked_at: "2025-03-03T00:00:00.000Z", status: "revoked" }), {
        ...key,
        ...patch,
        status: "revoked",
        revoked_at: "2025-03-03T00:00:00.000Z",
      });
      assert.equal(await store.updateKey("key_nope", { status: "revoked" }), null);
    },
  },
  {
    name: "a second pending application with the same e-mail (any case) is a DuplicateApplicationError",
    async run(store) {
      const first = keyRecord({ email: "Applicant@Example.COM" });
      await store.insertKey(first);
      const again = keyRecord({ email: "applicant@example.com" });
      await assert.rejects(async () => store.insertKey(again), DuplicateApplicationError);
      assert.equal(await store.keyById(again.id), null);
      await store.insertKey(keyRecord({ email: "other@example.com" }));
      assert.equal((await allKeys(store)).length, 2);
    },
  },
  {
    name: "the same e-mail may apply again once the pending key is confirmed or revoked",
    async run(store) {
      const now = new Date("2025-03-05T00:00:00.000Z");
      const first = keyRecord({ email: "repeat@example.com" });
      await store.insertKey(first);
      assert.equal((await confirmKey(store, first.id, now)).ok, true);
      const second = keyRecord({ email: "REPEAT@example.com" });
      await store.insertKey(second);
      await assert.rejects(async () => store.insertKey(keyRecord({ email: "repeat@EXAMPLE.com" })), DuplicateApplicationError);
      assert.equal((await revokeKey(store, second.id, now)).ok, true);
      await store.insertKey(keyRecord({ email: "Repeat@Example.com" }));
      assert.equal((await allKeys(store)).length, 3);
    },
  },
  {
    name: "confirmKey makes a pending key annual and active for one calendar year; revokeKey revokes it",
    async run(store) {
      const now = new Date("2025-03-05T12:00:00.000Z");
      const key = await storedKey(store);
      const confirmed = await confirmKey(store, key.id, now);
      assert.ok(confirmed.ok);
      assert.equal(confirmed.key.plan, "annual");
      assert.equal(confirmed.key.status, "active");
      assert.equal(confirmed.key.confirmed_at, now.toISOString());
      assert.equal(confirmed.key.expires_at, "2026-03-05T12:00:00.000Z");
      const revoked = await revokeKey(store, key.id, now);
      assert.ok(revoked.ok);
      assert.equal(revoked.key.status, "revoked");
      assert.deepEqual(await confirmKey(store, key.id, now), { ok: false, reason: "revoked" });
      assert.deepEqual(await confirmKey(store, "key_nope", now), { ok: false, reason: "not_found" });
    },
  },
  {
    name: "confirmKey: a year is a calendar year, 366 days over a 29 February; from 29 February it ends on 1 March",
    async run(store) {
      for (const [confirmedAt, expiresAt] of [
        ["2027-11-22T15:00:00.000Z", "2028-11-22T15:00:00.000Z"],
        ["2028-02-29T10:30:00.000Z", "2029-03-01T10:30:00.000Z"],
        ["2026-12-31T23:59:59.999Z", "2027-12-31T23:59:59.999Z"],
      ] as const) {
        const key = keyRecord();
        await store.insertKey(key);
        const confirmed = await confirmKey(store, key.id, new Date(confirmedAt));
        assert.ok(confirmed.ok);
        assert.equal(confirmed.key.expires_at, expiresAt);
      }
    },
  },
  {
    name: "a revocation is final: updateKey leaves a revoked key as it is, and confirmKey says revoked",
    async run(store) {
      const key = await storedKey(store);
      const revoked = await revokeKey(store, key.id, CONFIRMED_AT);
      assert.ok(revoked.ok);
      const after = await store.updateKey(key.id, {
        plan: "annual",
        status: "active",
        confirmed_at: CONFIRMED_AT.toISOString(),
        expires_at: "2026-03-05T12:00:00.000Z",
      });
      assert.equal(after?.status, "revoked");
      assert.equal(after?.plan, "free");
      assert.equal(after?.expires_at, null);
      assert.equal((await store.keyById(key.id))?.status, "revoked");
      assert.deepEqual(await confirmKey(store, key.id, CONFIRMED_AT), { ok: false, reason: "revoked" });
      assert.equal(await store.updateKey("key_nope", { status: "active" }), null);
    },
  },
  {
    name: "eraseApplicant empties the personal data once, only while the status is the one given, and keeps the key",
    async run(store) {
      const key = keyRecord({ applicant: { name: "홍길동", email: "erase@example.com", phone: "010-1234-5678", depositor: "홍길동" } });
      await store.insertKey(key);
      assert.equal(await store.eraseApplicant(key.id, "revoked", "2025-04-01T00:00:00.000Z"), false);
      assert.equal((await store.keyById(key.id))?.applicant.email, "erase@example.com");
      assert.equal(await store.eraseApplicant(key.id, "pending_deposit", "2025-04-01T00:00:00.000Z"), true);
      assert.equal(await store.eraseApplicant(key.id, "pending_deposit", "2025-04-02T00:00:00.000Z"), false);
      const erased = await store.keyByHash(key.hash);
      assert.deepEqual(erased?.applicant, { name: "", email: "", phone: null, depositor: null });
      assert.equal(erased?.erased_at, "2025-04-01T00:00:00.000Z");
      assert.equal(erased?.status, "pending_deposit");
      assert.equal(await store.eraseApplicant("key_nope", "pending_deposit", "2025-04-01T00:00:00.000Z"), false);
      // The e-mail is free again, and two erased applications do not collide on their empty e-mail.
      const other = keyRecord({ email: "erase@example.com" });
      await store.insertKey(other);
      assert.equal(await store.eraseApplicant(other.id, "pending_deposit", "2025-04-03T00:00:00.000Z"), true);
      // An erased key can still be confirmed: a late deposit is matched by its payment reference.
      const confirmed = await confirmKey(store, key.id, CONFIRMED_AT);
      assert.ok(confirmed.ok);
      assert.equal(confirmed.key.status, "active");
    },
  },
  {
    name: "insertKey keeps erased_at as given (an import of an erased application): the key stays erased, and an empty e-mail of an erased application blocks no other",
    async run(store) {
      const erased = { name: "", email: "", phone: null, depositor: null };
      const first = keyRecord({ erased_at: "2025-04-01T00:00:00.000Z", applicant: erased });
      await store.insertKey(first);
      await store.insertKey(keyRecord({ erased_at: "2025-04-02T00:00:00.000Z", applicant: erased }));
      const stored = await store.keyById(first.id);
      assert.equal(stored?.erased_at, "2025-04-01T00:00:00.000Z");
      assert.deepEqual(stored?.applicant, erased);
      assert.equal(await store.eraseApplicant(first.id, "pending_deposit", "2025-05-01T00:00:00.000Z"), false);
      assert.equal((await store.keyByHash(first.hash))?.erased_at, "2025-04-01T00:00:00.000Z");
    },
  },
  {
    name: "insertKey refuses a payment reference an open application has (any case), and takes it once that one is confirmed",
    async run(store) {
      const first = keyRecord({ id: "key_abCDefGHijKL" });
      await store.insertKey(first);
      const clash = keyRecord({ id: "key_ABcdEFxxxxxx" });
      assert.equal(paymentReference(clash.id), paymentReference(first.id));
      await assert.rejects(async () => store.insertKey(clash), DuplicateReferenceError);
      assert.equal(await store.keyById(clash.id), null);
      await store.insertKey(keyRecord({ id: "key_abCDeGyyyyyy" }));
      assert.ok((await confirmKey(store, first.id, CONFIRMED_AT)).ok);
      await store.insertKey(clash);
      assert.equal((await store.keyById(clash.id))?.id, clash.id);
    },
  },
];
