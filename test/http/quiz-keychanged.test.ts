/**
 * A key record answered from memory for a count (`keyByHash(hash, true)`) is checked by that count:
 * when the store refuses the count because a key changed (`KeyChangedError`, as the Redis store
 * does), the service reads the key again and answers on the current record — a confirmation or a
 * revocation made elsewhere applies to this very call — and the call is counted once at most.
 * In process, with a memory store that plays another instance's stale memory.
 */
import { describe, expect, it } from "vitest";
import { MemoryQuotaStore } from "../../runtime/core/quota/memoryStore.ts";
import {
  type ConsumeResult,
  KeyChangedError,
  type KeyPageQuery,
  type KeyPatch,
  type KeyRecord,
  type QuotaStore,
  type StoredKeyStatus,
  keyBucket,
} from "../../runtime/core/quota/store.ts";
import type { ClassRecord, ClassSubmission } from "../../runtime/core/classes/classStore.ts";
import { getJson, testApp } from "../helpers/app.ts";
import { Q, expectProblem, newKey, testClock } from "./quiz-helpers.ts";

const DAY = "2025-03-01";

/**
 * A memory store whose lookups for a count may answer an older copy of a record (`stale`), as a
 * server's memory may hold; the count of a key answered so refuses with `KeyChangedError` while the
 * copy differs from the stored record (`refuseAlways`: every such count refuses).
 */
class StaleMemoryStore implements QuotaStore {
  readonly stored = new MemoryQuotaStore();
  readonly stale = new Map<string, KeyRecord>();
  readonly fromMemory = new Set<string>();
  lookups: { hash: string; toCount: boolean }[] = [];
  refuseAlways = false;

  keyByHash(hash: string, toCount = false): KeyRecord | null {
    this.lookups.push({ hash, toCount });
    const copy = this.stale.get(hash);
    if (toCount && copy !== undefined) {
      this.fromMemory.add(keyBucket(copy.id));
      return copy;
    }
    return this.stored.keyByHash(hash);
  }

  consume(bucket: string, day: string, limit: number): Promise<ConsumeResult> {
    const checked = this.fromMemory.delete(bucket);
    if (checked) {
      const copy = [...this.stale.values()].find((k) => keyBucket(k.id) === bucket) as KeyRecord;
      if (this.refuseAlways || JSON.stringify(copy) !== JSON.stringify(this.stored.keyById(copy.id))) {
        if (!this.refuseAlways) this.stale.delete(copy.hash);
        return Promise.reject(new KeyChangedError());
      }
    }
    return Promise.resolve(this.stored.consume(bucket, day, limit));
  }

  used = (bucket: string, day: string) => this.stored.used(bucket, day);
  usage = (id: string, fromDay: string, toDay: string) => this.stored.usage(id, fromDay, toDay);
  insertKey = (record: KeyRecord) => this.stored.insertKey(record);
  eraseApplicant = (id: string, status: StoredKeyStatus, at: string) => this.stored.eraseApplicant(id, status, at);
  keyById = (id: string) => this.stored.keyById(id);
  keyPage = (query: KeyPageQuery) => this.stored.keyPage(query);
  erasablePage = (until: string, after: string | null, limit: number) => this.stored.erasablePage(until, after, limit);
  acquireLease = (name: string, holder: string, ttlMs: number) => this.stored.acquireLease(name, holder, ttlMs);
  releaseLease = (name: string, holder: string) => this.stored.releaseLease(name, holder);
  pruneCounters = (beforeDay: string, limit: number) => this.stored.pruneCounters(beforeDay, limit);
  pruneUsage = (beforeDay: string, limit: number) => this.stored.pruneUsage(beforeDay, limit);
  updateKey = (id: string, patch: KeyPatch) => this.stored.updateKey(id, patch);
  insertClass = (record: ClassRecord, maxKept: number) => this.stored.insertClass(record, maxKept);
  classByCode = (code: string) => this.stored.classByCode(code);
  classesOfKey = (keyId: string, now: string) => this.stored.classesOfKey(keyId, now);
  studentOf = (code: string, nameKey: string) => this.stored.studentOf(code, nameKey);
  submitToClass = (code: string, submission: ClassSubmission, now: string) => this.stored.submitToClass(code, submission, now);
  classSubmissions = (code: string) => this.stored.classSubmissions(code);
  pruneClasses = (now: string, limit: number) => this.stored.pruneClasses(now, limit);
  close = () => this.stored.close();
}

async function setUp() {
  const clock = testClock(`${DAY}T03:00:00Z`);
  const store = new StaleMemoryStore();
  const app = testApp({ store, now: clock.now });
  const { key, id } = await newKey(app, "stale");
  const record = store.keyById(id) as KeyRecord;
  return { app, store, key, id, record, bucket: keyBucket(id) };
}

describe("a key record from memory, checked by its count", () => {
  it("confirmed elsewhere: the call is answered on the annual plan, counted once", async () => {
    const { app, store, key, id, record, bucket } = await setUp();
    store.stale.set(record.hash, record);
    store.updateKey(id, { plan: "annual", status: "active", confirmed_at: `${DAY}T02:00:00.000Z`, expires_at: "2026-03-01T02:00:00.000Z" });
    const result = await getJson(app, `${Q}/idiom`, { headers: { "X-API-Key": key } });
    expect(result.status).toBe(200);
    expect(result.body.quota).toEqual({ plan: "annual", remaining: 9_999 });
    expect(result.headers.get("x-ratelimit-limit")).toBe("10000");
    expect(store.used(bucket, DAY)).toBe(1);
    // Asked once for the count, then once more for the current record.
    expect(store.lookups.map((l) => l.toCount)).toEqual([true, false]);
  });

  it("revoked elsewhere: 403 key_revoked, nothing counted", async () => {
    const { app, store, key, id, record, bucket } = await setUp();
    store.stale.set(record.hash, record);
    store.updateKey(id, { status: "revoked", revoked_at: `${DAY}T02:00:00.000Z` });
    expectProblem(await getJson(app, `${Q}/quiz`, { headers: { "X-API-Key": key } }), 403, "key_revoked", "X-API-Key");
    expect(store.used(bucket, DAY)).toBe(0);
  });

  it("unchanged: counted on the record from memory, no second lookup", async () => {
    const { app, store, key, record, bucket } = await setUp();
    store.stale.set(record.hash, record);
    const result = await getJson(app, `${Q}/idiom`, { headers: { "X-API-Key": key } });
    expect(result.body.quota).toEqual({ plan: "free", remaining: 99 });
    expect(store.used(bucket, DAY)).toBe(1);
    expect(store.lookups.map((l) => l.toCount)).toEqual([true]);
  });

  it("a refusal is decided on the current record: expired in memory but renewed elsewhere → served", async () => {
    const { app, store, key, id, record, bucket } = await setUp();
    store.stale.set(record.hash, { ...record, plan: "annual", status: "active", expires_at: `${DAY}T01:00:00.000Z` });
    store.updateKey(id, { plan: "annual", status: "active", confirmed_at: `${DAY}T02:00:00.000Z`, expires_at: "2026-03-01T02:00:00.000Z" });
    const result = await getJson(app, `${Q}/idiom`, { headers: { "X-API-Key": key } });
    expect(result.status).toBe(200);
    expect(result.body.quota.plan).toBe("annual");
    expect(store.used(bucket, DAY)).toBe(1);
  });

  it("a store that refuses the second count too: 503 with Retry-After, nothing counted, no loop", async () => {
    const { app, store, key, record, bucket } = await setUp();
    store.refuseAlways = true;
    store.stale.set(record.hash, record);
    // The second lookup answers from memory too (a store breaking the contract): refused again.
    const keyByHash = store.keyByHash.bind(store);
    store.keyByHash = (hash: string) => keyByHash(hash, true);
    const result = await getJson(app, `${Q}/idiom`, { headers: { "X-API-Key": key } });
    expectProblem(result, 503, "service_unavailable");
    expect(result.headers.get("retry-after")).toBe("1");
    expect(store.used(bucket, DAY)).toBe(0);
  });
});
