/** Serving on Node through @hono/node-server, which avoids Node's slow platform Response path. */
import { serve } from "@hono/node-server";
import type { Booted } from "./boot.ts";
import type { Listening } from "./listening.ts";

/** While stopping, how often connections that have gone idle since are closed. */
const IDLE_SWEEP_MS = 50;

export function serveNode({ app, config }: Booted): Promise<Listening> {
  let stopping = false;
  return new Promise((resolve) => {
    const server = serve(
      {
        fetch: (request, env) => {
          const response = app.fetch(request, { clientAddress: "incoming" in env ? env.incoming.socket.remoteAddress : undefined });
          if (!stopping || !("outgoing" in env)) return response;
          // A request on a kept-alive connection after stop(): answer it, then end the connection.
          return response.then((answer) => {
            env.outgoing.setHeader("Connection", "close");
            return answer;
          });
        },
        port: config.port,
        hostname: config.host,
      },
      (info) =>
        resolve({
          port: info.port,
          stop: () =>
            new Promise<void>((done, fail) => {
              stopping = true;
              // close() ends the connections idle at this moment; those still answering go idle
              // later and would otherwise hold the exit until their clients hang up.
              const sweep = setInterval(() => "closeIdleConnections" in server && server.closeIdleConnections(), IDLE_SWEEP_MS);
              server.close((error) => {
                clearInterval(sweep);
                if (error) fail(error);
                else done();
              });
            }),
        }),
    );
  });
}
