/**
 * Embedding the service in a Hono application: the host keeps its own routes and mounts the
 * whole service under `/lexicon` (`/lexicon/hanja/v1/hanja/水`, `/lexicon/quiz/v1/quiz`,
 * `/lexicon/docs`, …), served on Node by @hono/node-server.
 *
 *   npm run build && npx tsx examples/embed-hono.ts     # PORT (3000) and HOST (127.0.0.1)
 *
 * Why prefix stripping rather than `hanjaBase`/`quizBase`: the service keeps its own root, so
 * everything it serves (both interfaces and its /docs, /openapi.json, /healthz) moves under the
 * prefix together and nothing lands in the host's namespace. The base options move only the two
 * interfaces inside the service's root (to drop `/v1`, say); set to `/lexicon/hanja/v1` they would
 * leave /docs, /openapi.json and /healthz at the host's root, where they collide with its routes.
 * The service cannot see the prefix it is mounted under, so `mountPath` tells it: the links it
 * writes (a problem's `type` `/lexicon/docs#error-…`, the OpenAPI `servers` entry, the /docs
 * page's link to the OpenAPI document, the terms URL in /meta) then point inside the mount.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type HttpBindings, serve } from "@hono/node-server";
import { type Context, Hono } from "hono";
import { mount } from "hono/mount";
import { type App, type DistFiles, MemoryQuotaStore, type QuotaStore, createApp } from "hanja-api";
import { clientErrorListener, loadDistFiles } from "hanja-api/node";
import { page } from "hanja-api/page";
import { openQuotaStore } from "hanja-api/stores";

/** Where the service appears in the host's URL space. */
export const PREFIX = "/lexicon";

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

/** The host application: its own routes beside the mounted service. */
export function hostApp(hanja: App): Hono<{ Bindings: HttpBindings }> {
  const app = new Hono<{ Bindings: HttpBindings }>();
  app.get("/", (c) => c.text(`Host home page. The Hanja API is under ${PREFIX}/ (reference: ${PREFIX}/docs).\n`));
  // The host's own health check; the service's is ${PREFIX}/healthz.
  app.get("/healthz", (c) => c.json({ host: "ok" }));
  // The service counts its demo quota against the TCP peer's address (it reads X-Forwarded-For
  // only when trustProxyHops says so).
  const peer = (c: Context<{ Bindings: HttpBindings }>) => ({ clientAddress: c.env.incoming.socket.remoteAddress });
  // `mount` copies each request into a new Web `Request`, which cannot carry TRACE (the platform
  // refuses the method). The service takes that one through `handle`, which needs only a method,
  // a URL and headers, and answers it 405 like any method it does not serve.
  app.on("TRACE", `${PREFIX}/*`, async (c) => {
    const url = new URL(c.req.url);
    url.pathname = url.pathname.slice(PREFIX.length) || "/";
    const reply = await hanja.handle({ method: "TRACE", url: url.href, headers: c.req.raw.headers }, peer(c));
    return new Response(reply.body, { status: reply.status, headers: reply.headers });
  });
  // `mount` strips the prefix and hands every other request to the service.
  app.all(`${PREFIX}/*`, mount(hanja.fetch, peer));
  return app;
}

/** Starts the host with the service mounted; `port` 0 picks a free port. */
export async function start(port: number, options: StartOptions = {}): Promise<Running> {
  const hanja = createApp({
    dist: options.dist ?? loadDistFiles(fileURLToPath(new URL("../dist", import.meta.url))),
    store: options.store ?? new MemoryQuotaStore(),
    mountPath: PREFIX,
    // The page for people at the prefix's root (`/api/` to a browser); leave it out to serve the API alone.
    page,
  });
  const app = hostApp(hanja);
  const host = options.host ?? "127.0.0.1";
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, (info) =>
      resolve({
        url: `http://${host}:${info.port}`,
        port: info.port,
        hanja,
        close: () => new Promise<void>((done, fail) => server.close((error) => (error ? fail(error) : done()))).then(() => hanja.close()),
      }),
    );
    // A request node:http cannot parse (raw UTF-8 in the query, say) never reaches Hono; this
    // answers it with the service's problem details instead of Node's bare 400.
    server.on("clientError", clientErrorListener(hanja));
  });
}

// `npx tsx examples/embed-hono.ts`: serve with the durable SQLite store (./.data/quota.sqlite).
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const store = await openQuotaStore({ kind: "sqlite" });
  const running = await start(Number(process.env.PORT ?? 3000), { host: process.env.HOST, store });
  console.log(`host on ${running.url}/, the service under ${running.url}${PREFIX}/`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void running.close().then(() => process.exit(0)));
}
