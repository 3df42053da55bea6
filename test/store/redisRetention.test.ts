/**
 * The retention and payment-reference rules of the store contract on Redis, across connections
 * (as across server instances): one open application per payment reference under a race, an
 * erasure racing a confirmation, an e-mail freed by an erasure for every instance, and an erased
 * record imported as erased.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmKey, paymentReference } from "../../runtime/core/quota/keyActions.ts";
import { DuplicateReferenceError } from "../../runtime/core/quota/store.ts";
import { type RedisQuotaStore, openRedisStore } from "../../runtime/stores/redis/redisStore.ts";
import { type TestRedis, removeAllRedis, skipRedis, startRedis } from "../helpers/redisServer.ts";
import { keyRecord } from "./contractCases.ts";
import { allKeys } from "../../runtime/core/quota/keyPages.ts";

const ERASED_AT = "2025-04-01T00:00:00.000Z";
const CONFIRMED_AT = new Date("2025-03-05T12:00:00.000Z");
let prefixes = 0;

describe.skipIf(skipRedis)("the Redis store's retention and payment references across connections", () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(removeAllRedis);

  /** `n` connections on one fresh prefix, as `n` server instances on one Redis. */
  async function instances(n: number): Promise<RedisQuotaStore[]> {
    const prefix = `retention-${++prefixes}:`;
    return Promise.all(Array.from({ length: n }, () => openRedisStore({ url: redis.url, prefix, log: () => {} })));
  }

  it("of 20 concurrent applications sharing one payment reference from 4 connections, exactly one is stored; the others fail with DuplicateReferenceError", async () => {
    const stores = await instances(4);
    try {
      // Same characters 5 to 10 in any case: the same reference.
      const records = Array.from({ length: 20 }, (_, i) => keyRecord({ id: `key_${i % 2 ? "ABCDEF" : "abcdef"}${String(i).padStart(6, "0")}` }));
      expect(new Set(records.map((r) => paymentReference(r.id))).size).toBe(1);
      const outcomes = await Promise.allSettled(records.map((record, i) => stores[i % 4]!.insertKey(record)));
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      for (const o of outcomes) if (o.status === "rejected") expect(o.reason).toBeInstanceOf(DuplicateReferenceError);
      expect(await allKeys(stores[0]!, "pending_deposit")).toHaveLength(1);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it("an erasure racing a confirmation from another connection: erased only while pending, a confirmed key keeps its data, and an erased e-mail is free on every connection", async () => {
    const [eraser, confirmer, other] = await instances(3);
    try {
      const records = Array.from({ length: 30 }, (_, i) => keyRecord({ email: `race-${i}@example.com` }));
      for (const record of records) await eraser!.insertKey(record);
      const results = await Promise.all(
        records.map(async (record) => {
          const [erased] = await Promise.all([
            eraser!.eraseApplicant(record.id, "pending_deposit", ERASED_AT),
            confirmKey(confirmer!, record.id, CONFIRMED_AT),
          ]);
          return { record, erased };
        }),
      );
      for (const { record, erased } of results) {
        const now = await other!.keyById(record.id);
        expect(now?.status).toBe("active");
        if (erased) {
          expect(now?.erased_at).toBe(ERASED_AT);
          expect(now?.applicant).toEqual({ name: "", email: "", phone: null, depositor: null });
        } else {
          expect(now?.erased_at).toBeUndefined();
          expect(now?.applicant.email).toBe(record.applicant.email);
        }
      }
      // Erased while still pending, on one connection: the e-mail is free on another at once.
      const pending = keyRecord({ email: "Free@Example.com" });
      await eraser!.insertKey(pending);
      expect(await other!.eraseApplicant(pending.id, "pending_deposit", ERASED_AT)).toBe(true);
      await confirmer!.insertKey(keyRecord({ email: "free@example.com" }));
      expect((await allKeys(eraser!, "pending_deposit")).map((k) => k.applicant.email).sort()).toEqual(["", "free@example.com"]);
    } finally {
      await Promise.all([eraser, confirmer, other].map((store) => store!.close()));
    }
  });

  it("a record inserted erased (an import) stays erased, blocks no e-mail and keeps its payment reference open", async () => {
    const [store] = await instances(1);
    try {
      const erased = keyRecord({ erased_at: ERASED_AT, applicant: { name: "", email: "", phone: null, depositor: null } });
      await store!.insertKey(erased);
      expect((await store!.keyByHash(erased.hash))?.erased_at).toBe(ERASED_AT);
      expect(await store!.eraseApplicant(erased.id, "pending_deposit", "2025-05-01T00:00:00.000Z")).toBe(false);
      await store!.insertKey(keyRecord({ email: "" }));
      await expect(store!.insertKey(keyRecord({ id: `${erased.id.slice(0, 10)}zzzzzz` }))).rejects.toBeInstanceOf(DuplicateReferenceError);
    } finally {
      await store!.close();
    }
  });
});
