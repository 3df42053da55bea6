/** Serving on Deno with Deno.serve. */
import { andThen } from "../core/util/andThen.ts";
import type { Booted } from "./boot.ts";
import type { Listening } from "./listening.ts";
import { closing, respond } from "./responses.ts";

interface DenoServer {
  shutdown(): Promise<void>;
  /** Settles when the server stops; rejects when its accept loop failed. */
  finished: Promise<void>;
}
interface DenoServeInfo {
  remoteAddr: { hostname: string };
}
interface DenoNamespace {
  serve(
    options: { port: number; hostname: string; onListen?: (addr: { port: number }) => void },
    handler: (request: Request, info: DenoServeInfo) => Response | Promise<Response>,
  ): DenoServer;
}

/** After Deno.serve stopped accepting on a failure (out of file handles), how soon it listens again. */
const RELISTEN_MS = 250;
/** The failure is logged at most this often while a flood lasts. */
const WARN_EVERY_MS = 10_000;
/**
 * While stopping, requests are held unanswered until none has arrived for this long (every looping
 * client's next request is in), at most `HOLD_MAX_MS`; then Deno.serve stops accepting and the
 * held requests are answered with `Connection: close` (as on Bun, serve.bun.ts).
 */
const QUIET_MS = 25;
const HOLD_MAX_MS = 300;

/**
 * Deno.serve ends its accept loop at the first connection it cannot accept (EMFILE: a flood of
 * connections past the file limit) and rejects `finished`, which left unhandled exits the
 * process, interface A with it. Here the failure is logged and the server listens again on the same
 * port until it can: connections it already took go on being served, new ones are refused meanwhile,
 * and it accepts again as soon as handles free up. Deno.serve has no idle or header timeout
 * (Deno 2.9), so connections a client holds open stay open: see README for the proxy that covers it.
 */
export function serveDeno({ app, config }: Booted): Promise<Listening> {
  const deno = (globalThis as unknown as { Deno: DenoNamespace }).Deno;
  let stopped = false;
  let warnedAt = -Infinity;
  const servers = new Set<DenoServer>();
  let boundPort: number | undefined;
  // Stopping: requests wait for `released`, the moment Deno.serve has stopped accepting.
  let held: Promise<void> | undefined;
  let lastArrival = 0;
  const handler = (request: Request, info: DenoServeInfo) => {
    const answer = respond(app.handle(request, new PeerOf(info)));
    if (held === undefined) return stopped ? andThen(answer, closing) : answer;
    lastArrival = performance.now();
    return held.then(() => andThen(answer, closing));
  };
  const listen = (port: number, onListen?: (addr: { port: number }) => void): void => {
    const server = deno.serve({ port, hostname: config.host, onListen: onListen ?? (() => {}) }, handler);
    servers.add(server);
    server.finished.then(
      () => servers.delete(server),
      (error: unknown) => {
        if (stopped) return;
        if (Date.now() - warnedAt >= WARN_EVERY_MS) {
          warnedAt = Date.now();
          const message = `cannot accept connections (${String(error).split("\n")[0]}); listening again every ${RELISTEN_MS} ms until it can. Raise the file limit (ulimit -n) and close idle connections at a proxy (README)`;
          console.error(JSON.stringify({ level: "error", msg: message }));
        }
        setTimeout(() => relisten(boundPort ?? port), RELISTEN_MS);
      },
    );
  };
  const relisten = (port: number): void => {
    if (stopped) return;
    try {
      listen(port);
    } catch {
      // Still out of handles (the listening socket is one): try again.
      setTimeout(() => relisten(port), RELISTEN_MS);
    }
  };
  return new Promise((resolve) => {
    // Listening again takes the port first given (PORT=0 picks one).
    listen(config.port, ({ port }) => {
      boundPort = port;
      resolve({
        port,
        // Answers keep their connections open while Deno.serve still accepts: a client told to
        // close reconnects at once, and Deno.serve drops a connection it took (or that waits in
        // the listen queue) with no request read yet when it stops, the request cut.
        drain: () => {},
        stop: async () => {
          // Deno.serve closes every idle connection when it stops: first each looping client's
          // next request is let in and held, so that its connection is busy, not idle, then.
          let release = () => {};
          held = new Promise<void>((resolve) => (release = resolve));
          const started = (lastArrival = performance.now());
          while (performance.now() - lastArrival < QUIET_MS && performance.now() - started < HOLD_MAX_MS) {
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
          stopped = true;
          const shutdowns = Promise.all([...servers].map((server) => server.shutdown().catch(() => {})));
          release();
          held = undefined;
          await shutdowns;
        },
        abort: () => {},
      });
    });
  });
}

/** The peer address, looked up only when a route asks for it (interface B's demo quota). */
class PeerOf {
  constructor(private readonly info: DenoServeInfo) {}
  get clientAddress(): string {
    return this.info.remoteAddr.hostname;
  }
}
