/**
 * Personal data kept only while needed (retention.ts), with the injected clock: the name, e-mail,
 * phone and depositor of an application still awaiting its deposit are erased after the retention
 * period, those of a revoked key after the same period from its revocation; the key keeps working
 * at the free limit, a late deposit is still matched by its payment reference, each erasure is
 * logged without personal data. And payment references are unique among open applications.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryQuotaStore } from "../../runtime/core/quota/memoryStore.ts";
import { paymentReference } from "../../runtime/core/quota/keyActions.ts";
import type { Random } from "../../runtime/core/util/random.ts";
import { cryptoRandom } from "../../runtime/core/util/random.ts";
import { call, getJson, testApp } from "../helpers/app.ts";
import { keyRecord } from "../store/contractCases.ts";
import { Q, applicant, bearer, meteredOk, newKey, subscribe, testClock } from "./quiz-helpers.ts";

const TOKEN = "retention-admin-token-0123456789";
const DAY = 86_400_000;

afterEach(() => vi.restoreAllMocks());

/** What the app writes on stderr while `run` runs. */
async function stderrOf(run: () => Promise<unknown>): Promise<string> {
  const lines: string[] = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
  await run();
  return lines.join("\n");
}

describe("personal data retention", () => {
  it("erases a pending application's personal data after 30 days; the key keeps its free limit and a late deposit is confirmed", async () => {
    const clock = testClock("2026-01-10T03:00:00.000Z");
    const app = testApp({ now: clock.now, adminToken: TOKEN, store: new MemoryQuotaStore() });
    const { key, id } = await newKey(app, "retained", "192.0.2.10");
    const reference = paymentReference(id);

    clock.advance(30 * DAY - 1);
    expect(await app.erasePersonalData()).toMatchObject({ leased: true, erased: 0 });
    expect((await getJson(app, `${Q}/admin/keys/${id}`, { headers: bearer(TOKEN) })).body.key.applicant.email).toBe("applicant-retained@example.com");

    clock.advance(1);
    let erased: unknown;
    const log = await stderrOf(async () => (erased = await app.erasePersonalData()));
    expect(erased).toEqual({ leased: true, erased: 1, pruned: 0, prunedUsage: 0, prunedClasses: 0 });
    expect(JSON.parse(log)).toMatchObject({ level: "info", key_id: id, status: "pending_deposit", since: "2026-01-10T03:00:00.000Z" });
    for (const personal of ["테스트", "applicant-retained", "010-1234", "입금자"]) expect(log).not.toContain(personal);
    // Once only.
    expect(await app.erasePersonalData()).toMatchObject({ leased: true, erased: 0 });

    const shown = (await getJson(app, `${Q}/admin/keys/${id}`, { headers: bearer(TOKEN) })).body.key;
    expect(shown).toMatchObject({ status: "pending_deposit", erased_at: "2026-02-09T03:00:00.000Z", payment_reference: reference });
    expect(shown.applicant).toEqual({ name: "", email: "", phone: null, depositor: null });
    // The key still works at the free limit.
    expect(await meteredOk(app, { key })).toBe(99);
    // A late deposit, matched by its reference in the operator's list, is confirmed.
    const pending = (await getJson(app, `${Q}/admin/keys?status=pending_deposit`, { headers: bearer(TOKEN) })).body.keys;
    expect(pending.find((k: { payment_reference: string }) => k.payment_reference === reference)?.id).toBe(id);
    const confirmed = await getJson(app, `${Q}/admin/keys/${id}/confirm`, { method: "POST", headers: bearer(TOKEN) });
    expect(confirmed.body.key).toMatchObject({ plan: "annual", status: "active" });
    expect(await meteredOk(app, { key })).toBe(9_998);
    // The same e-mail may apply again.
    expect((await subscribe(app, applicant("retained"), { clientAddress: "192.0.2.10" })).status).toBe(201);
  });

  it("keeps an active key's data, erases a revoked key's 30 days after the revocation, and honours retentionDays", async () => {
    const clock = testClock("2026-03-01T00:00:00.000Z");
    const app = testApp({ now: clock.now, adminToken: TOKEN, store: new MemoryQuotaStore(), retentionDays: 7 });
    const active = await newKey(app, "active", "192.0.2.11");
    const revoked = await newKey(app, "revoked", "192.0.2.11");
    expect((await call(app, `${Q}/admin/keys/${active.id}/confirm`, { method: "POST", headers: bearer(TOKEN) })).status).toBe(200);
    clock.advance(3 * DAY);
    expect((await call(app, `${Q}/admin/keys/${revoked.id}/revoke`, { method: "POST", headers: bearer(TOKEN) })).status).toBe(200);
    clock.advance(7 * DAY - 1);
    expect(await stderrOf(() => app.erasePersonalData())).toBe("");
    clock.advance(1);
    const log = await stderrOf(async () => expect(await app.erasePersonalData()).toMatchObject({ erased: 1 }));
    expect(JSON.parse(log)).toMatchObject({ key_id: revoked.id, status: "revoked" });
    expect((await getJson(app, `${Q}/admin/keys/${active.id}`, { headers: bearer(TOKEN) })).body.key.applicant.name).toBe("테스트 상사 active");
    clock.advance(400 * DAY);
    expect(await app.erasePersonalData()).toMatchObject({ leased: true, erased: 0 });
    expect(() => testApp({ retentionDays: 0 })).toThrow(/retentionDays/);
  });

  it("a sweep under way when the app closes stops at its next step, and the store closes after it", async () => {
    const clock = testClock("2026-03-01T00:00:00.000Z");
    const store = new MemoryQuotaStore();
    for (let i = 0; i < 450; i++) await store.insertKey(keyRecord({ created_at: "2026-01-01T00:00:00.000Z" }));
    const app = testApp({ now: clock.now, store });
    let closed = false;
    let usedAfterClose = 0;
    const close = store.close.bind(store);
    store.close = () => {
      closed = true;
      close();
    };
    for (const operation of ["eraseApplicant", "erasablePage", "acquireLease", "releaseLease", "pruneCounters"] as const) {
      const run = store[operation].bind(store) as (...args: unknown[]) => unknown;
      (store as unknown as Record<string, unknown>)[operation] = (...args: unknown[]) => {
        if (closed) usedAfterClose++;
        return run(...args);
      };
    }
    vi.spyOn(console, "error").mockImplementation(() => {});
    const sweep = app.erasePersonalData();
    await app.close();
    const result = await sweep;
    expect(closed).toBe(true);
    expect(usedAfterClose).toBe(0);
    expect(result.leased).toBe(true);
    expect(result.erased).toBeGreaterThan(0);
    expect(result.erased).toBeLessThan(450);
  });

  it("draws another key when the payment reference of the one drawn is taken by an open application (a forced collision)", async () => {
    // The first two keys drawn get ids whose reference is the same: the same six characters, in another case.
    const ids = ["abCDefGHijKL", "ABcdEFxxxxxx", "abCDeGyyyyyy"];
    let drawn = 0;
    const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    // randomBase62 takes twice the characters' count of bytes and maps each byte below 248 to byte % 62: an id's 12 characters take 24.
    const forced: Random = {
      int: (n) => cryptoRandom.int(n),
      bytes: (n) => {
        if (n !== 24) return cryptoRandom.bytes(n);
        const id = ids[Math.min(drawn++, ids.length - 1)] as string;
        return Uint8Array.from([...[...id].map((c) => base62.indexOf(c)), ...cryptoRandom.bytes(12)]);
      },
    };
    const app = testApp({ store: new MemoryQuotaStore(), random: forced, adminToken: TOKEN });
    const first = await newKey(app, "first", "192.0.2.12");
    const second = await newKey(app, "second", "192.0.2.12");
    expect(first.id).toBe("key_abCDefGHijKL");
    expect(second.id).toBe("key_abCDeGyyyyyy");
    expect(paymentReference(second.id)).not.toBe(paymentReference(first.id));
    expect(second.body.payment.reference).toBe(paymentReference(second.id));
  });
});
