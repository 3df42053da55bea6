/** Serving on Node with node:http; the core's replies are written directly (see nodeListener.ts). */
import { createServer } from "node:http";
import type { Socket } from "node:net";
import type { Booted } from "./boot.ts";
import type { Listening } from "./listening.ts";
import { clientErrorListener, connectListener, nodeListener } from "./nodeListener.ts";
import { parseInSlices } from "./slicedInput.ts";

/** While stopping, how often connections that have gone idle since are closed. */
const IDLE_SWEEP_MS = 50;

/**
 * How long a client may take to send a request's headers, and the whole request, before it is
 * answered 408 and disconnected; checked every second. Node's defaults (60 s and 300 s, checked
 * every 30 s) let a client that trickles bytes hold a connection for minutes. Bun closes a
 * connection idle for 10 s by default.
 */
const TIMEOUTS = { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 };

export function serveNode({ app, config }: Booted): Promise<Listening> {
  let draining = false;
  const listener = nodeListener(app);
  const server = createServer(TIMEOUTS, (req, res) => {
    // A request after the signal: answer it, then end the connection.
    if (draining) res.setHeader("Connection", "close");
    listener(req, res);
  });
  server.on("clientError", clientErrorListener(app));
  server.on("connect", connectListener(app));
  // Connections are tracked (once each, not per request) so that stop() can end those that never
  // sent a byte: node:http counts them as waiting for a request, not idle, and close() also ends
  // its checks of the header and request timeouts, so nothing else would ever close them.
  const connections = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    parseInSlices(socket);
    connections.add(socket);
    socket.once("close", () => connections.delete(socket));
  });
  const stop = () =>
    new Promise<void>((done, fail) => {
      // close() ends the connections idle at this moment; those still answering go idle later
      // and would otherwise hold the exit until their clients hang up.
      const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
      server.close((error) => {
        clearInterval(sweep);
        if (error) fail(error);
        else done();
      });
      for (const socket of connections) if (socket.bytesRead === 0) socket.destroy();
    });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => {
      const address = server.address();
      resolve({
        port: typeof address === "object" && address ? address.port : config.port,
        drain: () => {
          draining = true;
          // A response already begun but not yet written gets the header too.
          for (const socket of connections) {
            const pending = (socket as { _httpMessage?: { headersSent: boolean; setHeader(name: string, value: string): void } })._httpMessage;
            if (pending && !pending.headersSent) pending.setHeader("Connection", "close");
          }
        },
        stop,
        abort: () => server.closeAllConnections(),
      });
    });
  });
}
