/** Serving on Bun with Bun.serve. */
import type { Booted } from "./boot.ts";
import type { Listening } from "./listening.ts";
import { respond } from "./responses.ts";

export function serveBun({ app, config }: Booted): Promise<Listening> {
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    fetch: (request, bunServer) => respond(app.handle(request, new PeerOf(bunServer, request))),
  });
  // stop() without force lets in-flight requests finish; with it, every connection is closed.
  return Promise.resolve({
    port: server.port ?? config.port,
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
