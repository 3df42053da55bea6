/**
 * Slow: four servers (Node, Node, Bun, Deno) on one Redis, as several machines behind a proxy
 * would run: exact quotas across them, a class quiz's students across them, a confirmation or revocation seen by all at once, an
 * instance killed under load, Redis stopped and restarted under load, and start-up against a
 * Redis that refuses the password. No timing is asserted: only what clients got and what counted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ConformanceServer,
  bunSource,
  bundled,
  compiledBinary,
  denoSource,
  environment,
  nodeSource,
  runToExit,
  sourceCommand,
} from "../conformance/servers.ts";
import { awayFromRollover } from "../conformance/client.ts";
import { eventually } from "../helpers/eventually.ts";
import { stopAllServers } from "../helpers/server.ts";
import { type TestRedis, removeAllRedis, skipRedis, startRedis } from "../helpers/redisServer.ts";
import { Q, applicant } from "../http/quiz-helpers.ts";

const ADMIN_TOKEN = "redis-servers-admin-token";
const PASSWORD = "redis-servers-password-1234";
type Server = ConformanceServer & { kill(signal: NodeJS.Signals): void; stderr(): string };

/** The status of one call (0: no answer, the connection failed), its body read. */
async function call(server: Server, path: string, headers: Record<string, string>): Promise<{ status: number; remaining: number | null }> {
  try {
    const response = await fetch(`${server.url}${Q}${path}`, { headers });
    await response.arrayBuffer();
    const remaining = response.headers.get("x-ratelimit-remaining");
    return { status: response.status, remaining: remaining === null ? null : Number(remaining) };
  } catch {
    return { status: 0, remaining: null };
  }
}

async function subscribe(server: Server, tag: string): Promise<{ key: string; id: string }> {
  const response = await fetch(`${server.url}${Q}/subscribe`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": "198.51.100.7" },
    body: JSON.stringify(applicant(tag)),
  });
  const body = (await response.json()) as { api_key: string; key: { id: string } };
  expect(response.status).toBe(201);
  return { key: body.api_key, id: body.key.id };
}

async function admin(server: Server, id: string, action: "confirm" | "revoke"): Promise<void> {
  const response = await fetch(`${server.url}${Q}/admin/keys/${id}/${action}`, { method: "POST", headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
}

async function usedToday(server: Server, key: string): Promise<number> {
  const response = await fetch(`${server.url}${Q}/me`, { headers: { "X-API-Key": key } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { key: { used_today: number } }).key.used_today;
}

/** `total` calls, `concurrency` at a time, call i to server i mod n; `during(done)` runs alongside once `startAfter` calls are done. */
async function load(
  servers: readonly Server[],
  key: string,
  total: number,
  concurrency: number,
  inFlight: number[] = [],
): Promise<{ status: number; remaining: number | null; server: number }[]> {
  const results: { status: number; remaining: number | null; server: number }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const s = i % servers.length;
      inFlight[s] = (inFlight[s] ?? 0) + 1;
      const result = await call(servers[s]!, "/idiom", { "X-API-Key": key });
      inFlight[s]!--;
      results.push({ ...result, server: s });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

/**
 * A server's stderr read for store outages: the lines that start one, those that end one, and the
 * lines at `error` or not JSON at all (a stack trace per call would be there).
 */
function outageLog(stderr: string): { starts: Record<string, unknown>[]; ends: Record<string, unknown>[]; others: string[] } {
  const log = { starts: [] as Record<string, unknown>[], ends: [] as Record<string, unknown>[], others: [] as string[] };
  for (const text of stderr.split("\n")) {
    if (!text.startsWith("{")) {
      if (text.trim() !== "") log.others.push(text);
      continue;
    }
    const line = JSON.parse(text) as Record<string, unknown>;
    const msg = String(line.msg);
    if (msg.startsWith("quota store unavailable:")) log.starts.push(line);
    else if (msg.startsWith("quota store answering again")) log.ends.push(line);
    else if (line.level === "error") log.others.push(text);
  }
  return log;
}

describe.skipIf(skipRedis)("four servers (Node, Node, Bun, Deno) on one Redis", () => {
  let redis: TestRedis;
  let servers: Server[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    // AOF on, as the README asks of production: a stopped and restarted Redis keeps every count.
    redis = await startRedis(["--appendonly", "yes", "--appendfsync", "always", "--requirepass", PASSWORD]);
    env = { QUOTA_STORE: "redis", REDIS_URL: `redis://:${PASSWORD}@127.0.0.1:${redis.port}/0`, REDIS_PREFIX: "multi:", ADMIN_TOKEN, TRUST_PROXY_HOPS: "1" };
    servers = await Promise.all([nodeSource(env), nodeSource(env), bunSource(env), denoSource(env)]);
  }, 180_000);
  afterAll(async () => {
    await stopAllServers();
    await removeAllRedis();
  });

  it("400 parallel demo calls from one client → exactly 30 served, in total", { timeout: 120_000 }, async () => {
    await awayFromRollover(60_000);
    const headers = { "X-Forwarded-For": "203.0.113.40" };
    const results = await Promise.all(Array.from({ length: 400 }, (_, i) => call(servers[i % 4]!, i % 2 ? "/idiom" : "/quiz", headers)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(30);
    expect(results.filter((r) => r.status === 429)).toHaveLength(370);
    expect(
      results
        .filter((r) => r.status === 200)
        .map((r) => r.remaining)
        .sort((a, b) => a! - b!),
    ).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it("300 parallel calls with a pending key → exactly 100 served; a confirmation through one instance's admin route → annual on all four", {
    timeout: 120_000,
  }, async () => {
    await awayFromRollover(60_000);
    const { key, id } = await subscribe(servers[0]!, "multi-pending");
    const results = await Promise.all(Array.from({ length: 300 }, (_, i) => call(servers[i % 4]!, "/idiom", { "X-API-Key": key })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(100);
    expect(results.filter((r) => r.status === 429)).toHaveLength(200);
    await admin(servers[3]!, id, "confirm");
    for (const server of servers) {
      const response = await fetch(`${server.url}${Q}/idiom`, { headers: { "X-API-Key": key } });
      expect(response.status).toBe(200);
      expect(response.headers.get("x-ratelimit-limit")).toBe("10000");
      await response.arrayBuffer();
    }
    await admin(servers[2]!, id, "revoke");
    for (const server of servers) expect((await call(server, "/idiom", { "X-API-Key": key })).status).toBe(403);
  });

  it("a class quiz made through one instance: 60 students over the four submit at once to a class of 40; exactly 40 stored, counted on the teacher's key within one call per other instance; results read through another", {
    timeout: 120_000,
  }, async () => {
    const teacher = await subscribe(servers[0]!, "class-teacher");
    const json = { "Content-Type": "application/json" };
    const made = await fetch(`${servers[1]!.url}${Q}/classes`, {
      method: "POST",
      headers: { ...json, "X-API-Key": teacher.key },
      body: JSON.stringify({ type: "hunum_to_hanja", count: 2, students_max: 40 }),
    });
    expect(made.status).toBe(201);
    const { code } = ((await made.json()) as { class: { code: string } }).class;
    const statuses = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const response = await fetch(`${servers[i % 4]!.url}${Q}/classes/${code}/submissions`, {
          method: "POST",
          headers: json,
          body: JSON.stringify({ name: `student ${i}`, answers: ["1", "2"] }),
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect(statuses.filter((status) => status === 201).length).toBe(40);
    expect(statuses.filter((status) => status !== 201).every((status) => status === 429)).toBe(true);
    const results = await fetch(`${servers[3]!.url}${Q}/classes/${code}/results`, { headers: { "X-API-Key": teacher.key } });
    expect(((await results.json()) as { students: unknown[] }).students.length).toBe(40);
    // One call to make it and one per stored submission; an instance that lost the race to the last place has counted its call.
    const counted = await usedToday(servers[2]!, teacher.key);
    expect(counted).toBeGreaterThanOrEqual(41);
    expect(counted).toBeLessThanOrEqual(44);
  });

  it("kill -9 of an instance under load: every 2xx a client got is exactly one count; counts exceed answers by at most the calls in flight at the kill", {
    timeout: 180_000,
  }, async () => {
    await awayFromRollover(60_000);
    const { key, id } = await subscribe(servers[1]!, "multi-kill");
    await admin(servers[0]!, id, "confirm");
    const victim = servers[2]!; // Bun
    const inFlight: number[] = [];
    let inFlightAtKill = -1;
    const running = load(servers, key, 1200, 16, inFlight);
    // Kill once the load is well under way.
    while ((await usedToday(servers[0]!, key)) < 200) await new Promise((resolve) => setTimeout(resolve, 20));
    inFlightAtKill = inFlight[2] ?? 0;
    victim.kill("SIGKILL");
    const results = await running;
    const served = results.filter((r) => r.status === 200);
    expect(results.every((r) => r.status === 200 || (r.status === 0 && r.server === 2))).toBe(true);
    // Each answer carried its own count: no two 2xx report the same remaining quota.
    expect(new Set(served.map((r) => r.remaining)).size).toBe(served.length);
    const counted = await usedToday(servers[0]!, key);
    expect(counted).toBeGreaterThanOrEqual(served.length);
    expect(counted - served.length).toBeLessThanOrEqual(inFlightAtKill);
    console.log(
      JSON.stringify({ kill: { calls: results.length, served: served.length, unanswered: results.length - served.length, counted, inFlightAtKill } }),
    );
    servers = servers.filter((server) => server !== victim);
  });

  it("Redis stopped and restarted under load: only 503s while it is down, interface A serves, every call served counted once and no other, exact counts after; each instance logs its outage in two lines", {
    timeout: 180_000,
  }, async () => {
    await awayFromRollover(60_000);
    const { key, id } = await subscribe(servers[0]!, "multi-outage");
    await admin(servers[1]!, id, "confirm");
    const results: { status: number; remaining: number | null; startedIn: string }[] = [];
    let phase: "before" | "down" | "after" = "before";
    const statusesWhileDown: number[] = [];
    const loop = async (s: number) => {
      while (phase !== "after" || results.filter((r) => r.status === 200 && r.startedIn === "after").length < 400) {
        const startedIn = phase;
        const result = await call(servers[s % servers.length]!, "/idiom", { "X-API-Key": key });
        results.push({ ...result, startedIn });
        // Calls made and answered while Redis was down (not those that straddle the stop or the restart).
        if (startedIn === "down" && phase === "down") statusesWhileDown.push(result.status);
        if (results.length > 20_000) throw new Error("the load never finished");
      }
    };
    const loops = Array.from({ length: 6 }, (_, s) => loop(s));
    while (results.filter((r) => r.status === 200).length < 200) await new Promise((resolve) => setTimeout(resolve, 10));
    await redis.stop();
    phase = "down";
    // Down until every instance has answered 503 a few times; interface A and /healthz meanwhile:
    while (statusesWhileDown.filter((status) => status === 503).length < 30) await new Promise((resolve) => setTimeout(resolve, 10));
    for (const server of servers) {
      expect((await fetch(`${server.url}/hanja/v1/meta`)).status).toBe(200);
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: "ok", store: "unavailable" });
    }
    const down = await fetch(`${servers[0]!.url}${Q}/idiom`, { headers: { "X-API-Key": key } });
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("1");
    expect(await down.json()).toMatchObject({ status: 503, code: "service_unavailable" });
    phase = "after";
    await redis.restart();
    await Promise.all(loops);
    expect(new Set(results.map((r) => r.status))).toEqual(new Set([200, 503]));
    expect(statusesWhileDown.every((status) => status === 503)).toBe(true);
    const served = results.filter((r) => r.status === 200);
    // A call Redis ran as it stopped may have lost its answer (a 503): it is undone once its
    // instance is back, so every call served is one count and nothing else is counted. Its number
    // may then be given again: each 2xx carries its own count but for at most one repeat per call
    // in flight at the stop.
    const counted = await usedToday(servers[0]!, key);
    expect(counted).toBe(served.length);
    expect(served.length - new Set(served.map((r) => r.remaining)).size).toBeLessThanOrEqual(loops.length);
    // After the restart: no count without an answer (the numbers given leave no gap).
    const after = [...new Set(served.filter((r) => r.startedIn === "after").map((r) => r.remaining!))].sort((a, b) => a - b);
    expect(after.length).toBeGreaterThanOrEqual(400 - loops.length);
    console.log(
      JSON.stringify({
        outage: {
          calls: results.length,
          served: served.length,
          unavailable: results.filter((r) => r.status === 503).length,
          counted,
          servedAfterRestart: after.length,
        },
      }),
    );
    expect(after).toEqual(Array.from({ length: after.length }, (_, i) => (after[0] as number) + i));
    expect(after[0]).toBeGreaterThanOrEqual(10_000 - counted - loops.length);
    expect(after[0]).toBeLessThanOrEqual(10_000 - counted);
    for (const server of servers) expect(await (await fetch(`${server.url}/healthz`)).json()).toMatchObject({ store: "ok" });
    // The log: each instance's outage is one warn line when it starts and one when it ends, with
    // the calls it answered 503 (together every 503 the clients got), never a line per call.
    const outageLines = () => servers.map((server) => outageLog(server.stderr()));
    const unavailable = results.filter((r) => r.status === 503).length + 1;
    await eventually(async () => outageLines().every((log) => log.ends.length === log.starts.length), "every outage's end is logged");
    for (const [i, log] of outageLines().entries()) {
      expect(log.starts.length, `instance ${i}`).toBeGreaterThanOrEqual(1);
      expect(log.others, `instance ${i}`).toEqual([]);
    }
    expect(outageLines().reduce((sum, log) => sum + log.ends.reduce((calls, end) => calls + Number(end.unavailable_calls), 0), 0)).toBe(unavailable);
  });

  it("the compiled binary and the bundle count on the same Redis as the source servers", { timeout: 180_000 }, async () => {
    await awayFromRollover(60_000);
    // The bundle runs from a folder of its own (the launchers take it from QUOTA_DB, unused by Redis).
    const folder = mkdtempSync(join(tmpdir(), "redis-shipped-"));
    const shipped = await Promise.all([
      compiledBinary({ ...env, QUOTA_DB: join(folder, "unused.sqlite") }),
      bundled("node")({ ...env, QUOTA_DB: join(folder, "unused.sqlite") }),
    ]);
    try {
      const headers = { "X-Forwarded-For": "203.0.113.77" };
      const remaining: (number | null)[] = [];
      for (const server of [...shipped, servers[0]!, ...shipped]) {
        const result = await call(server, "/idiom", headers);
        expect(result.status).toBe(200);
        remaining.push(result.remaining);
      }
      expect(remaining).toEqual([29, 28, 27, 26, 25]);
    } finally {
      await Promise.all(shipped.map((server) => server.stop()));
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("a wrong password stops start-up with status 2, naming REDIS_URL and not the password", { timeout: 60_000 }, async () => {
    const wrong = environment({ ...env, REDIS_URL: `redis://:not-the-${PASSWORD}@127.0.0.1:${redis.port}/0` });
    const { command, args } = sourceCommand("node", wrong);
    const exited = await runToExit(command, args, wrong, process.cwd());
    expect(exited.code).toBe(2);
    expect(exited.stderr).toMatch(new RegExp(`^hanja-api: invalid configuration: REDIS_URL: .*redis://127\\.0\\.0\\.1:${redis.port}/0.*WRONGPASS`, "m"));
    expect(exited.stderr + exited.stdout).not.toContain(PASSWORD);
  });

  it("QUOTA_STORE=redis without REDIS_URL stops start-up with status 2 naming REDIS_URL", { timeout: 60_000 }, async () => {
    const unset = environment({ ...env, REDIS_URL: "" });
    const { command, args } = sourceCommand("node", unset);
    const exited = await runToExit(command, args, unset, process.cwd());
    expect(exited.code).toBe(2);
    expect(exited.stderr).toMatch(/^hanja-api: invalid configuration: REDIS_URL: .*(is not set|must be set).*QUOTA_STORE=redis/m);
  });
});
