/**
 * No client can stop or starve a server: with the file limit lowered to 256 (`prlimit`), a flood of
 * idle connections, and one of connections trickling a header section, on each runtime. The
 * server keeps running; what it cannot take is refused, closed or left waiting in the listen
 * queue (Bun); once the flood lets go it answers again within a second. Node and Bun close idle and slow connections themselves; Deno.serve
 * cannot (see README), so there the flood holds its connections until it lets go.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { type Socket, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { spawnServer } from "../helpers/server.ts";
import { environment, sourceCommand } from "./servers.ts";

/** The lowered file limit, and a flood well past it. */
const NOFILE = 256;
const FLOOD = 400;
/** How long the flood holds its connections. */
const HOLD_MS = 3_000;

const dir = mkdtempSync(join(tmpdir(), "hanja-exhaustion-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Opens `count` connections; `slow` ones send a request line and then one header line a second, never the end. */
function flood(port: number, count: number, slow: boolean): { sockets: Socket[]; closedByServer(): number; release(): void } {
  let closed = 0;
  const timers: ReturnType<typeof setInterval>[] = [];
  const sockets = Array.from({ length: count }, () => {
    const socket = connect(port, "127.0.0.1");
    socket.on("error", () => {});
    socket.on("close", () => closed++);
    if (slow) {
      socket.on("connect", () => {
        socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n");
        timers.push(setInterval(() => socket.writable && socket.write("X-Slow: 1\r\n"), 1_000));
      });
    }
    return socket;
  });
  return {
    sockets,
    closedByServer: () => closed,
    release: () => {
      timers.forEach(clearInterval);
      sockets.forEach((socket) => socket.destroy());
    },
  };
}

/** GET /healthz on a new connection, retried until `withinMs`; resolves with the milliseconds it took to get a 200, or null. */
async function healthyWithin(url: string, withinMs: number): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(500) });
      if (response.status === 200) return Date.now() - started;
    } catch {
      // refused or timed out while the flood holds the handles
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return null;
}

for (const runtime of ["node", "bun", "deno"] as const) {
  describe(`connection floods under a file limit of ${NOFILE}: ${runtime}`, () => {
    for (const kind of ["idle", "slow"] as const) {
      it(`${FLOOD} ${kind} connections: the server keeps running and answers again once they let go`, { timeout: 60_000 }, async () => {
        const env = environment({ QUOTA_DB: join(dir, `${runtime}-${kind}.sqlite`) });
        const command = sourceCommand(runtime, env);
        const server = await spawnServer({ command: "prlimit", args: [`--nofile=${NOFILE}`, command.command, ...command.args], env });
        let exitCode: number | null | undefined;
        void server.exit.then((code) => (exitCode = code));
        try {
          const { port } = new URL(server.url);
          const connections = flood(Number(port), FLOOD, kind === "slow");
          await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
          const closedDuringFlood = connections.closedByServer();
          connections.release();
          const recoveredMs = await healthyWithin(server.url, 5_000);
          console.log(
            `${runtime}, ${FLOOD} ${kind} connections at ${NOFILE} files: ${closedDuringFlood} closed or refused by the server within ${HOLD_MS} ms; healthy again ${recoveredMs} ms after the flood let go`,
          );
          expect(exitCode, server.stderr()).toBeUndefined();
          expect(recoveredMs, server.stderr()).not.toBeNull();
          expect(recoveredMs).toBeLessThan(1_500);
          // Still serving metered calls, and the store still works.
          expect((await fetch(`${server.url}/quiz/v1/idiom/1`)).status).toBe(200);
        } finally {
          expect(await server.stop(), server.stderr()).toBe(0);
        }
      });
    }
  });
}
