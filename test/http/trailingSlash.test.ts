/**
 * One trailing-slash rule for every path (docs/api.md "Paths"): a trailing slash is ignored, so
 * `/x/` answers exactly as `/x` on every mounted operation, a list with an item route below it
 * (`/hanja/`, `/idiom/`) included.
 */
import { describe, expect, it } from "vitest";
import type { App } from "../../runtime/core/app.ts";
import { describingOnly, mountInterfaces, routingOrder } from "../../runtime/core/operations/interfaces.ts";
import { seededRandom } from "../../runtime/core/util/random.ts";
import { testApp } from "../helpers/app.ts";
import { page } from "../../runtime/page/index.ts";

const ADMIN = "admin-token-for-the-slash-test";
const METRICS = "metrics-token-for-the-slash-test";
const NOW = new Date("2026-03-01T03:00:00Z");

/** An app whose answers depend on nothing but the requests it gets: seeded, at a fixed time, with one quiz secret. */
const deterministicApp = (): App => testApp({ adminToken: ADMIN, metricsToken: METRICS, quizSecret: "q".repeat(32), random: seededRandom(48), now: () => NOW });

/** Every mounted operation (admin, metrics and the page included) as a request to one of its paths. */
function mountedRequests(app: App): { method: string; template: string; path: string }[] {
  const bases = { hanjaBase: "/hanja/v1", quizBase: "/quiz/v1", mountPath: "", adminEnabled: true };
  const services = { ...describingOnly(), metrics: { metrics: undefined as never, token: METRICS } };
  const mounted = routingOrder(mountInterfaces(bases, app.data, services, page));
  const samples: Record<string, string> = { character: encodeURIComponent("水"), idx: "8", id: "key_000000000000" };
  return mounted.map(({ path, operation }) => ({
    method: operation.method,
    template: path,
    path: path.replace(/\{(\w+)\}/g, (_whole, name: string) => samples[name] ?? "x"),
  }));
}

/** The answer to a request, without what differs between any two requests (the request id, the time). */
async function answer(app: App, method: string, path: string) {
  const bearer = path.startsWith("/metrics") ? METRICS : ADMIN;
  const headers = { authorization: `Bearer ${bearer}`, "content-type": "application/json", "accept-encoding": "identity" };
  const request = new Request(`http://localhost${path}`, { method, headers, body: method === "POST" ? "{}" : null });
  const response = await app.fetch(request, { clientAddress: "192.0.2.48" });
  const kept = [...response.headers].filter(([name]) => name !== "x-request-id" && name !== "date");
  // A problem's request id is its own (`X-Request-Id`); of the metrics, the counts by route (durations vary).
  const text = (await response.text()).replace(/"request_id":"[^"]*"/, '"request_id":"-"');
  const body = path.startsWith("/metrics")
    ? text
        .split("\n")
        .filter((line) => line.startsWith("hanja_api_requests_total"))
        .join("\n")
    : text;
  return { status: response.status, headers: Object.fromEntries(kept), body };
}

describe("a trailing slash", () => {
  it("is ignored on every mounted path: the same status, headers and body as without it", async () => {
    const plain = deterministicApp();
    const slashed = deterministicApp();
    const requests = mountedRequests(plain);
    expect(requests.map(({ template }) => template)).toEqual(
      expect.arrayContaining(["/hanja/v1/hanja", "/hanja/v1/hanja/{character}", "/quiz/v1/idiom", "/quiz/v1/idiom/{idx}", "/metrics", "/"]),
    );
    for (const { method, template, path } of requests) {
      if (path === "/") continue; // the root has no form without its slash
      const without = await answer(plain, method, path);
      const withSlash = await answer(slashed, method, `${path}/`);
      expect(withSlash, `${method} ${template}/`).toEqual(without);
    }
  });

  it("after a list with an item route below it answers the list, not an item with an empty id", async () => {
    const app = deterministicApp();
    const list = await answer(app, "GET", "/hanja/v1/hanja/?q=%E6%B0%B4");
    expect(list.status).toBe(200);
    expect(JSON.parse(list.body).data[0].character).toBe("水");
    const idioms = await answer(app, "GET", "/quiz/v1/idiom/?count=2");
    expect(idioms.status).toBe(200);
    expect(JSON.parse(idioms.body).idioms).toHaveLength(2);
    // A bad query is still named, as on the path without the slash.
    const bad = await answer(app, "GET", "/quiz/v1/idiom/?count=0");
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).param).toBe("count");
  });

  it("is also ignored doubled, on a path with a parameter and under a custom base", async () => {
    const app = testApp({ hanjaBase: "/api/chars" });
    for (const path of ["/api/chars/hanja//", "/api/chars/hanja/%E6%B0%B4/", "/api/chars/radicals//"]) {
      const reply = await answer(app, "GET", path);
      expect(reply.status, path).toBe(200);
      expect(reply.body, path).toBe((await answer(app, "GET", path.replace(/\/+$/, ""))).body);
    }
  });
});
