/**
 * Keep-alive clients looping on one request over raw sockets, for the shutdown tests: unlike
 * `fetch`, they see exactly how each connection ended (after an answer carrying
 * `Connection: close`, refused, or closed while a request was waiting for its answer) and which
 * answers carried `Connection: close`.
 */
import { type Socket, connect } from "node:net";

/** How a keep-alive load ended, counted over every client. */
export interface KeepAliveOutcome {
  /** Whole answers with the expected status. */
  answers: number;
  /** Of those, the answers carrying `Connection: close`. */
  closing: number;
  /** Connections refused (the connection could not be made). */
  refused: number;
  /**
   * Requests cut on a new connection: it was made, the request sent, and the connection closed
   * with no byte of an answer (the server closed it before reading the request, or the kernel
   * reset it when the server stopped listening with it still in the listen queue).
   */
  resetNew: number;
  /**
   * Requests sent on a kept-alive connection that the server closed with no byte of an answer:
   * the race RFC 9112 §9.6 permits, a request crossing the close of an idle connection.
   */
  idleRaces: number;
  /** Everything else: another status, an answer cut off, a connection kept open after `Connection: close`. */
  bad: string[];
  /** Connection failures before the signal (there should be none). */
  failedBeforeSignal: number;
}

export interface KeepAliveLoad {
  url: string;
  /** The request target, e.g. `/quiz/v1/quiz`. */
  path: string;
  headers?: Record<string, string>;
  clients: number;
  /** True once the signal was sent. */
  signalled(): boolean;
  /** The loops stop (without error) once this is true. */
  done(): boolean;
  /** The status every answer must have (default 200). */
  status?: number;
  /** Each client waits a random 0 to `pauseMs` between an answer and its next request (default 0). */
  pauseMs?: number;
  /**
   * After an answer carrying `Connection: close`, a client waits for the server to close the
   * connection before it opens the next (default), or hangs up its end and reconnects at once, as
   * wrk and most HTTP clients do (`"at-once"`; that the server still closes its end within 2 s
   * is checked meanwhile).
   */
  reconnect?: "after-close" | "at-once";
}

/** Requests sent that got no answer: cut on a new connection, or on a kept-alive one as it closed. */
export function cutRequests(outcome: KeepAliveOutcome): number {
  return outcome.resetNew + outcome.idleRaces;
}

/** Runs `clients` loops of one request each over keep-alive connections until `done()` or the server refuses. */
export async function keepAliveLoad(load: KeepAliveLoad): Promise<KeepAliveOutcome> {
  const outcome: KeepAliveOutcome = { answers: 0, closing: 0, refused: 0, resetNew: 0, idleRaces: 0, bad: [], failedBeforeSignal: 0 };
  const { hostname, port } = new URL(load.url);
  const head = `GET ${load.path} HTTP/1.1\r\nHost: ${hostname}\r\n${Object.entries(load.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("")}\r\n`;
  // The checks that connections hung up at once were closed by the server too.
  const closings: Promise<void>[] = [];
  const loop = async () => {
    connections: while (!load.done()) {
      const connection = await open(Number(port), hostname);
      if (connection === null) {
        if (!load.signalled()) outcome.failedBeforeSignal++;
        outcome.refused++;
        return;
      }
      let answered = 0;
      for (;;) {
        if (load.pauseMs) await new Promise((resolve) => setTimeout(resolve, Math.random() * (load.pauseMs ?? 0)));
        if (load.done()) return void connection.socket.destroy();
        const answer = await connection.exchange(head);
        if (answer.kind === "closed") {
          if (!load.signalled()) outcome.failedBeforeSignal++;
          if (answered === 0) outcome.resetNew++;
          else outcome.idleRaces++;
          break;
        }
        if (answer.kind === "cut") {
          outcome.bad.push(`answer cut off after ${answer.bytes} bytes: ${answer.text.slice(0, 120)}`);
          break;
        }
        answered++;
        if (answer.status !== (load.status ?? 200)) outcome.bad.push(`status ${answer.status}: ${answer.body.slice(0, 160)}`);
        else outcome.answers++;
        if (answer.close) {
          outcome.closing++;
          const check = connection.closedWithin(2_000).then((closed) => {
            if (!closed) outcome.bad.push("connection still open 2 s after an answer with Connection: close");
          });
          if (load.reconnect !== "at-once") {
            await check;
            break;
          }
          // Half-closed: the server's end closing is still seen.
          connection.socket.end();
          closings.push(check.then(() => void connection.socket.destroy()));
          continue connections;
        }
      }
      connection.socket.destroy();
    }
  };
  await Promise.all(Array.from({ length: load.clients }, loop));
  await Promise.all(closings);
  return outcome;
}

type Answer = { kind: "answer"; status: number; close: boolean; body: string } | { kind: "closed" } | { kind: "cut"; bytes: number; text: string };

interface Connection {
  socket: Socket;
  /** Writes `request` and resolves with its answer, or how the connection ended without one. */
  exchange(request: string): Promise<Answer>;
  closedWithin(ms: number): Promise<boolean>;
}

/** A connected socket, or null when the connection was refused. */
function open(port: number, host: string): Promise<Connection | null> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    let buffered = Buffer.alloc(0);
    let ended = false;
    let waiting: ((answer: Answer) => void) | undefined;
    const closeWaiters: (() => void)[] = [];
    const settle = () => {
      const answer = parse(buffered);
      if (answer === null) return;
      buffered = buffered.subarray(answer.length);
      const done = waiting;
      waiting = undefined;
      done?.({ kind: "answer", status: answer.status, close: answer.close, body: answer.body });
    };
    socket.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      settle();
    });
    const end = () => {
      if (ended) return;
      ended = true;
      closeWaiters.forEach((wake) => wake());
      const done = waiting;
      waiting = undefined;
      done?.(buffered.length === 0 ? { kind: "closed" } : { kind: "cut", bytes: buffered.length, text: buffered.toString("latin1") });
    };
    socket.on("end", end);
    socket.on("close", end);
    socket.once("error", () => {
      if (!connected) resolve(null);
      end();
    });
    let connected = false;
    socket.once("connect", () => {
      connected = true;
      resolve({
        socket,
        exchange: (request) =>
          new Promise<Answer>((answer) => {
            if (ended) return answer({ kind: "closed" });
            waiting = answer;
            socket.write(request);
          }),
        closedWithin: (ms) =>
          new Promise<boolean>((closed) => {
            if (ended) return closed(true);
            const timer = setTimeout(() => closed(false), ms);
            closeWaiters.push(() => {
              clearTimeout(timer);
              closed(true);
            });
          }),
      });
    });
  });
}

/** One whole answer at the start of `bytes` (Content-Length framed), or null while it is incomplete. */
function parse(bytes: Buffer): { status: number; close: boolean; body: string; length: number } | null {
  const end = bytes.indexOf("\r\n\r\n");
  if (end === -1) return null;
  const head = bytes.subarray(0, end).toString("latin1");
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
  if (bytes.length < end + 4 + length) return null;
  const close = /\r\nconnection:\s*close/i.test(head);
  return { status, close, body: bytes.subarray(end + 4, end + 4 + length).toString("utf8"), length: end + 4 + length };
}
