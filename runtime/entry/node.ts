/** Node entry point: serves the app through @hono/node-server (fast Request/Response on Node). */
import { serve } from "@hono/node-server";
import { boot, onShutdown } from "./boot.ts";

const booted = await boot({ runtime: "node", env: process.env, argv: process.argv.slice(2) });
const { app, config } = booted;
const server = serve(
  {
    fetch: (request, env) => app.fetch(request, { clientAddress: "incoming" in env ? env.incoming.socket.remoteAddress : undefined }),
    port: config.port,
    hostname: config.host,
  },
  (info) => console.error(JSON.stringify({ level: "info", msg: "listening", url: `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${info.port}`, runtime: "node" })),
);
onShutdown(
  () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  booted,
);
