/**
 * The Node server does not let a slow client hold a connection: one that trickles its headers is
 * answered 408 and disconnected after 10 s (Node's default would wait 60 s and check only every
 * 30 s), while other clients are served meanwhile.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ConformanceServer, nodeSource } from "./servers.ts";

const dir = mkdtempSync(join(tmpdir(), "hanja-slow-"));
let server: (ConformanceServer & { stderr(): string }) | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Sends a request line and then one header line every `everyMs`, never the blank line; resolves with what came back and when the server closed. */
function trickle(url: string, everyMs: number): Promise<{ answer: string; closedAfterMs: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let answer = "";
    let n = 0;
    const socket = connect(Number(port), hostname, () => socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n"));
    const timer = setInterval(() => socket.writable && socket.write(`X-Slow-${n++}: a\r\n`), everyMs);
    socket.on("data", (chunk) => (answer += chunk.toString("utf8")));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ answer, closedAfterMs: Date.now() - started });
    });
    setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      reject(new Error(`still connected after 25 s; got ${JSON.stringify(answer)}`));
    }, 25_000);
  });
}

describe("slow clients on the Node server", () => {
  it("a client trickling its headers gets 408 and is disconnected within about 10 s; others are served meanwhile", async () => {
    server = await nodeSource({ QUOTA_DB: join(dir, "quota.sqlite") });
    const slow = trickle(server.url, 1_000);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await fetch(`${server.url}/hanja/v1/meta`)).status).toBe(200);
    const { answer, closedAfterMs } = await slow;
    expect(answer.startsWith("HTTP/1.1 408 Request Timeout")).toBe(true);
    expect(closedAfterMs).toBeGreaterThanOrEqual(9_000);
    expect(closedAfterMs).toBeLessThan(14_000);
  }, 30_000);
});
