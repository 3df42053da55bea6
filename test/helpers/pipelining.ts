/**
 * Clients that pipeline requests and never read the answers, and what the tests and the probe
 * measure while they hold on: the server's resident memory and how long another client waits.
 */
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { type Socket, connect } from "node:net";

/** Large answers: the OpenAPI document, 50-row searches, 20-question demo quizzes. */
export const LARGE_ANSWERS = ["/openapi.json", `/hanja/v1/hanja?q=${encodeURIComponent("水")}&per_page=50`, "/quiz/v1/quiz?count=20"];

/** A flood of pipelining connections; `release` closes them all. */
export interface Flood {
  /** Connections the server closed. */
  closedByServer(): number;
  release(): void;
}

/**
 * Opens `connections` connections to `port` on 127.0.0.1, each writing `pipelined` GETs of
 * `paths` (taken in turn) at once, or the bytes `requests` when given; none of them reads an answer.
 */
export function flood(port: number, connections: number, pipelined: number, paths: readonly string[] = LARGE_ANSWERS, bytes?: Buffer): Flood {
  const requests =
    bytes ?? Buffer.from(Array.from({ length: pipelined }, (_, i) => `GET ${paths[i % paths.length]} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`).join(""));
  let closed = 0;
  let released = false;
  const sockets: Socket[] = Array.from({ length: connections }, () => {
    const socket = connect(port, "127.0.0.1", () => socket.write(requests));
    // Never reading: the socket stays paused, so the kernel's buffers fill and the server's writes back up.
    socket.pause();
    socket.on("error", () => {});
    socket.on("close", () => void (released || closed++));
    return socket;
  });
  return {
    closedByServer: () => closed,
    release: () => {
      released = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** How long a GET of `/healthz` on a new connection takes, in ms; Infinity when it fails or takes longer than `timeoutMs`. */
export function probeLatency(url: string, timeoutMs: number): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(`${url}/healthz`, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode === 200 ? performance.now() - started : Number.POSITIVE_INFINITY));
      res.on("error", () => resolve(Number.POSITIVE_INFINITY));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(Number.POSITIVE_INFINITY));
    req.end();
  });
}

/** A process's resident memory in KiB (Linux), 0 once it is gone. */
export function rssOf(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}
