/** Serving on Node through @hono/node-server, which avoids Node's slow platform Response path. */
import { serve } from "@hono/node-server";
import type { Booted } from "./boot.ts";
import type { Listening } from "./listening.ts";

export function serveNode({ app, config }: Booted): Promise<Listening> {
  return new Promise((resolve) => {
    const server = serve(
      {
        fetch: (request, env) => app.fetch(request, { clientAddress: "incoming" in env ? env.incoming.socket.remoteAddress : undefined }),
        port: config.port,
        hostname: config.host,
      },
      (info) =>
        resolve({
          port: info.port,
          stop: () => new Promise<void>((done, fail) => server.close((error) => (error ? fail(error) : done()))),
        }),
    );
  });
}
