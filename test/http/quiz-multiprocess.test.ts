/**
 * Slow: metering across real server processes sharing one SQLite file (docs/rules.md "Interface B", "Runtimes and configuration"): exact
 * counts under concurrency, keys and counts that survive a restart, no plaintext key on disk.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awayFromRollover } from "../conformance/client.ts";
import { type RunningServer, startServer, stopAllServers } from "../helpers/server.ts";
import { Q, applicant } from "./quiz-helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "quiz-multiprocess-"));
const ADMIN_TOKEN = "multiprocess-admin-token";

afterAll(async () => {
  await stopAllServers();
  rmSync(dir, { recursive: true, force: true });
});

/** `n` servers on one SQLite file. */
function startServers(n: number, db: string): Promise<RunningServer[]> {
  return Promise.all(Array.from({ length: n }, () => startServer({ QUOTA_STORE: "sqlite", QUOTA_DB: db, ADMIN_TOKEN })));
}

/** 200 parallel GETs of `path`, request i to server i mod n. */
async function burst(servers: readonly RunningServer[], path: string, headers: Record<string, string> = {}): Promise<Response[]> {
  await awayFromRollover();
  return Promise.all(Array.from({ length: 200 }, (_, i) => fetch(`${servers[i % servers.length]!.url}${Q}${path}`, { headers })));
}

/** Checks the burst: exactly `limit` 200s with remaining limit-1 … 0, the rest 429. */
async function expectExactly(responses: Response[], limit: number): Promise<void> {
  const ok = responses.filter((r) => r.status === 200);
  const refused = responses.filter((r) => r.status === 429);
  expect(ok).toHaveLength(limit);
  expect(refused).toHaveLength(responses.length - limit);
  expect(ok.map((r) => Number(r.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b)).toEqual(Array.from({ length: limit }, (_, i) => i));
  for (const r of refused) {
    expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await r.json()) as { code: string }).code).toBe("quota_exceeded");
  }
  await Promise.all(ok.map((r) => r.arrayBuffer()));
}

async function subscribeOver(server: RunningServer, tag: string): Promise<{ key: string; id: string }> {
  const response = await fetch(`${server.url}${Q}/subscribe`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(applicant(tag)),
  });
  const body = (await response.json()) as { api_key: string; key: { id: string } };
  expect(response.status).toBe(201);
  return { key: body.api_key, id: body.key.id };
}

async function meOver(server: RunningServer, key?: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.url}${Q}/me`, { headers: key ? { "X-API-Key": key } : {} });
  expect(response.status).toBe(200);
  return ((await response.json()) as { key: Record<string, unknown> }).key;
}

/** Every file under `root`, recursively. */
function filesUnder(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const path = join(root, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe("several processes on one SQLite file", () => {
  it("2 processes: 200 parallel demo requests → exactly 30 succeed", { timeout: 120_000 }, async () => {
    const servers = await startServers(2, join(dir, "two", "quota.sqlite"));
    try {
      await expectExactly(await burst(servers, "/idiom"), 30);
      // Every process now refuses this client, and agrees on the count.
      for (const server of servers) {
        expect((await fetch(`${server.url}${Q}/quiz`)).status).toBe(429);
        expect((await meOver(server)).used_today).toBe(30);
      }
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  });

  describe("4 processes", () => {
    let servers: RunningServer[] = [];
    beforeAll(async () => {
      servers = await startServers(4, join(dir, "four", "quota.sqlite"));
    }, 120_000);
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
    });

    it("200 parallel demo requests over every metered route → exactly 30 succeed", { timeout: 120_000 }, async () => {
      await awayFromRollover();
      const paths = ["/quiz?count=5", "/idiom?count=3", "/idiom/1", "/search?q=a"];
      const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => fetch(`${servers[i % 4]!.url}${Q}${paths[i % paths.length]}`)));
      await expectExactly(responses, 30);
    });

    it("200 parallel requests with a free key → exactly 100 succeed", { timeout: 120_000 }, async () => {
      const { key } = await subscribeOver(servers[0]!, "four");
      // The key issued by one process works on all of them.
      for (const server of servers) expect((await meOver(server, key)).plan).toBe("free");
      await expectExactly(await burst(servers, "/quiz", { "X-API-Key": key }), 100);
      for (const server of servers) expect((await meOver(server, key)).used_today).toBe(100);
    });

    it("a confirmation through one process is seen by the others", { timeout: 60_000 }, async () => {
      const { key, id } = await subscribeOver(servers[1]!, "four-confirm");
      const confirmed = await fetch(`${servers[2]!.url}${Q}/admin/keys/${id}/confirm`, { method: "POST", headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(confirmed.status).toBe(200);
      await confirmed.arrayBuffer();
      for (const server of servers) {
        const response = await fetch(`${server.url}${Q}/idiom`, { headers: { "X-API-Key": key } });
        expect(response.status).toBe(200);
        expect(response.headers.get("x-ratelimit-limit")).toBe("10000");
        await response.arrayBuffer();
      }
    });
  });
});

describe("restart on the SQLite store", () => {
  it("keys, their plan and today's counts survive; no file holds a plaintext key", { timeout: 120_000 }, async () => {
    await awayFromRollover();
    const dbDir = join(dir, "restart");
    const db = join(dbDir, "quota.sqlite");
    const [first] = await startServers(1, db);
    const { key, id } = await subscribeOver(first!, "restart");
    const pending = await subscribeOver(first!, "restart-pending");
    for (let n = 0; n < 7; n++) expect((await fetch(`${first!.url}${Q}/idiom`, { headers: { "X-API-Key": key } })).status).toBe(200);
    for (let n = 0; n < 5; n++) expect((await fetch(`${first!.url}${Q}/idiom/1`)).status).toBe(200);
    for (let n = 0; n < 3; n++) expect((await fetch(`${first!.url}${Q}/quiz?api_key=${pending.key}`)).status).toBe(200);
    const confirmed = await fetch(`${first!.url}${Q}/admin/keys/${id}/confirm`, { method: "POST", headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(confirmed.status).toBe(200);
    const expiresAt = ((await confirmed.json()) as { key: { expires_at: string } }).key.expires_at;

    const scan = () => {
      const files = filesUnder(dbDir);
      expect(files.length).toBeGreaterThan(0);
      const all = files.map((file) => readFileSync(file));
      for (const [i, bytes] of all.entries()) {
        expect(bytes.includes(key), `${files[i]} holds the plaintext key`).toBe(false);
        expect(bytes.includes(pending.key), `${files[i]} holds the plaintext key`).toBe(false);
        // Nor the random part on its own.
        expect(bytes.includes(key.slice(3)), `${files[i]} holds the key's random part`).toBe(false);
      }
      // The scan does see the data: the public key id is stored.
      expect(all.some((bytes) => bytes.includes(id))).toBe(true);
    };
    scan(); // while running (the WAL may hold the latest pages)

    expect(await first!.stop()).toBe(0);
    scan();

    const [second] = await startServers(1, db);
    expect(await meOver(second!, key)).toMatchObject({ id, plan: "annual", status: "active", daily_limit: 10_000, used_today: 7, expires_at: expiresAt });
    expect(await meOver(second!, pending.key)).toMatchObject({ id: pending.id, plan: "free", status: "pending_deposit", used_today: 3 });
    expect(await meOver(second!)).toMatchObject({ plan: "demo", used_today: 5, remaining: 25 });
    const next = await fetch(`${second!.url}${Q}/quiz`, { headers: { "X-API-Key": key } });
    expect(next.status).toBe(200);
    expect(next.headers.get("x-ratelimit-remaining")).toBe(String(10_000 - 8));
    // The pending application is still there: the same e-mail is refused after the restart.
    const again = await fetch(`${second!.url}${Q}/subscribe`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(applicant("restart-pending")),
    });
    expect(again.status).toBe(409);
    await again.arrayBuffer();
    await second!.stop();
    scan();
  });
});
