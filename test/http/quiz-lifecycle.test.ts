/**
 * A key's life with an injected clock (docs/rules.md "Interface B"): free with 100 calls a day,
 * confirmed to annual with 10,000, expired after a year, renewed, revoked; the metering day.
 */
import { describe, expect, it } from "vitest";
import { AppOptionError, type AppOptions } from "../../runtime/core/appOptions.ts";
import { keyStatus } from "../../runtime/core/quota/keyActions.ts";
import type { KeyRecord } from "../../runtime/core/quota/store.ts";
import { call, getJson, testApp } from "../helpers/app.ts";
import { Q, bearer, expectProblem, me, meteredOk, newKey, testClock } from "./quiz-helpers.ts";

const TOKEN = "lifecycle-admin-token";
const DAY = 86_400_000;

describe("key lifecycle", () => {
  it("subscribe → 100/day → confirm → 10,000/day → expiry → renewal → revocation", async () => {
    // 2025-03-01 12:00 KST.
    const clock = testClock("2025-03-01T03:00:00Z");
    const app = testApp({ now: clock.now, adminToken: TOKEN });
    const { key, id } = await newKey(app, "life");
    const auth = { headers: { "X-API-Key": key } };

    // Free: 100 calls, the 101st is refused.
    for (let n = 1; n <= 100; n++) {
      const response = await call(app, `${Q}/idiom`, auth);
      expect(response.status).toBe(200);
      expect(response.headers.get("x-ratelimit-limit")).toBe("100");
      expect(response.headers.get("x-ratelimit-remaining")).toBe(String(100 - n));
      await response.arrayBuffer();
    }
    const refused = await getJson(app, `${Q}/quiz`, auth);
    expectProblem(refused, 429, "quota_exceeded");
    expect(refused.headers.get("x-ratelimit-limit")).toBe("100");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("retry-after")).toBe(String(12 * 3600));
    expect(await me(app, { key })).toMatchObject({ plan: "free", status: "pending_deposit", used_today: 100, remaining: 0 });

    // The operator confirms the deposit: annual, active for a year, 10,000 a day (today's count kept).
    clock.advance(3600_000);
    const confirmed = await getJson(app, `${Q}/admin/keys/${id}/confirm`, { method: "POST", headers: bearer(TOKEN) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.key).toMatchObject({
      id,
      plan: "annual",
      status: "active",
      confirmed_at: "2025-03-01T04:00:00.000Z",
      expires_at: "2026-03-01T04:00:00.000Z",
    });
    const expiresAt = confirmed.body.key.expires_at as string;
    const annual = await getJson(app, `${Q}/quiz`, auth);
    expect(annual.status).toBe(200);
    expect(annual.body.quota).toEqual({ plan: "annual", remaining: 10_000 - 101 });
    expect(annual.headers.get("x-ratelimit-limit")).toBe("10000");
    expect(annual.headers.get("ratelimit-policy")).toBe('"daily";q=10000;w=86400');
    expect(await me(app, { key })).toMatchObject({ plan: "annual", status: "active", daily_limit: 10_000, used_today: 101, expires_at: expiresAt });

    // Next day: a fresh 10,000.
    clock.advance(DAY);
    expect(await meteredOk(app, { key })).toBe(9_999);

    // Confirming again while active changes nothing (no second year sold).
    const again = await getJson(app, `${Q}/admin/keys/${id}/confirm`, { method: "POST", headers: bearer(TOKEN) });
    expect(again.body.key.expires_at).toBe(expiresAt);

    // One millisecond before expiry it works; at expiry it is 403 key_expired.
    clock.set(new Date(Date.parse(expiresAt) - 1).toISOString());
    expect((await call(app, `${Q}/idiom`, auth)).status).toBe(200);
    clock.set(expiresAt);
    expectProblem(await getJson(app, `${Q}/idiom`, auth), 403, "key_expired", "X-API-Key");
    clock.advance(10 * DAY);
    expectProblem(await getJson(app, `${Q}/quiz`, auth), 403, "key_expired", "X-API-Key");
    expect(await me(app, { key })).toMatchObject({ status: "expired", daily_limit: 0, remaining: 0, expires_at: expiresAt });
    const listed = await getJson(app, `${Q}/admin/keys/${id}`, { headers: bearer(TOKEN) });
    expect(listed.body.key.status).toBe("expired");

    // Confirming the expired key renews it for a year from now.
    const renewed = await getJson(app, `${Q}/admin/keys/${id}/confirm`, { method: "POST", headers: bearer(TOKEN) });
    expect(renewed.status).toBe(200);
    expect(renewed.body.key).toMatchObject({ plan: "annual", status: "active", confirmed_at: clock.current.toISOString() });
    const yearLater = new Date(clock.current.getTime());
    yearLater.setUTCFullYear(yearLater.getUTCFullYear() + 1);
    expect(renewed.body.key.expires_at).toBe(yearLater.toISOString());
    const back = await getJson(app, `${Q}/quiz`, auth);
    expect(back.status).toBe(200);
    expect(back.body.quota.plan).toBe("annual");
    expect(back.headers.get("x-ratelimit-limit")).toBe("10000");

    // Revoked: 403 key_revoked from then on, and it cannot be confirmed back.
    expect((await call(app, `${Q}/admin/keys/${id}/revoke`, { method: "POST", headers: bearer(TOKEN) })).status).toBe(200);
    expectProblem(await getJson(app, `${Q}/quiz`, auth), 403, "key_revoked", "X-API-Key");
    expectProblem(await getJson(app, `${Q}/admin/keys/${id}/confirm`, { method: "POST", headers: bearer(TOKEN) }), 409, "conflict");
    expectProblem(await getJson(app, `${Q}/idiom`, auth), 403, "key_revoked", "X-API-Key");
    expect(await me(app, { key })).toMatchObject({ status: "revoked", daily_limit: 0 });
  });

  it("a pending key that is revoked stays revoked at any time", async () => {
    const clock = testClock("2025-03-01T03:00:00Z");
    const app = testApp({ now: clock.now, adminToken: TOKEN });
    const { key, id } = await newKey(app, "pending-revoked");
    await call(app, `${Q}/admin/keys/${id}/revoke`, { method: "POST", headers: bearer(TOKEN) });
    clock.advance(400 * DAY);
    expectProblem(await getJson(app, `${Q}/idiom`, { headers: { "X-API-Key": key } }), 403, "key_revoked");
  });

  it("a pending key does not expire", async () => {
    const clock = testClock("2025-03-01T03:00:00Z");
    const app = testApp({ now: clock.now });
    const { key } = await newKey(app, "pending-long");
    clock.advance(800 * DAY);
    expect(await meteredOk(app, { key })).toBe(99);
  });
});

describe("the metering day", () => {
  it("rolls over exactly at 00:00 KST (15:00 UTC)", async () => {
    const clock = testClock("2025-03-01T14:59:00Z");
    const app = testApp({ now: clock.now });
    for (let n = 0; n < 30; n++) await meteredOk(app);
    clock.set("2025-03-01T14:59:59Z");
    const last = await getJson(app, `${Q}/idiom`);
    expectProblem(last, 429, "quota_exceeded");
    expect(last.headers.get("retry-after")).toBe("1");
    expect(last.headers.get("ratelimit")).toBe('"daily";r=0;t=1');
    clock.set("2025-03-01T14:59:59.999Z");
    expect((await call(app, `${Q}/idiom`)).status).toBe(429);
    clock.set("2025-03-01T15:00:00Z");
    const fresh = await getJson(app, `${Q}/idiom`);
    expect(fresh.status).toBe(200);
    expect(fresh.body.quota).toEqual({ plan: "demo", remaining: 29 });
    expect(fresh.headers.get("ratelimit")).toBe('"daily";r=29;t=86400');
    expect(fresh.headers.get("x-ratelimit-reset")).toBe(String(Date.parse("2025-03-02T15:00:00Z") / 1000));
  });

  it("keys roll over at the same instant", async () => {
    const clock = testClock("2025-03-01T14:00:00Z");
    const app = testApp({ now: clock.now });
    const { key } = await newKey(app, "rollover");
    for (let n = 0; n < 100; n++) await meteredOk(app, { key });
    clock.set("2025-03-01T14:59:59Z");
    expect((await call(app, `${Q}/idiom`, { headers: { "X-API-Key": key } })).status).toBe(429);
    clock.set("2025-03-01T15:00:00Z");
    expect(await meteredOk(app, { key })).toBe(99);
  });

  it("quotaTzOffset +00:00 moves the rollover to 00:00 UTC", async () => {
    const clock = testClock("2025-03-01T14:59:00Z");
    const app = testApp({ now: clock.now, quotaTzOffset: "+00:00" });
    for (let n = 0; n < 30; n++) await meteredOk(app);
    clock.set("2025-03-01T15:00:00Z");
    const still = await getJson(app, `${Q}/idiom`);
    expectProblem(still, 429, "quota_exceeded");
    expect(still.headers.get("retry-after")).toBe(String(9 * 3600));
    clock.set("2025-03-01T23:59:59Z");
    expect((await call(app, `${Q}/idiom`)).status).toBe(429);
    clock.set("2025-03-02T00:00:00Z");
    expect(await meteredOk(app)).toBe(29);
    expect((await me(app)).resets_at).toBe("2025-03-03T00:00:00.000Z");
  });

  it("quotaTzOffset -05:30 rolls over at 05:30 UTC", async () => {
    const clock = testClock("2025-03-01T05:29:00Z");
    const app = testApp({ now: clock.now, quotaTzOffset: "-05:30" });
    for (let n = 0; n < 30; n++) await meteredOk(app);
    expect((await call(app, `${Q}/idiom`)).status).toBe(429);
    clock.set("2025-03-01T05:30:00Z");
    expect(await meteredOk(app)).toBe(29);
  });

  it("a keyed call reads the clock once: the key's status and the counted day are of the same instant", async () => {
    // 2025-03-01 23:59:59.999 KST; every reading after the first is a day later.
    let readings = 0;
    const first = Date.parse("2025-03-01T14:59:59.999Z");
    const app = testApp({ now: () => new Date(first + (readings++ === 0 ? 0 : DAY)) });
    const { key } = await newKey(app, "one-reading");
    readings = 0;
    const answer = await getJson(app, `${Q}/idiom`, { headers: { "X-API-Key": key } });
    expect(answer.status).toBe(200);
    expect(readings).toBe(1);
    // Counted on 2025-03-01 (KST), which resets at 2025-03-02 00:00 KST, 1 ms after the reading.
    expect(answer.headers.get("x-ratelimit-reset")).toBe(String(Date.parse("2025-03-01T15:00:00Z") / 1000));
    expect(answer.headers.get("ratelimit")).toBe('"daily";r=99;t=1');
    // GET /me judges the key and reports the day from one reading too.
    readings = 0;
    expect(await me(app, { key })).toMatchObject({ status: "pending_deposit", used_today: 1, resets_at: "2025-03-01T15:00:00.000Z" });
    expect(readings).toBe(1);
  });

  it("a malformed quotaTzOffset is refused at creation", () => {
    expect(() => testApp({ quotaTzOffset: "KST" })).toThrow(/quotaTzOffset/);
    expect(() => testApp({ quotaTzOffset: "+9:00" })).toThrow(/quotaTzOffset/);
  });

  it("the two interfaces cannot share one base path", () => {
    expect(() => testApp({ hanjaBase: "/api", quizBase: "/api/" })).toThrow(/quizBase: "\/api" must differ from hanjaBase/);
  });

  it("interface A cannot lie inside a route of interface B, which is tried first; bases that nest without that work", async () => {
    expect(() => testApp({ hanjaBase: "/q/idiom", quizBase: "/q" })).toThrow(
      'hanjaBase: "/q/idiom" lies inside interface B\'s route /q/idiom/:idx, which would answer /q/idiom/hanja; choose bases that do not nest this way',
    );
    expect(() => testApp({ hanjaBase: "/idiom", quizBase: "" })).toThrow(/lies inside interface B's route \/idiom\/:idx/);
    for (const [hanjaBase, quizBase] of [
      ["/api", "/api/quiz"],
      ["/api/hanja", "/api"],
      ["", "/quiz/v1"],
    ] as const) {
      const app = testApp({ hanjaBase, quizBase });
      expect((await call(app, `${hanjaBase}/meta`)).status, `${hanjaBase} ${quizBase}`).toBe(200);
      expect((await call(app, `${hanjaBase}/hanja/${encodeURIComponent("水")}`)).status).toBe(200);
      expect((await call(app, `${quizBase}/idiom/1`, { clientAddress: "10.0.0.1" })).status).toBe(200);
    }
  });

  it("options of the wrong type or too weak are refused at creation, naming the option", () => {
    const wrong = (options: Record<string, unknown>) => () => testApp(options as Partial<AppOptions>);
    expect(wrong({ hanjaBase: 5 })).toThrow("hanjaBase: must be a string like /hanja/v1, got number");
    expect(wrong({ mountPath: 3 })).toThrow("mountPath: must be a string like /hanja/v1, got number");
    expect(wrong({ adminToken: "short" })).toThrow("adminToken: must be a string of at least 16 characters");
    expect(wrong({ adminToken: " ".repeat(20) })).toThrow("adminToken: must be a string of at least 16 characters");
    expect(wrong({ adminToken: 1234567890123456789 })).toThrow("adminToken: must be a string");
    expect(wrong({ log: "yes" })).toThrow("log: must be a function, got string");
    expect(wrong({ now: 5 })).toThrow("now: must be a function, got number");
    expect(wrong({ adminToken: "a-long-enough-admin-token" })).not.toThrow();
  });

  it("option errors are typed: the option and the detail as fields, not only in the text", () => {
    const thrown = (options: Partial<AppOptions>) => {
      try {
        testApp(options);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    for (const [options, option, detail] of [
      [
        { hanjaBase: "/q/idiom", quizBase: "/q" },
        "hanjaBase",
        '"/q/idiom" lies inside interface B\'s route /q/idiom/:idx, which would answer /q/idiom/hanja; choose bases that do not nest this way',
      ],
      [{ quotaTzOffset: "KST" }, "quotaTzOffset", '"KST" is not an offset like +09:00'],
      [{ trustProxyHops: -1 }, "trustProxyHops", "-1 is not a whole number ≥ 0"],
      [{ mountPath: "lexicon" }, "mountPath", '"lexicon" is not a path like /hanja/v1'],
    ] as const) {
      const error = thrown(options);
      expect(error, option).toBeInstanceOf(AppOptionError);
      expect(error).toMatchObject({ option, detail, message: `${option}: ${detail}` });
    }
  });
});

describe("keyStatus", () => {
  const record = (expires_at: string | null): KeyRecord => ({
    id: "key_AAAAAAAAAAAA",
    hash: "0".repeat(64),
    plan: "annual",
    status: "active",
    created_at: "2025-01-01T00:00:00.000Z",
    confirmed_at: "2025-01-01T00:00:00.000Z",
    expires_at,
    revoked_at: null,
    applicant: { name: "A", email: "a@example.com", phone: null, depositor: null },
  });

  it("is expired from the instant expires_at names", () => {
    const key = record("2026-01-01T00:00:00.000Z");
    expect(keyStatus(key, new Date("2025-12-31T23:59:59.999Z"))).toBe("active");
    expect(keyStatus(key, new Date("2026-01-01T00:00:00.000Z"))).toBe("expired");
    expect(keyStatus(record(null), new Date("2099-01-01T00:00:00Z"))).toBe("active");
  });

  it("follows a record that a store edits in place (the parsed expiry is not kept past a change)", () => {
    const key = record("2026-01-01T00:00:00.000Z");
    const now = new Date("2025-06-01T00:00:00Z");
    expect(keyStatus(key, now)).toBe("active");
    key.expires_at = "2025-05-01T00:00:00.000Z";
    expect(keyStatus(key, now)).toBe("expired");
    key.status = "revoked";
    expect(keyStatus(key, now)).toBe("revoked");
  });
});
