/** Serving on Bun with Bun.serve. */
import type { Booted } from "./boot.ts";
import type { Listening } from "./listening.ts";
import { respond } from "./responses.ts";

export function serveBun({ app, config }: Booted): Promise<Listening> {
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    // The peer address is looked up only when a route asks for it (interface B's demo quota).
    fetch: (request, bunServer) =>
      respond(
        app.handle(request, {
          get clientAddress() {
            return bunServer.requestIP(request)?.address;
          },
        }),
      ),
  });
  // stop() without force lets in-flight requests finish.
  return Promise.resolve({ port: server.port ?? config.port, stop: async () => void (await server.stop()) });
}
