/**
 * A store outage in the log (docs/running.md, the log): one `warn` line when the first call is answered 503,
 * one when the store carries out a change again, with the outage's length and how many calls were
 * answered 503; nothing per call in between, no stack trace, nothing to `onError`. With a failing
 * fake store (the Redis outage is tested with real servers in test/store/redisServers.test.ts).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryQuotaStore } from "../../runtime/core/quota/memoryStore.ts";
import { StoreOutages } from "../../runtime/core/quota/outages.ts";
import { type QuotaStore, StoreUnavailableError } from "../../runtime/core/quota/store.ts";
import { call, testApp } from "../helpers/app.ts";
import { Q, newKey } from "./quiz-helpers.ts";

afterEach(() => vi.restoreAllMocks());

/** A memory store whose operations named in `down` fail as unavailable. */
function failing(down: Set<string>): QuotaStore {
  const store = new MemoryQuotaStore();
  return new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (down.has(String(name))) throw new StoreUnavailableError(`test store: ${String(name)}: database is locked`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** The JSON lines written on stderr from now on. */
function stderrLines(): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  vi.spyOn(console, "error").mockImplementation((text: unknown) => void lines.push(JSON.parse(String(text)) as Record<string, unknown>));
  return lines;
}

describe("store outages in the log", () => {
  it("one warn line when it starts (cause, request id), one when the store answers a change again (length, 503s), nothing per call; onError is not called", async () => {
    const down = new Set<string>();
    const errors: unknown[] = [];
    const app = testApp({ store: failing(down), onError: (error) => errors.push(error) });
    const { key } = await newKey(app, "outage");
    const lines = stderrLines();

    down.add("consume");
    const statuses: number[] = [];
    const ids: (string | null)[] = [];
    for (const headers of [{}, { "X-API-Key": key }, {}, { "X-API-Key": key }] as Record<string, string>[]) {
      const response = await call(app, `${Q}/idiom`, { headers });
      statuses.push(response.status);
      ids.push(response.headers.get("x-request-id"));
    }
    // A read answered meanwhile (the key's lookup, /me) does not end the outage: the store may have answered it from memory.
    down.add("used");
    statuses.push((await call(app, `${Q}/me`)).status);
    expect(statuses).toEqual([503, 503, 503, 503, 503]);
    expect(lines).toEqual([
      {
        level: "warn",
        msg: "quota store unavailable: calls that need it answer 503 until it answers again",
        cause: "test store: consume: database is locked",
        request_id: ids[0],
      },
    ]);

    down.clear();
    expect((await call(app, `${Q}/idiom`, { headers: { "X-API-Key": key } })).status).toBe(200);
    expect((await call(app, `${Q}/idiom`)).status).toBe(200);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({
      level: "warn",
      unavailable_calls: 5,
      msg: expect.stringMatching(/^quota store answering again after [\d.]+ s; 5 calls answered 503 meanwhile$/),
    });
    expect(lines[1]?.outage_seconds).toBeGreaterThanOrEqual(0);
    expect(errors).toEqual([]);

    // The next outage is a new pair; one still under way when the app closes is reported then.
    down.add("insertKey");
    expect(
      (await call(app, `${Q}/subscribe`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"name":"a","email":"a@example.com"}' }))
        .status,
    ).toBe(503);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatchObject({ level: "warn", cause: "test store: insertKey: database is locked" });
    await app.close();
    expect(lines[3]).toMatchObject({
      level: "warn",
      unavailable_calls: 1,
      msg: expect.stringMatching(/^closing while the quota store is unavailable after [\d.]+ s; 1 call answered 503 meanwhile$/),
    });
    expect(lines).toHaveLength(4);
  });

  it("an unexpected error still goes to onError, not into an outage", async () => {
    const errors: unknown[] = [];
    const store = new MemoryQuotaStore();
    store.consume = () => {
      throw new TypeError("a bug");
    };
    const app = testApp({ store, onError: (error) => errors.push(error) });
    const lines = stderrLines();
    expect((await call(app, `${Q}/idiom`)).status).toBe(500);
    expect(errors).toHaveLength(1);
    expect(lines).toEqual([]);
  });

  it("StoreOutages: the length is measured from the first 503 to the change, in tenths of a second", () => {
    let now = 1_000;
    const lines: Record<string, unknown>[] = [];
    const outages = new StoreOutages(
      (line) => lines.push(line),
      () => now,
    );
    outages.answered();
    expect(lines).toEqual([]);
    outages.unavailable(new StoreUnavailableError("redis store: consume: not connected"), "r-1");
    now += 12_345;
    outages.unavailable(new StoreUnavailableError("redis store: consume: not connected"), "r-2");
    expect(outages.active).toBe(true);
    outages.answered();
    expect(outages.active).toBe(false);
    expect(lines.map((line) => line.msg)).toEqual([
      "quota store unavailable: calls that need it answer 503 until it answers again",
      "quota store answering again after 12.3 s; 2 calls answered 503 meanwhile",
    ]);
    expect(lines[1]).toMatchObject({ outage_seconds: 12.3, unavailable_calls: 2 });
  });

  it("StoreOutages: a probe that throws at once is a failed probe (the outage goes on), never an uncaught error in its timer", async () => {
    const lines: Record<string, unknown>[] = [];
    let probes = 0;
    const outages = new StoreOutages(
      (line) => lines.push(line),
      Date.now,
      () => {
        probes++;
        if (probes < 3) throw new StoreUnavailableError("test store: probe refused");
        return Promise.resolve();
      },
      10,
    );
    outages.unavailable(new StoreUnavailableError("redis store: consume: not connected"), "r-1");
    await vi.waitFor(() => expect(outages.active).toBe(false), { timeout: 2000, interval: 5 });
    expect(probes).toBe(3);
    expect(lines.map((line) => String(line.msg).replace(/after [\d.]+ s/, "after … s"))).toEqual([
      "quota store unavailable: calls that need it answer 503 until it answers again",
      "quota store answering again after … s; 1 call answered 503 meanwhile",
    ]);
  });
});
