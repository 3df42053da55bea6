/** Serving on Bun with Bun.serve. */
import { andThen } from "../core/util/andThen.ts";
import type { Booted } from "./boot.ts";
import type { Listening } from "./listening.ts";
import { closing, respond } from "./responses.ts";

export function serveBun({ app, config }: Booted): Promise<Listening> {
  let draining = false;
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    fetch: (request, bunServer) => {
      let answer = respond(app.handle(request, new PeerOf(bunServer, request)));
      // Bun 1.4 writes no Date on an answer to HEAD (RFC 9110 §6.6.1 asks for one, and it does
      // write one for every other method): given here.
      if (request.method === "HEAD") answer = andThen(answer, dated);
      return draining ? andThen(answer, closing) : answer;
    },
  });
  // stop() without force lets in-flight requests finish; with it, every connection is closed.
  return Promise.resolve({
    port: server.port ?? config.port,
    drain: () => void (draining = true),
    stop: async () => void (await server.stop()),
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
