/**
 * Graceful shutdown (SPEC §6) on real processes: under a load of concurrent metered requests with
 * an annual key, SIGTERM or SIGINT makes the server stop accepting, answer what it took in, close
 * the SQLite store and exit 0. Every answer received is a whole 200, every failure is a refused
 * or reset connection without an answer, and the count on disk equals the 200s received.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { type Socket, connect } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { quotaDay } from "../../runtime/core/quota/clock.ts";
import { openQuotaStore } from "../../runtime/stores/index.ts";
import { awayFromRollover, send } from "./client.ts";
import { type StartServer, bunSource, denoSource, nodeSource } from "./servers.ts";

const ADMIN_TOKEN = "shutdown-admin-token-0123456789";
const LOOPS = 50;
/** Load before the signal, and the longest the load goes on after it. */
const BEFORE_SIGNAL_MS = 500;
const AFTER_SIGNAL_MS = 1_500;
/** The server must be gone well before the clients give up: it does not wait for them to hang up. */
const EXIT_WITHIN_MS = 1_000;
/** How a request fails when the server is gone: refused, reset, or closed with no answer. */
const CONNECTION_ERRORS = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]);

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

interface LoadResult {
  ok: number;
  /** Statuses other than 200, bodies that were cut off or not JSON, errors of any other kind. */
  bad: string[];
  /** Connection errors, each with whether it happened before the signal. */
  refused: { code: string; beforeSignal: boolean }[];
}

/** The code of a failed `fetch` (undici wraps the socket error in `cause`). */
function errorCode(error: unknown): string {
  const cause = (error as { cause?: { code?: string; cause?: { code?: string } } }).cause;
  return cause?.code ?? cause?.cause?.code ?? String((error as Error).message ?? error);
}

/** `LOOPS` loops of GET `url` until `until()`; each loop stops at its first connection error. */
async function load(url: string, key: string, until: () => boolean, signalled: () => boolean): Promise<LoadResult> {
  const result: LoadResult = { ok: 0, bad: [], refused: [] };
  const loop = async () => {
    while (!until()) {
      let response: Response;
      try {
        response = await fetch(url, { headers: { "X-API-Key": key, "Accept-Encoding": "identity" } });
      } catch (error) {
        const code = errorCode(error);
        if (CONNECTION_ERRORS.has(code)) result.refused.push({ code, beforeSignal: !signalled() });
        else result.bad.push(`fetch failed: ${code}`);
        return;
      }
      try {
        const text = await response.text();
        const body = JSON.parse(text) as { success?: boolean; quiz?: unknown };
        if (response.status !== 200) result.bad.push(`status ${response.status}: ${text.slice(0, 200)}`);
        else if (body.success !== true || body.quiz === undefined) result.bad.push(`unexpected body: ${text.slice(0, 200)}`);
        else result.ok++;
      } catch (error) {
        result.bad.push(`status ${response.status}, body cut off or not JSON: ${errorCode(error)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: LOOPS }, loop));
  return result;
}

async function annualKey(url: string): Promise<{ key: string; id: string }> {
  const issued = await send(url, "/quiz/v1/subscribe", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Shutdown", email: "shutdown@example.com" }),
  });
  expect(issued.status, issued.text).toBe(201);
  const id = issued.body.key.id as string;
  const confirmed = await send(url, `/quiz/v1/admin/keys/${id}/confirm`, { method: "POST", headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(confirmed.body.key, confirmed.text).toMatchObject({ plan: "annual", status: "active" });
  return { key: issued.body.api_key as string, id };
}

/** A new database path in a folder removed after the tests. */
function newDb(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return join(dir, "quota.sqlite");
}

/** The store was closed cleanly: the WAL was checkpointed into the database and removed (or left empty). */
function expectCheckpointed(db: string): void {
  expect(!existsSync(`${db}-wal`) || statSync(`${db}-wal`).size === 0, "the -wal file was not checkpointed").toBe(true);
}

async function shutdownUnderLoad(start: StartServer, signal: "SIGTERM" | "SIGINT"): Promise<void> {
  const db = newDb("hanja-shutdown-");
  const server = await start({ QUOTA_DB: db, ADMIN_TOKEN });
  try {
    const { key, id } = await annualKey(server.url);
    await awayFromRollover(60_000);

    let signalledAt = 0;
    const loadDone = load(`${server.url}/quiz/v1/quiz`, key, () => signalledAt > 0 && Date.now() > signalledAt + AFTER_SIGNAL_MS, () => signalledAt > 0);
    await new Promise((resolve) => setTimeout(resolve, BEFORE_SIGNAL_MS));
    signalledAt = Date.now();
    server.kill(signal);
    const [result, code] = await Promise.all([loadDone, server.exit]);
    const exitMs = Date.now() - signalledAt;

    expect(code, server.stderr()).toBe(0);
    expect(result.bad).toEqual([]);
    expect(result.refused.filter((r) => r.beforeSignal)).toEqual([]);
    expect(result.ok).toBeGreaterThan(LOOPS); // the load really ran
    expect(exitMs, "exit waited for the clients to close their connections").toBeLessThan(EXIT_WITHIN_MS);

    expectCheckpointed(db);
    const store = await openQuotaStore({ kind: "sqlite", path: db });
    try {
      expect(await store.used(`key:${id}`, quotaDay(new Date(), 540).day)).toBe(result.ok);
    } finally {
      await store.close();
    }
  } finally {
    await server.stop();
  }
}

/** One raw HTTP/1.1 exchange: what the server sent back, and how the connection ended. */
interface RawExchange {
  socket: Socket;
  received: string;
  ended: Promise<void>;
}

function connectRaw(url: string): RawExchange {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const exchange: RawExchange = { socket, received: "", ended: Promise.resolve() };
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => (exchange.received += chunk));
  socket.on("error", () => {});
  exchange.ended = new Promise((resolve) => socket.on("close", () => resolve()));
  return exchange;
}

const rawGet = (path: string) => `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`;

/**
 * Requests that reached the server while it was busy (the first full-text search loads its index)
 * and just before the signal: on new connections still in the listen queue, and on connections
 * already open whose request bytes were not read yet. Each gets its whole answer.
 */
async function busyAtSignal(start: StartServer): Promise<void> {
  const server = await start({ QUOTA_DB: newDb("hanja-shutdown-busy-") });
  try {
    const open = Array.from({ length: 6 }, () => connectRaw(server.url));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const busy = connectRaw(server.url);
    busy.socket.write(rawGet("/hanja/v1/hanja?q=water&per_page=50"));
    await new Promise((resolve) => setTimeout(resolve, 15));
    const queued = Array.from({ length: 6 }, () => connectRaw(server.url));
    [...open, ...queued].forEach((exchange, i) => exchange.socket.write(rawGet(`/quiz/v1/idiom/${i + 1}`)));
    await new Promise((resolve) => setTimeout(resolve, 10));
    server.kill("SIGTERM");
    expect(await server.exit, server.stderr()).toBe(0);
    const all = [busy, ...open, ...queued];
    await Promise.all(all.map((exchange) => exchange.ended));
    for (const [i, exchange] of all.entries()) {
      expect(exchange.received.slice(0, 15), `request ${i}: ${exchange.received.slice(0, 80) || "closed without an answer"}`).toBe("HTTP/1.1 200 OK");
      const body = exchange.received.slice(exchange.received.indexOf("\r\n\r\n") + 4);
      expect(() => JSON.parse(body), `request ${i}: a whole body`).not.toThrow();
    }
  } finally {
    await server.stop();
  }
}

/** The shutdown timeout of the tests below, in seconds. */
const TIMEOUT_S = 2;

/**
 * A connection that never sends a byte (a browser's pre-connect, a pool's spare) holds no request:
 * Node and Deno close it at the signal; Bun closes it after its idle timeout or SHUTDOWN_TIMEOUT,
 * whichever comes first. Either way the server exits 0 with its store closed.
 */
async function silentConnection(start: StartServer, name: string): Promise<void> {
  const db = newDb("hanja-shutdown-silent-");
  const server = await start({ QUOTA_DB: db, SHUTDOWN_TIMEOUT: String(TIMEOUT_S) });
  try {
    const silent = connectRaw(server.url);
    const answered = await send(server.url, "/quiz/v1/idiom/1");
    expect(answered.status).toBe(200);
    const signalledAt = Date.now();
    server.kill("SIGTERM");
    expect(await server.exit, server.stderr()).toBe(0);
    const exitMs = Date.now() - signalledAt;
    expect(silent.received).toBe("");
    expect(exitMs).toBeLessThan(name.startsWith("Bun") ? TIMEOUT_S * 1000 + 1_500 : 1_500);
    expectCheckpointed(db);
  } finally {
    await server.stop();
  }
}

/**
 * A client that trickles its request (its header section, or a POST body) after the signal: the
 * server waits SHUTDOWN_TIMEOUT for it, then closes the connection, says so on stderr, closes the
 * store and exits 0, instead of waiting as long as the client keeps sending. Deno.serve does not
 * count a request whose header section has not all arrived as in flight: it closes that connection
 * at once.
 */
async function tricklingClient(start: StartServer, name: string, what: "headers" | "body"): Promise<void> {
  const db = newDb("hanja-shutdown-trickle-");
  const server = await start({ QUOTA_DB: db, SHUTDOWN_TIMEOUT: String(TIMEOUT_S) });
  let drip: ReturnType<typeof setInterval> | undefined;
  try {
    const slow = connectRaw(server.url);
    if (what === "headers") {
      slow.socket.write("GET /hanja/v1/meta HTTP/1.1\r\nHost: localhost\r\n");
      drip = setInterval(() => slow.socket.write("X-Slow: 1\r\n"), 200);
    } else {
      slow.socket.write("POST /quiz/v1/subscribe HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{");
      drip = setInterval(() => slow.socket.write(" "), 200);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalledAt = Date.now();
    server.kill("SIGTERM");
    expect(await server.exit, server.stderr()).toBe(0);
    const exitMs = Date.now() - signalledAt;
    const warning = `connections still open after ${TIMEOUT_S} s (SHUTDOWN_TIMEOUT) are closed`;
    if (name.startsWith("Deno") && what === "headers") {
      expect(exitMs).toBeLessThan(1_500);
      expect(server.stderr()).not.toContain(warning);
    } else {
      expect(exitMs, "the server exited before SHUTDOWN_TIMEOUT").toBeGreaterThanOrEqual(TIMEOUT_S * 1000 - 100);
      expect(exitMs, "the server waited on the client past SHUTDOWN_TIMEOUT").toBeLessThan(TIMEOUT_S * 1000 + 1_500);
      expect(server.stderr()).toContain(warning);
    }
    expectCheckpointed(db);
  } finally {
    clearInterval(drip);
    await server.stop();
  }
}

const runtimes: [string, StartServer][] = [
  ["Node entry", nodeSource],
  ["Bun entry", bunSource],
  ["Deno entry", denoSource],
];

for (const [name, start] of runtimes) {
  describe(`graceful shutdown: ${name}`, () => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      it(`${signal} under load: exit 0, whole 200s only, no count lost`, { timeout: 60_000 }, () => shutdownUnderLoad(start, signal));
    }
    it("requests that arrived while the server was busy, just before SIGTERM, are answered", { timeout: 60_000 }, () => busyAtSignal(start));
    it("a connection that never sends a byte does not hold the exit", { timeout: 30_000 }, () => silentConnection(start, name));
    it("a client trickling its header section is cut off after SHUTDOWN_TIMEOUT", { timeout: 30_000 }, () => tricklingClient(start, name, "headers"));
    it("a client trickling a POST body is cut off after SHUTDOWN_TIMEOUT", { timeout: 30_000 }, () => tricklingClient(start, name, "body"));
  });
}
