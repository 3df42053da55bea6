/** Serving on Bun with Bun.serve. */
import { andThen } from "../core/util/andThen.ts";
import type { Booted } from "./boot.ts";
import type { Listening } from "./listening.ts";
import { closing, respond } from "./responses.ts";

/**
 * While stopping, requests are held unanswered until none has arrived for this long (every looping
 * client's next request is in), at most `HOLD_MAX_MS`; then Bun stops accepting and the held
 * requests are answered with `Connection: close`.
 */
const QUIET_MS = 25;
const HOLD_MAX_MS = 300;

export function serveBun({ app, config }: Booted): Promise<Listening> {
  let draining = false;
  // Stopping: requests wait for `released`, the moment Bun has stopped accepting.
  let held: Promise<void> | undefined;
  let lastArrival = 0;
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    fetch: (request, bunServer) => {
      let answer = respond(app.handle(request, new PeerOf(bunServer, request)));
      // Bun 1.4 writes no Date on an answer to HEAD (RFC 9110 §6.6.1 asks for one, and it does
      // write one for every other method): given here.
      if (request.method === "HEAD") answer = andThen(answer, dated);
      if (held === undefined) return draining ? andThen(answer, closing) : answer;
      lastArrival = performance.now();
      return held.then(() => andThen(answer, closing));
    },
  });
  // stop() without force lets in-flight requests finish and closes idle connections at once, a
  // request its client is sending at that moment cut with them; with force, every connection.
  return Promise.resolve({
    port: server.port ?? config.port,
    // Answers keep their connections open while Bun still accepts: a client told to close would
    // reconnect at once, and a connection still in the listen queue when Bun stops is reset.
    drain: () => {},
    stop: async () => {
      draining = true;
      // Bun closes every idle connection when it stops: first each looping client's next request
      // is let in and held, so that its connection is busy, not idle, at that moment.
      let release = () => {};
      held = new Promise<void>((resolve) => (release = resolve));
      const started = (lastArrival = performance.now());
      while (performance.now() - lastArrival < QUIET_MS && performance.now() - started < HOLD_MAX_MS) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const stopped = server.stop();
      release();
      await stopped;
      // stop() may settle before the held answers are written (seen once in five): wait for them.
      while (server.pendingRequests > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    },
    abort: () => void server.stop(true),
  });
}

/** The peer address, looked up only when a route asks for it (interface B's demo quota). */
class PeerOf {
  constructor(
    private readonly server: { requestIP(request: Request): { address: string } | null },
    private readonly request: Request,
  ) {}
  get clientAddress(): string | undefined {
    return this.server.requestIP(this.request)?.address;
  }
}

/** `response` with a Date of now (a clone's headers are its own). */
function dated(response: Response): Response {
  response.headers.set("Date", new Date().toUTCString());
  return response;
}
