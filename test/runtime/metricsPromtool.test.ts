/**
 * `promtool check metrics` (Debian's package prometheus) on `GET /metrics` with every family
 * holding samples: requests, latency, decisions of each outcome, store failures, keys, versions,
 * memory. It reads the exposition as Prometheus does and lints it (names, units, help). The
 * conformance suite runs the same check against a real server on every runtime.
 */
import { describe, expect, it } from "vitest";
import { MemoryQuotaStore } from "../../runtime/core/quota/memoryStore.ts";
import { StoreUnavailableError } from "../../runtime/core/quota/store.ts";
import { call, testApp } from "../helpers/app.ts";
import { parseSamples, promtoolCheck } from "../helpers/metrics.ts";
import { Q, newKey } from "../http/quiz-helpers.ts";

const TOKEN = "metrics-token-0123456789";

describe("promtool check metrics", () => {
  it("accepts the exposition of an app that has served, refused and failed", async () => {
    let down = false;
    const store = new MemoryQuotaStore();
    const consume = store.consume.bind(store);
    store.consume = (...args) => {
      if (down) throw new StoreUnavailableError("test store: down");
      return consume(...args);
    };
    const app = testApp({ metricsToken: TOKEN, store, storeKind: "sqlite", memoryUsage: () => ({ rss: 1, heapTotal: 2, heapUsed: 3, external: 4 }) });
    const { key } = await newKey(app, "promtool");
    for (const path of [`/hanja/v1/hanja/${encodeURIComponent("水")}`, "/hanja/v1/meta", `${Q}/idiom`, "/nowhere", `${Q}/idiom?count=0`]) await call(app, path);
    await call(app, `${Q}/idiom`, { headers: { "X-API-Key": key } });
    await call(app, `${Q}/idiom`, { headers: { "X-API-Key": `hj_${"0".repeat(32)}` } });
    down = true;
    await call(app, `${Q}/idiom`);
    const text = await (await call(app, "/metrics", { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
    const names = new Set(parseSamples(text).map((s) => s.name));
    for (const name of [
      "hanja_api_requests_total",
      "hanja_api_request_duration_seconds_bucket",
      "hanja_api_metered_calls_total",
      "hanja_api_store_operation_duration_seconds_count",
      "hanja_api_store_errors_total",
      "hanja_api_keys",
      "hanja_api_data_info",
      "process_resident_memory_bytes",
    ]) {
      expect(names, name).toContain(name);
    }
    expect(promtoolCheck(text)).toEqual({ status: 0, output: "" });
  });

  it("refuses what Prometheus would not read, and lints a badly named counter (so the check above can fail)", () => {
    expect(promtoolCheck('# TYPE x counter\nx{a="b} 1\n').status).not.toBe(0);
    expect(promtoolCheck("# HELP x A counter.\n# TYPE x counter\nx 1\n")).toMatchObject({
      status: 3,
      output: expect.stringContaining('counter metrics should have "_total" suffix'),
    });
  });
});
