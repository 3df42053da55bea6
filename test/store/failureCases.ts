/**
 * The failure contract of the quota store (`QuotaStore` in runtime/core/quota/store.ts), checked
 * through the service over each store kind: a store that cannot answer makes the service answer
 * `503 service_unavailable` with `Retry-After` and a problem body; a failed call is not counted,
 * so the caller's retry is counted once; an operation that does not settle is cut off at the
 * bound (503), never a hang. The store under test is wrapped to fail on demand.
 */
import assert from "node:assert/strict";
import type { App } from "../../runtime/core/app.ts";
import { boundedStore } from "../../runtime/core/quota/boundedStore.ts";
import { type QuotaStore, StoreUnavailableError } from "../../runtime/core/quota/store.ts";
import { call, testApp } from "../helpers/app.ts";

/** One failure check, given a fresh, empty store of one kind (the harness closes it). */
export interface FailureCase {
  name: string;
  run(store: QuotaStore): Promise<void>;
}

type Fault = "unavailable" | "hang" | undefined;

/** `store` whose operations fail as `fault(operation)` says at the moment of the call. */
function faulty(store: QuotaStore, fault: (operation: string) => Fault): QuotaStore {
  return new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== "function" || name === "close") return value;
      return (...args: unknown[]) => {
        const now = fault(String(name));
        if (now === "unavailable") throw new StoreUnavailableError(`test store: ${String(name)} refused (database is locked)`, 7);
        if (now === "hang") return new Promise(() => {});
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** Checks a 503 problem answer: status, code, Retry-After, problem body without internals. */
async function expectUnavailable(response: Response, retryAfter: string): Promise<void> {
  assert.equal(response.status, 503);
  assert.equal(response.headers.get("retry-after"), retryAfter);
  assert.match(response.headers.get("content-type") ?? "", /^application\/problem\+json/);
  assert.equal(response.headers.get("cache-control"), "no-store");
  const body = (await response.json()) as Record<string, unknown>;
  assert.equal(body.code, "service_unavailable");
  assert.equal(body.title, "Service unavailable");
  assert.equal(body.status, 503);
  assert.equal(body.success, false);
  assert.equal(body.request_id, response.headers.get("x-request-id"));
  assert.doesNotMatch(JSON.stringify(body), /locked|test store/, "the store's message is logged, not sent");
}

/** An app over `store` whose failures `fault` switches, and the errors it reported. */
function appOver(store: QuotaStore, fault: (operation: string) => Fault, timeoutMs = 10_000): { app: App; reported: unknown[] } {
  const reported: unknown[] = [];
  const app = testApp({ store: boundedStore(faulty(store, fault), timeoutMs, "test store"), onError: (error) => reported.push(error) });
  return { app, reported };
}

/** The lines written on stderr (the app's own log) while `run` runs; nothing else is written then. */
async function stderrOf(run: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const write = console.error;
  console.error = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
  try {
    await run();
  } finally {
    console.error = write;
  }
  return lines;
}

/** Issues a key through the app; returns it. */
async function issueKey(app: App): Promise<string> {
  const response = await call(app, "/quiz/v1/subscribe", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Store Test", email: `store-${Math.random().toString(36).slice(2)}@example.com` }),
  });
  assert.equal(response.status, 201);
  return ((await response.json()) as { api_key: string }).api_key;
}

const used = async (app: App, headers: Record<string, string> = {}) =>
  ((await (await call(app, "/quiz/v1/me", { headers })).json()) as { key: { used_today: number } }).key.used_today;

export const failureCases: FailureCase[] = [
  {
    name: "a store that cannot answer: 503 service_unavailable with Retry-After and a problem body; the outage's first message is logged once",
    async run(store) {
      const fault: Fault = "unavailable";
      const { app, reported } = appOver(store, () => fault);
      const logged = await stderrOf(async () => {
        await expectUnavailable(await call(app, "/quiz/v1/quiz"), "7");
        await expectUnavailable(await call(app, "/quiz/v1/me"), "7");
      });
      assert.equal(logged.length, 1, "one line for the outage, not one per call");
      assert.match(logged[0] ?? "", /"level":"warn".*"cause":"test store: \w+ refused \(database is locked\)"/);
      assert.deepEqual(reported, [], "an outage is not an unexpected error");
      // Interface A never reads the store.
      assert.equal((await call(app, "/hanja/v1/hanja/%E6%B0%B4")).status, 200);
    },
  },
  {
    name: "a call answered 503 is not counted: the retry is counted once (demo and key)",
    async run(store) {
      let failConsume = false;
      let consumeCalls = 0;
      const { app } = appOver(store, (operation) => {
        if (operation !== "consume") return undefined;
        consumeCalls++;
        return failConsume ? "unavailable" : undefined;
      });
      const key = await issueKey(app);
      for (const headers of [{}, { "X-API-Key": key }] as Record<string, string>[]) {
        failConsume = true;
        assert.equal((await call(app, "/quiz/v1/quiz", { headers })).status, 503);
        assert.equal(await used(app, headers), 0, "the failed call counted nothing");
        failConsume = false;
        const retry = await call(app, "/quiz/v1/quiz", { headers });
        assert.equal(retry.status, 200);
        assert.equal(await used(app, headers), 1, "the retry counted once");
        assert.equal(Number(retry.headers.get("x-ratelimit-remaining")), Number(retry.headers.get("x-ratelimit-limit")) - 1);
      }
      // One consume for the key's application (POST /subscribe), then one per call: no retry by the service.
      assert.equal(consumeCalls, 5, "the service does not retry a failed consume itself");
    },
  },
  {
    name: "an operation that does not settle within the bound is a 503, not a hang, and counts nothing",
    async run(store) {
      let fault: Fault = "hang";
      const { app } = appOver(store, () => fault, 50);
      const started = Date.now();
      const logged = await stderrOf(async () => expectUnavailable(await call(app, "/quiz/v1/quiz"), "1"));
      assert.ok(Date.now() - started < 5_000, "answered within the bound, not after a hang");
      assert.match(logged.join("\n"), /did not answer within 50 ms/);
      fault = undefined;
      assert.equal(await used(app), 0);
    },
  },
  {
    name: "every store operation that does not settle within the bound fails with StoreUnavailableError (eraseApplicant too)",
    async run(store) {
      const bounded = boundedStore(
        faulty(store, () => "hang"),
        50,
        "test store",
      );
      const calls: [string, () => unknown][] = [
        ["consume", () => bounded.consume("demo:x", "2025-03-05", 1)],
        ["used", () => bounded.used("demo:x", "2025-03-05")],
        ["usage", () => bounded.usage("key_nope", "2025-03-01", "2025-03-05")],
        ["insertKey", () => bounded.insertKey({} as never)],
        ["eraseApplicant", () => bounded.eraseApplicant("key_nope", "pending_deposit", "2025-03-05T00:00:00.000Z")],
        ["keyByHash", () => bounded.keyByHash("0".repeat(64))],
        ["keyById", () => bounded.keyById("key_nope")],
        ["keyPage", () => bounded.keyPage({ limit: 10 })],
        ["erasablePage", () => bounded.erasablePage("2025-03-05T00:00:00.000Z", null, 10)],
        ["acquireLease", () => bounded.acquireLease("sweep", "a", 1000)],
        ["releaseLease", () => bounded.releaseLease("sweep", "a")],
        ["pruneCounters", () => bounded.pruneCounters("2025-03-05", 10)],
        ["pruneUsage", () => bounded.pruneUsage("2025-03-05", 10)],
        ["updateKey", () => bounded.updateKey("key_nope", { status: "active" })],
      ];
      for (const [operation, run] of calls) {
        await assert.rejects(
          async () => run(),
          (error: unknown) => error instanceof StoreUnavailableError && error.message.includes(`${operation} did not answer within 50 ms`),
          operation,
        );
      }
    },
  },
];
