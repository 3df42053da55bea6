/** Keys (docs/rules.md "Interface B"): what /subscribe issues, /me, how a key is presented, and the key errors. */
import { describe, expect, it } from "vitest";
import { paymentReference } from "../../runtime/core/quota/keyActions.ts";
import { MemoryQuotaStore } from "../../runtime/core/quota/memoryStore.ts";
import { call, getJson, testApp } from "../helpers/app.ts";
import { Q, applicant, bearer, expectProblem, me, newKey, subscribe, testClock } from "./quiz-helpers.ts";

const BANK = "국민은행 123-456-789012 (예금주: 한자API)";
const TOKEN = "admin-secret-token-0123456789";

describe("POST /subscribe", () => {
  it("201: a key, its id, the free plan awaiting the deposit, the payment instructions", async () => {
    const clock = testClock("2025-03-01T03:00:00Z");
    const app = testApp({ bankAccount: BANK, now: clock.now });
    const person = { name: "홍길동 상회", email: "Hong.GilDong@Example.co.kr", phone: "+82 (10) 9876-5432", depositor: "홍길동입금" };
    const { status, body, headers } = await subscribe(app, person);
    expect(status).toBe(201);
    expect(headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(body).sort()).toEqual(["api_key", "key", "payment", "success"]);
    expect(body.success).toBe(true);
    expect(body.api_key).toMatch(/^hj_[0-9A-Za-z]{32}$/);
    expect(body.key).toEqual({ id: expect.stringMatching(/^key_[0-9A-Za-z]{12}$/), plan: "free", status: "pending_deposit", daily_limit: 100 });
    expect(body.payment).toEqual({
      plan: "annual",
      price_krw: 9900,
      method: "bank_transfer",
      account: BANK,
      reference: expect.stringMatching(/^HJ[0-9A-Z]{6}$/),
      depositor: expect.any(String),
    });
    expect(body.payment.depositor.length).toBeGreaterThan(0);
    expect(body.payment.reference).toBe(body.payment.depositor);
    // No personal data comes back (the depositor is a transfer reference, not the name sent).
    const text = JSON.stringify(body);
    for (const value of Object.values(person)) expect(text).not.toContain(value);
    expect(text.toLowerCase()).not.toContain(person.email.toLowerCase());
    for (const field of ["name", "email", "phone"]) expect(text).not.toContain(`"${field}"`);
  });

  it("issues a different key and id every time", async () => {
    const app = testApp();
    const keys = new Set<string>();
    const ids = new Set<string>();
    for (let n = 0; n < 20; n++) {
      const { key, id } = await newKey(app, n, `10.9.0.${n}`);
      keys.add(key);
      ids.add(id);
    }
    expect(keys.size).toBe(20);
    expect(ids.size).toBe(20);
  });

  it("the default bank account text asks the operator to configure it", async () => {
    const { body } = await subscribe(testApp(), applicant("default-bank"));
    expect(body.payment.account).toMatch(/BANK_ACCOUNT/);
  });

  it("is not metered: the caller's demo quota is untouched", async () => {
    const app = testApp();
    await newKey(app, "unmetered", "10.8.0.1");
    const demo = await me(app, { clientAddress: "10.8.0.1" });
    expect(demo.used_today).toBe(0);
    expect(demo.remaining).toBe(30);
  });
});

describe("GET /me", () => {
  it("with a fresh key: plan, status, limit, usage, reset, expiry, creation", async () => {
    const clock = testClock("2025-03-01T03:00:00Z");
    const app = testApp({ now: clock.now });
    const { key, id } = await newKey(app, "me");
    const { status, body, headers } = await getJson(app, `${Q}/me`, { headers: { "X-API-Key": key } });
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("no-store");
    expect(body).toEqual({
      success: true,
      key: {
        id,
        plan: "free",
        status: "pending_deposit",
        daily_limit: 100,
        used_today: 0,
        remaining: 100,
        // 03:00Z is 12:00 KST; the day ends at 15:00Z.
        resets_at: "2025-03-01T15:00:00.000Z",
        expires_at: null,
        days_left: null,
        created_at: "2025-03-01T03:00:00.000Z",
        usage: Array.from({ length: 30 }, (_, i) => ({ date: new Date(Date.UTC(2025, 1, 0 + i)).toISOString().slice(0, 10), calls: 0 })),
      },
    });
    expect(JSON.stringify(body)).not.toContain("example.com");
  });

  it("without a key: the caller's demo status", async () => {
    const clock = testClock("2025-03-01T16:00:00Z");
    const app = testApp({ now: clock.now });
    for (let n = 0; n < 3; n++) expect((await call(app, `${Q}/idiom`, { clientAddress: "10.7.0.1" })).status).toBe(200);
    expect(await me(app, { clientAddress: "10.7.0.1" })).toEqual({
      id: null,
      plan: "demo",
      status: "active",
      daily_limit: 30,
      used_today: 3,
      remaining: 27,
      resets_at: "2025-03-02T15:00:00.000Z",
      expires_at: null,
      days_left: null,
      created_at: null,
      usage: null,
    });
  });

  it("is not metered: 50 calls leave the count at zero", async () => {
    const app = testApp();
    const { key } = await newKey(app, "me-unmetered");
    for (let n = 0; n < 50; n++) {
      const response = await call(app, `${Q}/me`, { headers: { "X-API-Key": key } });
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit")).toBeNull();
      await response.arrayBuffer();
    }
    for (let n = 0; n < 40; n++) expect((await call(app, `${Q}/me`, { clientAddress: "10.7.0.2" })).status).toBe(200);
    expect((await me(app, { key })).used_today).toBe(0);
    expect((await me(app, { clientAddress: "10.7.0.2" })).used_today).toBe(0);
  });
});

describe("presenting a key", () => {
  it("X-API-Key and ?api_key= both work and count against the key, not the IP", async () => {
    const app = testApp();
    const { key } = await newKey(app, "present");
    const byHeader = await getJson(app, `${Q}/quiz`, { headers: { "X-API-Key": key }, clientAddress: "10.6.0.1" });
    expect(byHeader.status).toBe(200);
    expect(byHeader.body.quota).toEqual({ plan: "free", remaining: 99 });
    const byQuery = await getJson(app, `${Q}/quiz?api_key=${key}`, { clientAddress: "10.6.0.1" });
    expect(byQuery.status).toBe(200);
    expect(byQuery.body.quota).toEqual({ plan: "free", remaining: 98 });
    expect(byQuery.headers.get("x-ratelimit-limit")).toBe("100");
    expect((await me(app, { key })).used_today).toBe(2);
    expect((await me(app, { clientAddress: "10.6.0.1" })).used_today).toBe(0);
    // /me takes the query form too.
    expect((await getJson(app, `${Q}/me?api_key=${key}`)).body.key.used_today).toBe(2);
  });

  it("both given and equal → works", async () => {
    const app = testApp();
    const { key } = await newKey(app, "both-same");
    const { status, body } = await getJson(app, `${Q}/idiom?api_key=${key}`, { headers: { "X-API-Key": key } });
    expect(status).toBe(200);
    expect(body.quota.plan).toBe("free");
  });

  it("both given and different → 400 naming api_key, not metered", async () => {
    const app = testApp();
    const first = await newKey(app, "diff-1");
    const second = await newKey(app, "diff-2");
    for (const path of ["/quiz", "/idiom", "/search?q=a", "/me"]) {
      const sep = path.includes("?") ? "&" : "?";
      const result = await getJson(app, `${Q}${path}${sep}api_key=${second.key}`, { headers: { "X-API-Key": first.key } });
      expectProblem(result, 400, "invalid_parameter", "api_key");
    }
    expect((await me(app, { key: first.key })).used_today).toBe(0);
    expect((await me(app, { key: second.key })).used_today).toBe(0);
  });

  it("X-API-Key given twice (one header joined with a comma, as servers join repeated lines) → 400 naming it, not metered", async () => {
    const app = testApp();
    const first = await newKey(app, "header-1");
    const second = await newKey(app, "header-2");
    const twice = (a: string, b: string) => {
      const headers = new Headers();
      headers.append("X-API-Key", a);
      headers.append("X-API-Key", b);
      return headers;
    };
    for (const headers of [twice(first.key, second.key), twice(first.key, first.key), new Headers({ "X-API-Key": `${first.key},${second.key}` })]) {
      const result = await getJson(app, `${Q}/quiz`, { headers });
      expectProblem(result, 400, "invalid_parameter", "X-API-Key");
      expect(result.body.detail).toContain("more than once");
    }
    expect((await me(app, { key: first.key })).used_today).toBe(0);
    expect((await me(app, { key: second.key })).used_today).toBe(0);
  });

  it("api_key given twice in the query → 400", async () => {
    const app = testApp();
    const { key } = await newKey(app, "twice");
    expectProblem(await getJson(app, `${Q}/idiom?api_key=${key}&api_key=${key}`), 400, "invalid_parameter", "api_key");
  });

  it("api_key with a broken escape → 400 naming api_key, like any parameter; not metered", async () => {
    const app = testApp();
    for (const path of ["/idiom", "/quiz", "/me", "/search?q=%EC%88%98&x=1"]) {
      const sep = path.includes("?") ? "&" : "?";
      for (const broken of ["%zz", "hj_%E6%B0", "%"]) {
        const result = await getJson(app, `${Q}${path}${sep}api_key=${broken}`, { clientAddress: "10.7.0.1" });
        expectProblem(result, 400, "invalid_parameter", "api_key");
        expect(result.body.detail).toContain("not valid percent-encoded UTF-8");
      }
    }
    expect((await me(app, { clientAddress: "10.7.0.1" })).used_today).toBe(0);
  });

  it("an unknown well-formed key → 401 invalid_key naming where it came, never demo", async () => {
    const app = testApp();
    const unknown = `hj_${"A".repeat(32)}`;
    for (const init of [{ headers: { "X-API-Key": unknown } }, {}]) {
      const path = "headers" in init ? `${Q}/quiz` : `${Q}/quiz?api_key=${unknown}`;
      expectProblem(await getJson(app, path, { ...init, clientAddress: "10.5.0.1" }), 401, "invalid_key", "headers" in init ? "X-API-Key" : "api_key");
    }
    // The same key in both places: the header is named.
    expectProblem(await getJson(app, `${Q}/quiz?api_key=${unknown}`, { headers: { "X-API-Key": unknown } }), 401, "invalid_key", "X-API-Key");
    expectProblem(await getJson(app, `${Q}/me`, { headers: { "X-API-Key": unknown } }), 401, "invalid_key");
    expect((await me(app, { clientAddress: "10.5.0.1" })).used_today).toBe(0);
  });

  for (const malformed of ["abc", "hj_short", `hj_${"a".repeat(33)}`, `HJ_${"a".repeat(32)}`, `hj_${"a".repeat(31)}!`]) {
    it(`a malformed key ${JSON.stringify(malformed)} → 401 invalid_key`, async () => {
      const app = testApp();
      expectProblem(await getJson(app, `${Q}/idiom`, { headers: { "X-API-Key": malformed } }), 401, "invalid_key", "X-API-Key");
      expectProblem(await getJson(app, `${Q}/idiom?api_key=${encodeURIComponent(malformed)}`), 401, "invalid_key", "api_key");
    });
  }

  it("an empty key counts as no key (demo)", async () => {
    const app = testApp();
    const { status, body } = await getJson(app, `${Q}/idiom?api_key=`);
    expect(status).toBe(200);
    expect(body.quota.plan).toBe("demo");
    expect((await getJson(app, `${Q}/idiom`, { headers: { "X-API-Key": "" } })).body.quota.plan).toBe("demo");
  });

  it("an empty value beside a key is no second key: the key is used", async () => {
    const app = testApp();
    const { key } = await newKey(app, "empty-beside");
    for (const [path, headers] of [
      [`${Q}/idiom?api_key=`, { "X-API-Key": key }],
      [`${Q}/idiom?api_key=${key}`, { "X-API-Key": "" }],
    ] as const) {
      const { status, body } = await getJson(app, path, { headers });
      expect(status, path).toBe(200);
      expect(body.quota.plan).toBe("free");
    }
    expect((await me(app, { key })).used_today).toBe(2);
  });

  it("a key sent as Authorization: Bearer → 401 saying where it goes, not the demo and not metered", async () => {
    const app = testApp({ adminToken: TOKEN });
    const { key } = await newKey(app, "bearer");
    for (const path of ["/quiz", "/idiom", "/search?q=a", "/me"]) {
      for (const value of [`Bearer ${key}`, `bearer  ${key}`, `Bearer hj_${"A".repeat(32)}`]) {
        const result = await getJson(app, `${Q}${path}`, { headers: { Authorization: value }, clientAddress: "10.6.0.1" });
        expectProblem(result, 401, "invalid_key", "Authorization");
        expect(result.body.detail).toContain("X-API-Key");
        expect(result.headers.get("www-authenticate")).toContain("X-API-Key");
      }
    }
    expect((await me(app, { key })).used_today).toBe(0);
    expect((await me(app, { clientAddress: "10.6.0.1" })).used_today).toBe(0);
    // Another Bearer token (an app's own, sent to every API) leaves the demo as it was: the key prefix is hj_ exactly.
    for (const token of ["eyJhbGciOi.x.y", `HJ_${"A".repeat(32)}`]) {
      const other = await getJson(app, `${Q}/idiom`, { headers: { Authorization: `Bearer ${token}` }, clientAddress: "10.6.0.1" });
      expect(other.status, token).toBe(200);
      expect(other.body.quota.plan).toBe("demo");
    }
    // With the key in X-API-Key, Authorization is not read.
    const both = await getJson(app, `${Q}/idiom`, { headers: { "X-API-Key": key, Authorization: `Bearer ${key}` } });
    expect(both.body.quota.plan).toBe("free");
  });

  it("a revoked key → 403 key_revoked on every metered route; /me reports it", async () => {
    const app = testApp({ adminToken: TOKEN });
    const { key, id } = await newKey(app, "revoked");
    expect((await call(app, `${Q}/admin/keys/${id}/revoke`, { method: "POST", headers: bearer(TOKEN) })).status).toBe(200);
    for (const path of ["/quiz", "/idiom", "/idiom/1", "/search?q=a"]) {
      expectProblem(await getJson(app, `${Q}${path}`, { headers: { "X-API-Key": key } }), 403, "key_revoked", "X-API-Key");
    }
    expectProblem(await getJson(app, `${Q}/idiom?api_key=${key}`), 403, "key_revoked", "api_key");
    const status = await me(app, { key });
    expect(status).toMatchObject({ id, status: "revoked", daily_limit: 0, remaining: 0 });
  });

  it("an expired key → 403 key_expired; /me reports it", async () => {
    const clock = testClock("2025-03-01T03:00:00Z");
    const store = new MemoryQuotaStore();
    const app = testApp({ store, now: clock.now });
    const { key, id } = await newKey(app, "expired");
    store.updateKey(id, { plan: "annual", status: "active", confirmed_at: "2024-02-29T00:00:00.000Z", expires_at: "2025-03-01T02:59:59.000Z" });
    expectProblem(await getJson(app, `${Q}/quiz`, { headers: { "X-API-Key": key } }), 403, "key_expired", "X-API-Key");
    const expired = await getJson(app, `${Q}/quiz?api_key=${key}`);
    expectProblem(expired, 403, "key_expired", "api_key");
    // The detail says how to renew: the price, and the key's own payment reference as the depositor name.
    expect(expired.body.detail).toBe(
      `This API key expired at 2025-03-01T02:59:59.000Z. To renew it for a year, transfer 9,900 KRW to the account of the payment instructions (POST /subscribe) with ${paymentReference(id)} as the depositor name; the key works again once the deposit is confirmed.`,
    );
    expect(await me(app, { key })).toMatchObject({
      id,
      plan: "annual",
      status: "expired",
      daily_limit: 0,
      expires_at: "2025-03-01T02:59:59.000Z",
      days_left: 0,
    });
  });

  it("/me counts the whole days left of an annual key up; null while awaiting the deposit", async () => {
    const clock = testClock("2025-03-01T03:00:00Z");
    const store = new MemoryQuotaStore();
    const app = testApp({ store, now: clock.now });
    const { key, id } = await newKey(app, "days-left");
    expect(await me(app, { key })).toMatchObject({ status: "pending_deposit", expires_at: null, days_left: null });
    store.updateKey(id, { plan: "annual", status: "active", confirmed_at: "2025-02-01T00:00:00.000Z", expires_at: "2025-03-31T03:00:00.000Z" });
    expect(await me(app, { key })).toMatchObject({ status: "active", days_left: 30 });
    clock.set("2025-03-31T01:00:00Z");
    expect(await me(app, { key })).toMatchObject({ status: "active", days_left: 1 });
    expect(await me(app)).toMatchObject({ plan: "demo", days_left: null });
  });
});
