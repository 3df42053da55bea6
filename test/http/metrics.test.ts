/**
 * `GET /metrics` (issue 39, point 1): only with the metrics token, else the 404 of an unknown path;
 * requests by declared route and status, latency, metered decisions by plan and outcome, the
 * store's operations, keys by plan and status (counted in pages, cached), data versions, memory.
 */
import { describe, expect, it } from "vitest";
import type { App } from "../../runtime/core/app.ts";
import { AppOptionError, type AccessLogEntry } from "../../runtime/core/appOptions.ts";
import { FIRST_COUNT_WAIT_MS, KEY_COUNT_TTL_MS } from "../../runtime/core/metrics/keyCounts.ts";
import { MemoryQuotaStore } from "../../runtime/core/quota/memoryStore.ts";
import { type KeyPageQuery, type QuotaStore, StoreUnavailableError } from "../../runtime/core/quota/store.ts";
import { call, distFiles, getJson, testApp } from "../helpers/app.ts";
import { type Sample, parseSamples, sampleValue } from "../helpers/metrics.ts";
import { Q, expectProblem, newKey, testClock } from "./quiz-helpers.ts";

const TOKEN = "metrics-token-0123456789";
const WATER = `/hanja/v1/hanja/${encodeURIComponent("水")}`;
const auth = (token = TOKEN) => ({ headers: { Authorization: `Bearer ${token}` } });

async function scrape(app: App): Promise<Sample[]> {
  const response = await call(app, "/metrics", auth());
  expect(response.status).toBe(200);
  return parseSamples(await response.text());
}

/** The body of a 404 without its request id, to compare two 404s. */
async function notFoundBody(response: Response): Promise<Record<string, unknown>> {
  expect(response.status).toBe(404);
  const { request_id: _id, ...rest } = (await response.json()) as Record<string, unknown>;
  return rest;
}

/** A memory store whose operations fail while `down` is set, as a store in an outage does. */
class OutageStore extends MemoryQuotaStore {
  down = false;
  override consume(bucket: string, day: string, limit: number) {
    if (this.down) throw new StoreUnavailableError("test store: down");
    return super.consume(bucket, day, limit);
  }
}

describe("GET /metrics: who may read it", () => {
  it("without a metrics token there is no route: every method gets the 404 of an unknown path", async () => {
    const app = testApp();
    const unknown = await notFoundBody(await call(app, "/no-such-path", auth()));
    expect(await notFoundBody(await call(app, "/metrics", auth()))).toEqual(unknown);
    expect((await call(app, "/metrics", { ...auth(), method: "POST" })).status).toBe(404);
  });

  it("with one, a request without the token, or with another, gets the same 404 as an unknown path; so do other methods and a preflight", async () => {
    const app = testApp({ metricsToken: TOKEN });
    const unknown = await notFoundBody(await call(app, "/no-such-path"));
    for (const init of [{}, auth("metrics-token-0123456788"), auth(`${TOKEN}x`), { headers: { Authorization: TOKEN } }, { headers: { "X-API-Key": TOKEN } }]) {
      expect(await notFoundBody(await call(app, "/metrics", init))).toEqual(unknown);
    }
    expect(await notFoundBody(await call(app, "/metrics", { ...auth(), method: "POST" }))).toEqual(unknown);
    for (const headers of [{ Origin: "https://example.com", "Access-Control-Request-Method": "GET" }, {}] as Record<string, string>[]) {
      const preflight = await call(app, "/metrics", { method: "OPTIONS", headers });
      const elsewhere = await call(app, "/no-such-path", { method: "OPTIONS", headers });
      expect(preflight.status).toBe(elsewhere.status);
      expect([...preflight.headers.keys()].filter((name) => name !== "x-request-id")).toEqual(
        [...elsewhere.headers.keys()].filter((name) => name !== "x-request-id"),
      );
      expect(preflight.headers.get("allow")).toBeNull();
    }
  });

  it("is in neither the OpenAPI document nor /docs", async () => {
    const app = testApp({ metricsToken: TOKEN });
    expect(Object.keys((await getJson(app, "/openapi.json")).body.paths)).not.toContain("/metrics");
    expect(await (await call(app, "/docs")).text()).not.toContain("/metrics");
  });

  it("with the token: 200, the text format, never stored; HEAD too", async () => {
    const app = testApp({ metricsToken: TOKEN });
    const response = await call(app, "/metrics", { headers: { Authorization: `bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.text()).toMatch(/^# HELP hanja_api_requests_total /);
    expect((await call(app, "/metrics", { ...auth(), method: "HEAD" })).status).toBe(200);
  });

  it("a token shorter than 16 characters is refused, naming the option", () => {
    expect(() => testApp({ metricsToken: "short" })).toThrow(AppOptionError);
    expect(() => testApp({ metricsToken: "short" })).toThrow(/^metricsToken: must be a string of at least 16 characters/);
  });

  it("the access log never holds the token, even sent in a query", async () => {
    const lines: AccessLogEntry[] = [];
    const app = testApp({ metricsToken: TOKEN, log: (entry) => lines.push(entry) });
    await call(app, `/metrics?t=${TOKEN}`, auth());
    expect(lines).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });
});

describe("GET /metrics: what it counts", () => {
  it("requests by the route's template (remembered answers too), method and status, never the raw path; a latency histogram per route", async () => {
    const app = testApp({ metricsToken: TOKEN });
    await call(app, WATER);
    await call(app, WATER); // answered from the remembered body, without routing
    await call(app, WATER, { method: "HEAD" });
    await call(app, `/hanja/v1/hanja/${encodeURIComponent("A")}`);
    await call(app, "/no/such/path");
    const samples = await scrape(app);
    const route = "/hanja/v1/hanja/{character}";
    expect(sampleValue(samples, "hanja_api_requests_total", { route, method: "GET", status: "200" })).toBe(2);
    expect(sampleValue(samples, "hanja_api_requests_total", { route, method: "HEAD", status: "200" })).toBe(1);
    expect(sampleValue(samples, "hanja_api_requests_total", { route, method: "GET", status: "404" })).toBe(1);
    expect(sampleValue(samples, "hanja_api_requests_total", { route: "none", method: "GET", status: "404" })).toBe(1);
    for (const sample of samples) expect(sample.labels.route ?? "").not.toMatch(/%|水|no\/such/);
    expect(sampleValue(samples, "hanja_api_request_duration_seconds_count", { route })).toBe(4);
    const buckets = samples.filter((s) => s.name === "hanja_api_request_duration_seconds_bucket" && s.labels.route === route);
    expect(buckets.at(-1)?.labels.le).toBe("+Inf");
    expect(buckets.at(-1)?.value).toBe(4);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);
    expect(sampleValue(samples, "hanja_api_request_duration_seconds_sum", { route })).toBeGreaterThan(0);
  });

  it("metered decisions by plan and outcome: served, quota_exceeded, invalid_key, key_expired, key_revoked, service_unavailable; a 400 is no decision", async () => {
    const clock = testClock("2026-03-02T03:00:00Z");
    const store = new OutageStore();
    const app = testApp({ metricsToken: TOKEN, store, now: clock.now });
    const demo = { clientAddress: "203.0.113.9" };
    for (let i = 0; i < 31; i++) await call(app, `${Q}/idiom`, demo); // the demo's 30, then a 429
    await call(app, `${Q}/idiom?count=0`, demo); // 400: not metered
    expectProblem(await getJson(app, `${Q}/idiom`, { headers: { "X-API-Key": `hj_${"x".repeat(32)}` } }), 401, "invalid_key");
    const expired = await newKey(app, "expired");
    await store.updateKey(expired.id, { plan: "annual", status: "active", confirmed_at: "2025-01-01T00:00:00.000Z", expires_at: "2026-01-01T00:00:00.000Z" });
    expectProblem(await getJson(app, `${Q}/idiom`, { headers: { "X-API-Key": expired.key } }), 403, "key_expired");
    const revoked = await newKey(app, "revoked");
    await store.updateKey(revoked.id, { status: "revoked", revoked_at: clock.current.toISOString() });
    expectProblem(await getJson(app, `${Q}/idiom`, { headers: { "X-API-Key": revoked.key } }), 403, "key_revoked");
    const free = await newKey(app, "free");
    expect((await call(app, `${Q}/idiom`, { headers: { "X-API-Key": free.key } })).status).toBe(200);
    store.down = true;
    expectProblem(await getJson(app, `${Q}/idiom`, { headers: { "X-API-Key": free.key } }), 503, "service_unavailable");
    store.down = false;

    const samples = await scrape(app);
    const decided = samples.filter((s) => s.name === "hanja_api_metered_calls_total").map((s) => [s.labels.plan, s.labels.outcome, s.value]);
    expect(decided).toEqual([
      ["annual", "key_expired", 1],
      ["demo", "quota_exceeded", 1],
      ["demo", "served", 30],
      ["free", "key_revoked", 1],
      ["free", "served", 1],
      ["free", "service_unavailable", 1],
      ["unknown", "invalid_key", 1],
    ]);
    expect(sampleValue(samples, "hanja_api_requests_total", { route: `${Q}/idiom`, status: "400" })).toBe(1);
  });

  it("store operations by kind: latency of each operation and the failures, an outage apart from the contract's own answers", async () => {
    const store = new OutageStore();
    const app = testApp({ metricsToken: TOKEN, store, storeKind: "sqlite" });
    await call(app, `${Q}/idiom`);
    await newKey(app, "one");
    store.down = true;
    await call(app, `${Q}/idiom`);
    store.down = false;
    await getJson(app, `${Q}/subscribe`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "A", email: "applicant-one@example.com" }),
    });
    const samples = await scrape(app);
    // The two calls and the two applications (each counted against the applications a day of the IP).
    expect(sampleValue(samples, "hanja_api_store_operation_duration_seconds_count", { store: "sqlite", operation: "consume" })).toBe(4);
    expect(sampleValue(samples, "hanja_api_store_errors_total", { store: "sqlite", operation: "consume", error: "unavailable" })).toBe(1);
    // The second application with the same e-mail is a duplicate (409), which is the store answering, not failing.
    expect(sampleValue(samples, "hanja_api_store_operation_duration_seconds_count", { store: "sqlite", operation: "insertKey" })).toBeGreaterThanOrEqual(2);
    expect(sampleValue(samples, "hanja_api_store_errors_total", { operation: "insertKey" })).toBeUndefined();
  });

  it("keys by plan and status, every pair, counted in pages and kept five minutes: a scrape in between does not read the keys again", async () => {
    const clock = testClock("2026-03-02T03:00:00Z");
    const store = new MemoryQuotaStore();
    const pages: KeyPageQuery[] = [];
    const keyPage = store.keyPage.bind(store);
    store.keyPage = (query) => (pages.push(query), keyPage(query));
    const app = testApp({ metricsToken: TOKEN, store, now: clock.now });
    for (const tag of ["a", "b", "c"]) await newKey(app, tag);
    const annual = await newKey(app, "annual");
    await store.updateKey(annual.id, { plan: "annual", status: "active", confirmed_at: clock.current.toISOString(), expires_at: "2027-03-02T03:00:00.000Z" });

    let samples = await scrape(app);
    const keys = (s: Sample[]) => Object.fromEntries(s.filter((x) => x.name === "hanja_api_keys").map((x) => [`${x.labels.plan} ${x.labels.status}`, x.value]));
    expect(keys(samples)).toEqual({
      "free pending_deposit": 3,
      "free active": 0,
      "free expired": 0,
      "free revoked": 0,
      "annual pending_deposit": 0,
      "annual active": 1,
      "annual expired": 0,
      "annual revoked": 0,
    });
    expect(sampleValue(samples, "hanja_api_keys_counted_timestamp_seconds")).toBe(clock.current.getTime() / 1000);
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.every((query) => query.limit <= 250)).toBe(true);

    const read = pages.length;
    await newKey(app, "d");
    clock.advance(KEY_COUNT_TTL_MS - 1000);
    samples = await scrape(app);
    expect(pages.length).toBe(read);
    expect(keys(samples)["free pending_deposit"]).toBe(3);

    clock.advance(2000); // now older than five minutes: this scrape counts again, in the background
    await scrape(app);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pages.length).toBeGreaterThan(read);
    expect(keys(await scrape(app))["free pending_deposit"]).toBe(4);
  });

  it("the first scrape waits for the first count at most a second, then answers without it; the next scrape has it", async () => {
    const store = new MemoryQuotaStore();
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const keyPage = store.keyPage.bind(store);
    // A store whose pages answer later (as Redis's do), held back until released.
    (store as QuotaStore).keyPage = async (query) => (await gate, keyPage(query));
    const app = testApp({ metricsToken: TOKEN, store });
    await newKey(app, "slow");
    const started = performance.now();
    const first = await scrape(app);
    expect(performance.now() - started).toBeGreaterThanOrEqual(FIRST_COUNT_WAIT_MS - 50);
    expect(performance.now() - started).toBeLessThan(FIRST_COUNT_WAIT_MS + 2000);
    expect(first.some((s) => s.name === "hanja_api_keys")).toBe(false);
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sampleValue(await scrape(app), "hanja_api_keys", { plan: "free", status: "pending_deposit" })).toBe(1);
  });

  it("a count the store fails leaves the last one reported, and the failure in the store's errors", async () => {
    const clock = testClock("2026-03-02T03:00:00Z");
    const store = new MemoryQuotaStore();
    let down = false;
    const keyPage = store.keyPage.bind(store);
    store.keyPage = (query) => {
      if (down) throw new StoreUnavailableError("test store: down");
      return keyPage(query);
    };
    const app = testApp({ metricsToken: TOKEN, store, now: clock.now });
    await newKey(app, "kept");
    expect(sampleValue(await scrape(app), "hanja_api_keys", { plan: "free", status: "pending_deposit" })).toBe(1);
    down = true;
    clock.advance(KEY_COUNT_TTL_MS);
    await scrape(app);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const samples = await scrape(app);
    expect(sampleValue(samples, "hanja_api_keys", { plan: "free", status: "pending_deposit" })).toBe(1);
    expect(sampleValue(samples, "hanja_api_store_errors_total", { operation: "keyPage", error: "unavailable" })).toBeGreaterThanOrEqual(1);
  });

  it("the data's versions from the manifest, the start time, and the process's memory where the runtime tells it", async () => {
    const manifest = JSON.parse(distFiles()["manifest.json"] as string);
    const memory = { rss: 123_000_000, heapTotal: 60_000_000, heapUsed: 50_000_000, external: 4_000_000 };
    const samples = await scrape(testApp({ metricsToken: TOKEN, memoryUsage: () => memory }));
    const info = samples.find((s) => s.name === "hanja_api_data_info");
    expect(info?.value).toBe(1);
    expect(info?.labels).toEqual({
      unihan: manifest.unihan.version,
      dictionary: manifest.inputs["libhangul/hanja.txt"].slice(0, 12),
      data_hash: manifest.data_hash.slice(0, 12),
      built_at: manifest.built_at,
    });
    expect(sampleValue(samples, "process_resident_memory_bytes")).toBe(123_000_000);
    expect(sampleValue(samples, "hanja_api_heap_used_bytes")).toBe(50_000_000);
    expect(sampleValue(samples, "hanja_api_start_time_seconds")).toBeGreaterThan(1.7e9);
    expect(sampleValue(await scrape(testApp({ metricsToken: TOKEN })), "process_resident_memory_bytes")).toBeUndefined();
  });
});
