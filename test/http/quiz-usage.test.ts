/**
 * A key's usage history over HTTP (docs/operating.md "Usage history"): `GET /me` shows the last 30 metering
 * days, the admin route the whole history kept; the hourly sweep keeps it 400 days and then prunes
 * it; the erasure of the applicant's personal data leaves it.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryQuotaStore } from "../../runtime/core/quota/memoryStore.ts";
import { getJson, testApp } from "../helpers/app.ts";
import { Q, bearer, expectProblem, me, meteredOk, newKey, testClock } from "./quiz-helpers.ts";

const TOKEN = "usage-admin-token-0123456789";
const DAY = 86_400_000;

afterEach(() => vi.restoreAllMocks());

describe("usage history", () => {
  it("GET /me: the key's calls on each of the last 30 metering days (Asia/Seoul), oldest first, today last; null for the demo", async () => {
    // 23:59:59 in Seoul: the last second of 10 March there.
    const clock = testClock("2026-03-10T14:59:59.000Z");
    const app = testApp({ now: clock.now, store: new MemoryQuotaStore() });
    const { key } = await newKey(app, "usage-me", "192.0.2.20");
    for (let i = 0; i < 2; i++) await meteredOk(app, { key });
    clock.advance(1000);
    for (let i = 0; i < 3; i++) await meteredOk(app, { key });
    // /me itself is not metered.
    const status = await me(app, { key });
    expect(status.used_today).toBe(3);
    expect(status.usage).toHaveLength(30);
    expect(status.usage[0]).toEqual({ date: "2026-02-10", calls: 0 });
    expect(status.usage.slice(-2)).toEqual([
      { date: "2026-03-10", calls: 2 },
      { date: "2026-03-11", calls: 3 },
    ]);
    expect(status.usage.slice(0, -2).every((day: { calls: number }) => day.calls === 0)).toBe(true);
    const dates = status.usage.map((day: { date: string }) => day.date);
    expect([...dates].sort()).toEqual(dates);
    expect(new Set(dates).size).toBe(30);

    // Thirty days on, the first day has left the window.
    clock.advance(29 * DAY);
    const later = await me(app, { key });
    expect(later.usage[0]).toEqual({ date: "2026-03-11", calls: 3 });
    expect(later.usage.at(-1)).toEqual({ date: "2026-04-09", calls: 0 });

    await meteredOk(app, { clientAddress: "192.0.2.21" });
    expect((await me(app, { clientAddress: "192.0.2.21" })).usage).toBeNull();
  });

  it("GET /admin/keys/{id}/usage: the days with calls as far back as kept and their sum; 401 without the token, 400 for a malformed id, 404 for an unknown key or without ADMIN_TOKEN", async () => {
    const clock = testClock("2026-03-10T03:00:00.000Z");
    const app = testApp({ now: clock.now, adminToken: TOKEN, store: new MemoryQuotaStore() });
    const { key, id } = await newKey(app, "usage-admin", "192.0.2.22");
    await meteredOk(app, { key });
    clock.advance(45 * DAY);
    for (let i = 0; i < 4; i++) await meteredOk(app, { key });
    const path = `${Q}/admin/keys/${id}/usage`;
    const { status, body } = await getJson(app, path, { headers: bearer(TOKEN) });
    expect(status).toBe(200);
    expect(body).toEqual({
      success: true,
      id,
      from: "2025-03-18",
      to: "2026-04-24",
      total_calls: 5,
      usage: [
        { date: "2026-03-10", calls: 1 },
        { date: "2026-04-24", calls: 4 },
      ],
    });
    expectProblem(await getJson(app, path), 401, "invalid_key", "Authorization");
    expectProblem(await getJson(app, `${Q}/admin/keys/key_nope/usage`, { headers: bearer(TOKEN) }), 400, "invalid_parameter", "id");
    expectProblem(await getJson(app, `${Q}/admin/keys/key_AbCdEf123456/usage`, { headers: bearer(TOKEN) }), 404, "not_found", "id");
    expect((await getJson(testApp(), path, { headers: bearer(TOKEN) })).status).toBe(404);
  });

  it("the hourly sweep keeps a day's history at least 400 days after the day and prunes it within three more; erasing the applicant's personal data leaves it", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {}); // the erasure's log line
    const clock = testClock("2026-01-10T03:00:00.000Z");
    const app = testApp({ now: clock.now, adminToken: TOKEN, store: new MemoryQuotaStore() });
    const { key, id } = await newKey(app, "usage-sweep", "192.0.2.23");
    await meteredOk(app, { key });
    const usage = async () => (await getJson(app, `${Q}/admin/keys/${id}/usage`, { headers: bearer(TOKEN) })).body.usage;

    // 30 days on, the pending application's personal data goes; its history stays.
    clock.advance(30 * DAY);
    expect(await app.erasePersonalData()).toMatchObject({ erased: 1, prunedUsage: 0 });
    expect(await usage()).toEqual([{ date: "2026-01-10", calls: 1 }]);

    // Kept at least 400 days after its day ended in Seoul (2026-01-10T15:00Z): the sweep goes by
    // whole UTC days with room for any metering offset, so the day goes on 17 February 2027.
    clock.set("2027-02-16T23:59:59.000Z");
    expect(await app.erasePersonalData()).toMatchObject({ prunedUsage: 0 });
    expect(await usage()).toEqual([{ date: "2026-01-10", calls: 1 }]);
    clock.advance(1000);
    expect(await app.erasePersonalData()).toMatchObject({ prunedUsage: 1 });
    expect(await usage()).toEqual([]);
  });
});
