/**
 * Graceful shutdown (docs/rules.md "Headers") on real processes, at its edges: requests that arrived while the
 * server was busy, connections that never send a byte, clients that trickle their request. The
 * load test (keep-alive clients looping through the signal) is shutdownLoad.test.ts.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { type Socket, connect } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { send } from "./client.ts";
import { type StartServer, bunSource, denoSource, nodeSource } from "./servers.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

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
    it("requests that arrived while the server was busy, just before SIGTERM, are answered", { timeout: 60_000 }, () => busyAtSignal(start));
    it("a connection that never sends a byte does not hold the exit", { timeout: 30_000 }, () => silentConnection(start, name));
    it("a client trickling its header section is cut off after SHUTDOWN_TIMEOUT", { timeout: 30_000 }, () => tricklingClient(start, name, "headers"));
    it("a client trickling a POST body is cut off after SHUTDOWN_TIMEOUT", { timeout: 30_000 }, () => tricklingClient(start, name, "body"));
  });
}
