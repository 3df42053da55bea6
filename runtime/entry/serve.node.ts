/** Serving on Node with node:http; the core's replies are written directly (see nodeListener.ts). */
import { createServer } from "node:http";
import { Server as NetServer } from "node:net";
import type { Socket } from "node:net";
import type { Booted } from "./boot.ts";
import type { Listening } from "./listening.ts";
import { clientErrorListener, connectListener, nodeListener } from "./nodeListener.ts";
import { parseInSlices } from "./slicedInput.ts";
import { keepOldGenerationNearLive } from "./oldGeneration.ts";
import { holdYoungGeneration } from "./youngGeneration.ts";

/** While stopping, how often connections that have gone idle since are closed. */
const IDLE_SWEEP_MS = 50;
/**
 * While stopping, how long a connection accepted before the listener closed may take to send its
 * first byte before it is closed (node:http counts such a connection as waiting for a request,
 * not idle, and nothing else would close it once the server stops checking its timeouts).
 */
export const ACCEPTED_GRACE_MS = 500;
/** net's close(): stops accepting and nothing else (node:http's also closes the idle connections). */
const netClose = NetServer.prototype.close as (this: unknown, callback: (error?: Error) => void) => void;

/**
 * How long a client may take to send a request's headers, and the whole request, before it is
 * answered 408 and disconnected; checked every second. Node's defaults (60 s and 300 s, checked
 * every 30 s) let a client that trickles bytes hold a connection for minutes. Bun closes a
 * connection idle for 10 s by default.
 */
const TIMEOUTS = { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 };

export function serveNode({ app, config }: Booted): Promise<Listening> {
  // The data is loaded: V8's young generation stays the size that gave it, and the old generation
  // is collected before it grows far past what survives (see youngGeneration.ts, oldGeneration.ts).
  holdYoungGeneration();
  keepOldGenerationNearLive();
  let closing = false;
  const listener = nodeListener(app);
  const server = createServer(TIMEOUTS, (req, res) => {
    // A request once the server stopped accepting: answer it, then end the connection.
    if (closing) res.setHeader("Connection", "close");
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
      closing = true;
      // A response already begun but not yet written gets the header too.
      for (const socket of connections) {
        const pending = (socket as { _httpMessage?: { headersSent: boolean; setHeader(name: string, value: string): void } })._httpMessage;
        if (pending && !pending.headersSent) pending.setHeader("Connection", "close");
      }
      // Stops accepting. node:http's own close() would also close every idle kept-alive
      // connection at once, cutting the request its client may be sending at that moment: each
      // gets ACCEPTED_GRACE_MS instead to send its next request, answered with Connection: close.
      netClose.call(server, (error?: Error) => {
        clearTimeout(late);
        clearInterval(sweep);
        if (error) fail(error);
        else done();
      });
      let sweep: ReturnType<typeof setInterval> | undefined;
      const late = setTimeout(() => {
        // Then the connections idle since, or still silent, are closed; those still answering
        // as they go idle (they would otherwise hold the exit until their clients hang up).
        for (const socket of connections) if (socket.bytesRead === 0) socket.destroy();
        server.closeIdleConnections();
        sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
      }, ACCEPTED_GRACE_MS);
    });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => {
      const address = server.address();
      resolve({
        port: typeof address === "object" && address ? address.port : config.port,
        // Answers go on keeping their connections open while the server still accepts: a client
        // told to close would reconnect at once, and a connection still in the listen queue when
        // the listener closes is reset by the kernel, its request cut (nearly every client of a
        // looping keep-alive pool, measured: node:http accepts one connection a turn).
        drain: () => {},
        stop,
        abort: () => server.closeAllConnections(),
      });
    });
  });
}
