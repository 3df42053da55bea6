/**
 * Plans, limits and the price are written once (runtime/core/quota/plans.ts): the metered
 * answers, `POST /subscribe` and the reference state the module's values (the `keys` CLI's help:
 * cli.test.ts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ANNUAL_PRICE_KRW, APPLICATIONS_PER_IP, DAILY_LIMITS, MAX_BODY_BYTES } from "../../runtime/core/quota/plans.ts";
import { count } from "../../runtime/core/util/count.ts";
import { call, getJson, testApp } from "../helpers/app.ts";

const app = testApp();

describe("the plans module is the one source of plans, limits and prices", () => {
  it("metering and POST /subscribe use its limits and price", async () => {
    const demo = await call(app, "/quiz/v1/idiom", { clientAddress: "10.9.0.1" });
    expect(demo.headers.get("x-ratelimit-limit")).toBe(String(DAILY_LIMITS.demo));
    const subscribed = await getJson(app, "/quiz/v1/subscribe", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Plan Test", email: "plans@example.com" }),
      clientAddress: "10.9.0.2",
    });
    expect(subscribed.body.key.daily_limit).toBe(DAILY_LIMITS.free);
    expect(subscribed.body.payment.price_krw).toBe(ANNUAL_PRICE_KRW);
  });

  it("the reference states them", async () => {
    const document = (await getJson(app, "/openapi.json")).body;
    expect(document["x-plans"].map((row: { plan: string; daily_limit: number }) => [row.plan, row.daily_limit])).toEqual([
      ["demo", DAILY_LIMITS.demo],
      ["free", DAILY_LIMITS.free],
      ["annual", DAILY_LIMITS.annual],
      ["—", 0],
    ]);
    const subscribe = document.paths["/quiz/v1/subscribe"].post.description as string;
    expect(subscribe).toContain(`${count(ANNUAL_PRICE_KRW)} KRW a year`);
    expect(subscribe).toContain(`at most ${MAX_BODY_BYTES} bytes`);
    expect(subscribe).toContain(`At most ${APPLICATIONS_PER_IP} applications per client IP per day`);
    expect(document.paths["/quiz/v1/quiz"].get.description).toContain(
      `demo ${DAILY_LIMITS.demo} per client IP, free ${DAILY_LIMITS.free}, annual ${count(DAILY_LIMITS.annual)} per key`,
    );
  });
});

describe("count", () => {
  it('groups a whole number as toLocaleString("en") does, without loading locale data', () => {
    fc.assert(fc.property(fc.nat({ max: Number.MAX_SAFE_INTEGER }), (n) => count(n) === n.toLocaleString("en")));
  });
});
