/**
 * Embedding the service in a plain `node:http` server: requests under `/api/` go to the service
 * (`/api/hanja/v1/hanja/水`, `/api/quiz/v1/quiz`, `/api/docs`, …), the rest to the host's own
 * routes. The service's side is `nodeListener` from `hanja-api/node`: it reads the
 * `IncomingMessage` (request body streamed, not buffered), passes the socket's peer address as
 * `clientAddress`, and writes the reply.
 *
 *   npm run build && npx tsx examples/embed-node-http.ts     # PORT (3000) and HOST (127.0.0.1)
 *
 * The prefix is stripped before the service sees the request rather than passed as
 * `hanjaBase`/`quizBase`, so the whole service (its /docs, /openapi.json and /healthz too) moves
 * under `/api` and nothing lands in the host's namespace; `mountPath` puts the prefix into the
 * links the service writes. See examples/embed-hono.ts for the longer reasoning.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type App, type DistFiles, MemoryQuotaStore, type QuotaStore, createApp } from "hanja-api";
import { clientErrorListener, loadDistFiles, nodeListener } from "hanja-api/node";
import { page } from "hanja-api/page";
import { openQuotaStore } from "hanja-api/stores";

/** Where the service appears in the host's URL space. */
export const PREFIX = "/api";

/** What `start` accepts; every field is optional. */
export interface StartOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** The built data. Default: read from the project's `dist/`. */
  dist?: DistFiles;
  /** Keys and counters. Default: a `MemoryQuotaStore` (use `openQuotaStore` for SQLite). */
  store?: QuotaStore;
}

/** A running example server. */
export interface Running {
  /** `http://host:port`, without the prefix. */
  url: string;
  port: number;
  /** The embedded service. */
  hanja: App;
  /** Stops listening, then releases the service's store. */
  close(): Promise<void>;
}

/** The host's request listener: the service under `PREFIX`, its own routes elsewhere. */
export function hostHandler(hanja: App): (req: IncomingMessage, res: ServerResponse) => void {
  const service = nodeListener(hanja);
  return (req, res) => {
    const url = requestUrl(req);
    if (!url) return sendText(res, 400, "Bad request target\n");
    if (url.pathname === PREFIX || url.pathname.startsWith(`${PREFIX}/`)) {
      // The service sees its own paths: the prefix is taken off the (dot-segment resolved) target.
      req.url = (url.pathname.slice(PREFIX.length) || "/") + url.search;
      return service(req, res);
    }
    if (req.method === "GET" && url.pathname === "/")
      return sendText(res, 200, `Host home page. The Hanja API is under ${PREFIX}/ (reference: ${PREFIX}/docs).\n`);
    // The host's own health check; the service's is /api/healthz.
    if (req.method === "GET" && url.pathname === "/healthz") return sendJson(res, 200, { host: "ok" });
    sendText(res, 404, "Not found\n");
  };
}

/**
 * The request's URL, dot segments resolved (so `/api/../x` is the host's `/x`). Only origin-form
 * targets (`/path?query`) are served; the Host header is used only when it is a plain host[:port].
 */
function requestUrl(req: IncomingMessage): URL | null {
  const target = req.url ?? "/";
  if (!target.startsWith("/")) return null;
  const host = /^(?:[\w.-]+|\[[\da-f:.]+\])(?::\d{1,5})?$/i.test(req.headers.host ?? "") ? req.headers.host : "localhost";
  try {
    return new URL(`http://${host}${target}`);
  } catch {
    return null;
  }
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8" }).end(text);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
}

/** Starts the host with the service under `PREFIX`; `port` 0 picks a free port. */
export async function start(port: number, options: StartOptions = {}): Promise<Running> {
  const hanja = createApp({
    dist: options.dist ?? loadDistFiles(fileURLToPath(new URL("../dist", import.meta.url))),
    store: options.store ?? new MemoryQuotaStore(),
    mountPath: PREFIX,
    // The page for people at the prefix's root (`/api/` to a browser); leave it out to serve the API alone.
    page,
  });
  const host = options.host ?? "127.0.0.1";
  const server: Server = createServer(hostHandler(hanja));
  // A request node:http cannot parse (raw UTF-8 in the query, say) never reaches a listener; this
  // answers it with the service's problem details instead of Node's bare 400.
  server.on("clientError", clientErrorListener(hanja));
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(port, host, () => done());
  });
  const address = server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  return {
    url: `http://${host}:${actualPort}`,
    port: actualPort,
    hanja,
    close: () => new Promise<void>((done, fail) => server.close((error) => (error ? fail(error) : done()))).then(() => hanja.close()),
  };
}

// `npx tsx examples/embed-node-http.ts`: serve with the durable SQLite store (./.data/quota.sqlite).
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const store = await openQuotaStore({ kind: "sqlite" });
  const running = await start(Number(process.env.PORT ?? 3000), { host: process.env.HOST, store });
  console.log(`host on ${running.url}/, the service under ${running.url}${PREFIX}/`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void running.close().then(() => process.exit(0)));
}
