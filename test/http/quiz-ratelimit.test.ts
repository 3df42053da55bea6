/**
 * Metering in one process (docs/rules.md "Interface B"): the rate-limit headers, 429 and Retry-After, exact counts
 * under concurrency, and which client IP a demo call counts against.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { App } from "../../runtime/core/app.ts";
import { openQuotaStore } from "../../runtime/stores/index.ts";
import { call, getJson, testApp } from "../helpers/app.ts";
import { Q, applicant, expectProblem, me, newKey, subscribe, testClock } from "./quiz-helpers.ts";

const METERED = ["/quiz", "/quiz?count=20&choices=6", "/idiom?count=50", "/idiom/1", "/search?q=%E3%84%B1"];

/** Parses `RateLimit: "daily";r=..;t=..`. */
function rateLimit(headers: Headers): { r: number; t: number } {
  const match = /^"daily";r=(\d+);t=(\d+)$/.exec(headers.get("ratelimit") ?? "");
  expect(match, `RateLimit header ${headers.get("ratelimit")}`).not.toBeNull();
  return { r: Number(match![1]), t: Number(match![2]) };
}

describe("rate-limit headers", () => {
  it("on every metered route, exact with an injected clock", async () => {
    // 2025-03-01T10:00:00Z = 19:00 KST: five hours to the reset at 15:00Z.
    const clock = testClock("2025-03-01T10:00:00Z");
    const app = testApp({ now: clock.now });
    const reset = String(Date.parse("2025-03-01T15:00:00Z") / 1000);
    let used = 0;
    for (const path of METERED) {
      const response = await call(app, `${Q}${path}`);
      used++;
      expect(response.status, path).toBe(200);
      const h = response.headers;
      expect(h.get("ratelimit-policy")).toBe('"daily";q=30;w=86400');
      expect(h.get("ratelimit")).toBe(`"daily";r=${30 - used};t=18000`);
      expect(h.get("x-ratelimit-limit")).toBe("30");
      expect(h.get("x-ratelimit-remaining")).toBe(String(30 - used));
      expect(h.get("x-ratelimit-reset")).toBe(reset);
      expect(h.get("retry-after")).toBeNull();
      expect(h.get("access-control-expose-headers")).toMatch(/RateLimit-Policy/);
      const body = (await response.json()) as { quota: unknown };
      expect(body.quota).toEqual({ plan: "demo", remaining: 30 - used });
    }
  });

  it("t counts down with the clock and rounds up partial seconds", async () => {
    const clock = testClock("2025-03-01T14:59:30.250Z");
    const app = testApp({ now: clock.now });
    expect(rateLimit((await call(app, `${Q}/idiom`)).headers).t).toBe(30);
    clock.set("2025-03-01T15:00:00.000Z");
    expect(rateLimit((await call(app, `${Q}/idiom`)).headers).t).toBe(86_400);
    clock.set("2025-03-01T15:00:00.001Z");
    expect(rateLimit((await call(app, `${Q}/idiom`)).headers).t).toBe(86_400);
    clock.set("2025-03-02T03:00:00Z");
    const h = (await call(app, `${Q}/idiom`)).headers;
    expect(rateLimit(h).t).toBe(12 * 3600);
    expect(h.get("x-ratelimit-reset")).toBe(String(Date.parse("2025-03-02T15:00:00Z") / 1000));
  });

  it("with the real clock: t matches the next 00:00 KST and X-RateLimit-Reset", async () => {
    const app = testApp();
    const before = Date.now();
    const h = (await call(app, `${Q}/idiom`)).headers;
    const reset = Number(h.get("x-ratelimit-reset")) * 1000;
    expect(new Date(reset).toISOString()).toMatch(/T15:00:00\.000Z$/);
    expect(reset - before).toBeGreaterThan(0);
    expect(reset - before).toBeLessThanOrEqual(86_400_000);
    expect(Math.abs(rateLimit(h).t - (reset - before) / 1000)).toBeLessThanOrEqual(2);
  });

  it("429 quota_exceeded with Retry-After = seconds to reset, r=0, and the problem body", async () => {
    const clock = testClock("2025-03-01T10:00:00Z");
    const app = testApp({ now: clock.now });
    for (let n = 0; n < 30; n++) expect((await call(app, `${Q}/idiom`)).status).toBe(200);
    for (const path of METERED) {
      const result = await getJson(app, `${Q}${path}`);
      expectProblem(result, 429, "quota_exceeded");
      expect(result.headers.get("retry-after")).toBe("18000");
      expect(result.headers.get("ratelimit")).toBe('"daily";r=0;t=18000');
      expect(result.headers.get("ratelimit-policy")).toBe('"daily";q=30;w=86400');
      expect(result.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(result.headers.get("x-ratelimit-limit")).toBe("30");
      expect(result.headers.get("x-ratelimit-reset")).toBe(String(Date.parse("2025-03-01T15:00:00Z") / 1000));
      expect(result.headers.get("cache-control")).toBe("no-store");
      // It says how to get more: a key from POST /subscribe.
      expect(result.body.detail).toContain("POST /quiz/v1/subscribe");
      expect(result.body.detail).toContain("X-API-Key");
    }
    clock.advance(3600_000);
    expect((await call(app, `${Q}/quiz`)).headers.get("retry-after")).toBe("14400");
    // Refused calls are not counted.
    expect((await me(app)).used_today).toBe(30);
  });

  it("/me and /subscribe carry no rate-limit headers and are not counted", async () => {
    const app = testApp();
    const meResponse = await call(app, `${Q}/me`);
    expect(meResponse.headers.get("ratelimit")).toBeNull();
    expect(meResponse.headers.get("x-ratelimit-limit")).toBeNull();
    const sub = await subscribe(app, applicant("headers"));
    expect(sub.status).toBe(201);
    expect(sub.headers.get("ratelimit")).toBeNull();
    // Even with the demo quota used up, both still answer.
    for (let n = 0; n < 30; n++) await call(app, `${Q}/idiom`);
    expect((await call(app, `${Q}/idiom`)).status).toBe(429);
    expect((await call(app, `${Q}/me`)).status).toBe(200);
    expect((await subscribe(app, applicant("headers-2"))).status).toBe(201);
  });
});

describe("exact counts under concurrency (one process)", () => {
  it("200 parallel demo requests from one IP: exactly 30 succeed", async () => {
    const clock = testClock("2025-03-01T10:00:00Z");
    const app = testApp({ now: clock.now });
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, n) => call(app, `${Q}/${["quiz", "idiom", "search?q=a", "idiom/1"][n % 4]}`, { clientAddress: "203.0.113.9" })),
    );
    const ok = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(30);
    expect(refused).toHaveLength(170);
    // Each success saw a different remaining count: 29 … 0.
    expect(ok.map((r) => Number(r.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    for (const r of refused) {
      expect(r.headers.get("retry-after")).toBe("18000");
      expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(r.headers.get("ratelimit")).toBe('"daily";r=0;t=18000');
      expect(((await r.json()) as { code: string }).code).toBe("quota_exceeded");
    }
    expect((await me(app, { clientAddress: "203.0.113.9" })).used_today).toBe(30);
  });

  it("200 parallel demo requests on the SQLite store: exactly 30 succeed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "quiz-ratelimit-"));
    const app = testApp({ store: await openQuotaStore({ kind: "sqlite", path: join(dir, "quota.sqlite") }) });
    try {
      const responses = await Promise.all(Array.from({ length: 200 }, () => call(app, `${Q}/idiom`, { clientAddress: "203.0.113.10" })));
      expect(responses.filter((r) => r.status === 200)).toHaveLength(30);
      expect(responses.filter((r) => r.status === 429)).toHaveLength(170);
      expect(
        responses
          .filter((r) => r.status === 200)
          .map((r) => Number(r.headers.get("x-ratelimit-remaining")))
          .sort((a, b) => a - b),
      ).toEqual(Array.from({ length: 30 }, (_, i) => i));
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("200 parallel requests with a free key: exactly 100 succeed", async () => {
    const app = testApp();
    const { key } = await newKey(app, "parallel");
    const responses = await Promise.all(Array.from({ length: 200 }, () => call(app, `${Q}/idiom`, { headers: { "X-API-Key": key } })));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(100);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(100);
  });
});

describe("client IP", () => {
  /** Uses up `n` demo calls from `address` (through the given forwarded-for header, if any). */
  async function spend(app: App, address: string, n: number, forwardedFor?: string): Promise<void> {
    for (let i = 0; i < n; i++) {
      const response = await call(app, `${Q}/idiom`, { clientAddress: address, headers: forwardedFor ? { "X-Forwarded-For": forwardedFor } : {} });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
  }
  const used = async (app: App, address: string, forwardedFor?: string) =>
    (await getJson(app, `${Q}/me`, { clientAddress: address, headers: forwardedFor ? { "X-Forwarded-For": forwardedFor } : {} })).body.key.used_today as number;

  it("different IPs have separate quotas", async () => {
    const app = testApp();
    await spend(app, "198.51.100.1", 30);
    expect((await call(app, `${Q}/idiom`, { clientAddress: "198.51.100.1" })).status).toBe(429);
    expect((await call(app, `${Q}/idiom`, { clientAddress: "198.51.100.2" })).status).toBe(200);
    expect(await used(app, "198.51.100.2")).toBe(1);
  });

  it("::ffff:1.2.3.4 counts as 1.2.3.4", async () => {
    const app = testApp();
    await spend(app, "::ffff:1.2.3.4", 20);
    await spend(app, "1.2.3.4", 10);
    expect((await call(app, `${Q}/idiom`, { clientAddress: "1.2.3.4" })).status).toBe(429);
    expect((await call(app, `${Q}/idiom`, { clientAddress: "::ffff:1.2.3.4" })).status).toBe(429);
    expect((await call(app, `${Q}/idiom`, { clientAddress: "::ffff:1.2.3.5" })).status).toBe(200);
  });

  it("IPv6 addresses in one /64 share a quota; another /64 does not", async () => {
    const app = testApp();
    await spend(app, "2001:db8:1:2::1", 15);
    await spend(app, "2001:db8:1:2:ffff:ffff:ffff:fffe", 10);
    await spend(app, "2001:0db8:0001:0002:0:0:0:abcd", 5);
    expect((await call(app, `${Q}/idiom`, { clientAddress: "2001:db8:1:2::99" })).status).toBe(429);
    expect(await used(app, "2001:db8:1:3::1")).toBe(0);
    expect((await call(app, `${Q}/idiom`, { clientAddress: "2001:db8:1:3::1" })).status).toBe(200);
    expect((await call(app, `${Q}/idiom`, { clientAddress: "2001:db8:2:2::1" })).status).toBe(200);
  });

  it("X-Forwarded-For is ignored by default", async () => {
    const app = testApp();
    for (let i = 0; i < 30; i++) await spend(app, "192.0.2.50", 1, `100.64.0.${i}`);
    expect((await call(app, `${Q}/idiom`, { clientAddress: "192.0.2.50", headers: { "X-Forwarded-For": "100.64.1.1" } })).status).toBe(429);
    expect(await used(app, "192.0.2.50")).toBe(30);
  });

  it("with trustProxyHops=1 the right-most X-Forwarded-For entry is the client", async () => {
    const app = testApp({ trustProxyHops: 1 });
    const proxy = "10.0.0.1";
    // A client cannot escape by prepending addresses: the proxy appends the real one.
    for (let i = 0; i < 30; i++) await spend(app, proxy, 1, `6.6.6.${i}, 203.0.113.7`);
    expect((await call(app, `${Q}/idiom`, { clientAddress: proxy, headers: { "X-Forwarded-For": "203.0.113.7" } })).status).toBe(429);
    expect((await call(app, `${Q}/idiom`, { clientAddress: proxy, headers: { "X-Forwarded-For": "203.0.113.8" } })).status).toBe(200);
    expect(await used(app, proxy, "203.0.113.7")).toBe(30);
    // The proxy itself (no header) is its own client.
    expect(await used(app, proxy)).toBe(0);
    // Mapped and IPv6 forwarded addresses are normalised too.
    await spend(app, proxy, 3, "::ffff:198.51.100.20");
    expect(await used(app, proxy, "198.51.100.20")).toBe(3);
    await spend(app, proxy, 2, "2001:db8:9:9::1");
    expect(await used(app, proxy, "2001:db8:9:9::2")).toBe(2);
  });

  it("a forwarded address counts without the port a proxy may add; an entry that is no address counts against the proxy", async () => {
    const app = testApp({ trustProxyHops: 1 });
    const proxy = "10.0.0.9";
    await spend(app, proxy, 2, "7.7.7.7:1234");
    await spend(app, proxy, 3, "7.7.7.7:5555");
    expect(await used(app, proxy, "7.7.7.7")).toBe(5);
    await spend(app, proxy, 4, "[2001:db8:9:9::1]:443");
    expect(await used(app, proxy, "2001:db8:9:9::77")).toBe(4);
    expect(await used(app, proxy, "[2001:db8:9:9::5]")).toBe(4);
    for (const junk of ["unknown", "garbage", "7.7.7.7:port", "[nope]:80"]) await spend(app, proxy, 1, junk);
    expect(await used(app, proxy)).toBe(4);
    expect(await used(app, proxy, "unknown")).toBe(4);
  });

  it("with trustProxyHops=2 the second entry from the right is the client", async () => {
    const app = testApp({ trustProxyHops: 2 });
    await spend(app, "10.0.0.1", 4, "9.9.9.9, 203.0.113.44, 10.0.0.2");
    expect(await used(app, "10.0.0.1", "203.0.113.44, 10.0.0.3")).toBe(4);
    expect(await used(app, "10.0.0.1", "10.0.0.2")).toBe(0);
  });

  it("subscribing counts per client IP as well (5 a day)", async () => {
    const app = testApp({ trustProxyHops: 1 });
    for (let n = 0; n < 5; n++)
      expect((await subscribe(app, applicant(`xff-${n}`), { clientAddress: "10.0.0.1", headers: { "X-Forwarded-For": "203.0.113.60" } })).status).toBe(201);
    expectProblem(
      await subscribe(app, applicant("xff-6"), { clientAddress: "10.0.0.1", headers: { "X-Forwarded-For": "203.0.113.60" } }),
      429,
      "quota_exceeded",
    );
    expect((await subscribe(app, applicant("xff-7"), { clientAddress: "10.0.0.1", headers: { "X-Forwarded-For": "203.0.113.61" } })).status).toBe(201);
  });
});
