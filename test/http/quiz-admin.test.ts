/** The operator's HTTP routes (docs/rules.md "Interface B"): only with a token, Bearer auth, list/show/confirm/revoke. */
import { describe, expect, it } from "vitest";
import { call, getJson, testApp } from "../helpers/app.ts";
import { Q, applicant, bearer, expectProblem, me, newKey, subscribe, testClock } from "./quiz-helpers.ts";

const TOKEN = "s3cret-admin-token-for-tests";
const ROUTES: [string, string][] = [
  ["GET", "/admin/keys"],
  ["GET", "/admin/keys/key_AAAAAAAAAAAA"],
  ["POST", "/admin/keys/key_AAAAAAAAAAAA/confirm"],
  ["POST", "/admin/keys/key_AAAAAAAAAAAA/revoke"],
];

describe("admin routes without ADMIN_TOKEN", () => {
  const app = testApp();
  for (const [method, path] of ROUTES) {
    it(`${method} ${path} → 404`, async () => {
      expectProblem(await getJson(app, `${Q}${path}`, { method, headers: bearer(TOKEN) }), 404, "not_found");
      expectProblem(await getJson(app, `${Q}${path}`, { method }), 404, "not_found");
    });
  }
});

describe("admin routes: authentication", () => {
  const app = testApp({ adminToken: TOKEN });
  const wrong: [string, Record<string, string>][] = [
    ["no header", {}],
    ["a wrong token", bearer("not-the-token")],
    ["the token with a suffix", bearer(`${TOKEN}x`)],
    ["a prefix of the token", bearer(TOKEN.slice(0, -1))],
    ["another scheme", { Authorization: `Basic ${TOKEN}` }],
    ["the bare token", { Authorization: TOKEN }],
    ["an empty bearer", { Authorization: "Bearer " }],
  ];
  for (const [method, path] of ROUTES) {
    for (const [label, headers] of wrong) {
      it(`${method} ${path} with ${label} → 401`, async () => {
        const result = await getJson(app, `${Q}${path}`, { method, headers });
        expectProblem(result, 401, "invalid_key", "Authorization");
        expect(result.headers.get("www-authenticate")).toBe('Bearer realm="admin"');
      });
    }
  }

  it("the right token is accepted, whatever the scheme's case", async () => {
    expect((await getJson(app, `${Q}/admin/keys`, { headers: bearer(TOKEN) })).status).toBe(200);
    expect((await getJson(app, `${Q}/admin/keys`, { headers: { Authorization: `bearer ${TOKEN}` } })).status).toBe(200);
  });

  it("a wrong token confirms nothing", async () => {
    const { id, key } = await newKey(app, "wrong-token");
    await call(app, `${Q}/admin/keys/${id}/confirm`, { method: "POST", headers: bearer("nope") });
    await call(app, `${Q}/admin/keys/${id}/revoke`, { method: "POST", headers: bearer("nope") });
    expect(await me(app, { key })).toMatchObject({ plan: "free", status: "pending_deposit" });
  });
});

describe("admin routes: list, show, confirm, revoke", () => {
  it("list with and without ?status=, newest first, with the applicant's details", async () => {
    const clock = testClock("2025-03-01T03:00:00Z");
    const app = testApp({ adminToken: TOKEN, now: clock.now });
    const made: { id: string; key: string }[] = [];
    for (let n = 0; n < 4; n++) {
      made.push(await newKey(app, `list-${n}`, `10.4.0.${n}`));
      clock.advance(60_000);
    }
    const [a, b, c] = [made[0]!, made[1]!, made[2]!];
    await call(app, `${Q}/admin/keys/${a.id}/confirm`, { method: "POST", headers: bearer(TOKEN) });
    await call(app, `${Q}/admin/keys/${b.id}/revoke`, { method: "POST", headers: bearer(TOKEN) });

    const all = await getJson(app, `${Q}/admin/keys`, { headers: bearer(TOKEN) });
    expect(all.status).toBe(200);
    expect(all.headers.get("cache-control")).toBe("no-store");
    expect(all.body.success).toBe(true);
    expect(all.body.count).toBe(4);
    expect(all.body.keys.map((k: any) => k.id)).toEqual(made.map((k) => k.id).reverse());

    const byStatus = async (status: string) => (await getJson(app, `${Q}/admin/keys?status=${status}`, { headers: bearer(TOKEN) })).body;
    const pending = await byStatus("pending_deposit");
    expect(pending.count).toBe(2);
    expect(pending.keys.map((k: any) => k.id).sort()).toEqual([c.id, made[3]!.id].sort());
    expect((await byStatus("active")).keys.map((k: any) => k.id)).toEqual([a.id]);
    expect((await byStatus("revoked")).keys.map((k: any) => k.id)).toEqual([b.id]);
    expect((await byStatus("expired")).count).toBe(0);

    for (const record of all.body.keys) {
      expect(record).not.toHaveProperty("hash");
      const tag = record.applicant.email.match(/applicant-(.+)@/)[1];
      expect(record.applicant).toEqual({
        name: `테스트 상사 ${tag}`,
        email: `applicant-${tag}@example.com`,
        phone: "010-1234-5678",
        depositor: `입금자${tag}`,
      });
    }
    // The plaintext keys are nowhere in the admin view.
    for (const { key } of made) expect(JSON.stringify(all.body)).not.toContain(key);
  });

  it("confirming a key that is already active changes nothing and says so", async () => {
    const clock = testClock("2025-03-01T03:00:00Z");
    const app = testApp({ adminToken: TOKEN, now: clock.now });
    const { id } = await newKey(app, "twice", "10.4.2.1");
    const first = await getJson(app, `${Q}/admin/keys/${id}/confirm`, { method: "POST", headers: bearer(TOKEN) });
    expect(first.body.unchanged).toBeUndefined();
    expect(first.body.note).toBeUndefined();
    clock.advance(86_400_000);
    const again = await getJson(app, `${Q}/admin/keys/${id}/confirm`, { method: "POST", headers: bearer(TOKEN) });
    expect(again.status).toBe(200);
    expect(again.body.key.expires_at).toBe(first.body.key.expires_at);
    expect(again.body.unchanged).toBe(true);
    expect(again.body.note).toContain("already active (annual until 2026-03-01T03:00:00.000Z): nothing changed");
  });

  it("?status=expired lists active keys past their expiry, which ?status=active then leaves out", async () => {
    const clock = testClock("2025-03-01T03:00:00Z");
    const app = testApp({ adminToken: TOKEN, now: clock.now });
    const old = await newKey(app, "expiring", "10.4.1.1");
    await call(app, `${Q}/admin/keys/${old.id}/confirm`, { method: "POST", headers: bearer(TOKEN) });
    clock.advance(366 * 86_400_000);
    const fresh = await newKey(app, "fresh", "10.4.1.2");
    await call(app, `${Q}/admin/keys/${fresh.id}/confirm`, { method: "POST", headers: bearer(TOKEN) });
    const list = async (status: string) => (await getJson(app, `${Q}/admin/keys?status=${status}`, { headers: bearer(TOKEN) })).body;
    const expired = await list("expired");
    expect(expired.keys.map((k: any) => [k.id, k.status])).toEqual([[old.id, "expired"]]);
    expect((await list("active")).keys.map((k: any) => k.id)).toEqual([fresh.id]);
  });

  it("?status= with an unknown status, or twice → 400", async () => {
    const app = testApp({ adminToken: TOKEN });
    expectProblem(await getJson(app, `${Q}/admin/keys?status=bogus`, { headers: bearer(TOKEN) }), 400, "invalid_parameter", "status");
    expectProblem(await getJson(app, `${Q}/admin/keys?status=active&status=active`, { headers: bearer(TOKEN) }), 400, "invalid_parameter", "status");
  });

  it("show gives the key record with the applicant; public routes never do", async () => {
    const clock = testClock("2025-03-01T03:00:00Z");
    const app = testApp({ adminToken: TOKEN, now: clock.now });
    const person = applicant("show", { phone: null, depositor: null });
    const created = await subscribe(app, person);
    const id = created.body.key.id as string;
    const shown = await getJson(app, `${Q}/admin/keys/${id}`, { headers: bearer(TOKEN) });
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({
      success: true,
      key: {
        id,
        plan: "free",
        status: "pending_deposit",
        created_at: "2025-03-01T03:00:00.000Z",
        confirmed_at: null,
        expires_at: null,
        revoked_at: null,
        // The reference the subscribe answer asked the customer to write on the transfer.
        payment_reference: created.body.payment.reference,
        erased_at: null,
        applicant: { name: person.name, email: person.email, phone: null, depositor: null },
      },
    });
    expect(shown.body.key.payment_reference).toMatch(/^HJ[0-9A-Z]{6}$/);
    const publicView = JSON.stringify([created.body, await me(app, { key: created.body.api_key })]);
    expect(publicView).not.toContain(person.email as string);
    expect(publicView).not.toContain(person.name as string);
  });

  it("confirm and revoke answer with the updated record", async () => {
    const clock = testClock("2025-03-01T03:00:00Z");
    const app = testApp({ adminToken: TOKEN, now: clock.now });
    const { id } = await newKey(app, "actions");
    const confirmed = await getJson(app, `${Q}/admin/keys/${id}/confirm`, { method: "POST", headers: bearer(TOKEN) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.key).toMatchObject({
      id,
      plan: "annual",
      status: "active",
      confirmed_at: "2025-03-01T03:00:00.000Z",
      expires_at: "2026-03-01T03:00:00.000Z",
      revoked_at: null,
      applicant: { email: "applicant-actions@example.com" },
    });
    clock.advance(1000);
    const revoked = await getJson(app, `${Q}/admin/keys/${id}/revoke`, { method: "POST", headers: bearer(TOKEN) });
    expect(revoked.status).toBe(200);
    expect(revoked.body.key).toMatchObject({ id, status: "revoked", revoked_at: "2025-03-01T03:00:01.000Z" });
    // Revoking twice keeps the first time.
    clock.advance(1000);
    const twice = await getJson(app, `${Q}/admin/keys/${id}/revoke`, { method: "POST", headers: bearer(TOKEN) });
    expect(twice.body.key.revoked_at).toBe("2025-03-01T03:00:01.000Z");
  });

  it("an unknown well-formed id → 404 naming id", async () => {
    const app = testApp({ adminToken: TOKEN });
    await newKey(app, "exists");
    for (const [method, path] of ROUTES.slice(1)) {
      expectProblem(await getJson(app, `${Q}${path}`, { method, headers: bearer(TOKEN) }), 404, "not_found", "id");
    }
  });

  it("a malformed id → 400 naming id", async () => {
    const app = testApp({ adminToken: TOKEN });
    for (const id of ["nope", "key_short", "key_AAAAAAAAAAAA!"]) {
      expectProblem(await getJson(app, `${Q}/admin/keys/${encodeURIComponent(id)}`, { headers: bearer(TOKEN) }), 400, "invalid_parameter", "id");
      expectProblem(
        await getJson(app, `${Q}/admin/keys/${encodeURIComponent(id)}/confirm`, { method: "POST", headers: bearer(TOKEN) }),
        400,
        "invalid_parameter",
        "id",
      );
    }
  });

  it("GET on confirm → 405 with Allow: POST, OPTIONS", async () => {
    const app = testApp({ adminToken: TOKEN });
    const result = await getJson(app, `${Q}/admin/keys/key_AAAAAAAAAAAA/confirm`, { headers: bearer(TOKEN) });
    expectProblem(result, 405, "method_not_allowed");
    expect(result.headers.get("allow")).toBe("POST, OPTIONS");
  });
});
