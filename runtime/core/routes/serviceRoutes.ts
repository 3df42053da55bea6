/** Service routes outside both interfaces: liveness, the OpenAPI document, the API reference. */
import { sha256Hex } from "../util/sha256Hex.ts";
import type { LoadedData } from "../data/load.ts";
import type { Send } from "../http/sender.ts";
import { type ServiceBases, buildOpenApi } from "../docs/openapi.ts";
import { docsPolicy, renderDocs } from "../docs/renderDocs.ts";
import type { QuotaStore } from "../quota/store.ts";
import type { Route } from "./context.ts";

/**
 * `store` is reported by `/healthz`: `ok`, or `unavailable` while a store that lives apart from the
 * process (Redis) cannot answer. The answer stays `200`: the process is alive and interface A
 * serves; only metered calls answer 503 until the store is back.
 */
export function serviceRoutes(data: LoadedData, bases: ServiceBases, sendBody: Send, store?: QuotaStore): Route[] {
  // Built on first request: start-up stays fast, and a server that never serves them pays nothing.
  // Each is tagged by a hash of its own bytes, which depend on the release and on the options
  // (bases, mount path, admin routes) as much as on the data.
  let bodies: { openapi: Tagged; docs: Tagged; policy: string } | undefined;
  const docs = () => {
    if (!bodies) {
      const openapi = buildOpenApi(data, bases);
      bodies = { openapi: tagged(JSON.stringify(openapi)), docs: tagged(renderDocs(openapi)), policy: docsPolicy() };
    }
    return bodies;
  };
  return [
    {
      method: "GET",
      path: "/healthz",
      handler: (request) => {
        const storeState = store?.health?.().ready === false ? "unavailable" : "ok";
        return sendBody(request, JSON.stringify({ status: "ok", data: data.manifest.data_hash.slice(0, 12), store: storeState }), { caching: "no-store" });
      },
    },
    { method: "GET", path: "/openapi.json", handler: (request) => sendBody(request, docs().openapi.body, { caching: { etag: docs().openapi.etag } }) },
    {
      method: "GET",
      path: "/docs",
      handler: (request) =>
        sendBody(request, docs().docs.body, {
          caching: { etag: docs().docs.etag },
          contentType: "text/html; charset=utf-8",
          headers: { "Content-Security-Policy": docs().policy },
        }),
    },
  ];
}

interface Tagged {
  body: string;
  etag: string;
}

/** A body with its strong entity tag: the first 128 bits of its SHA-256, hex. */
function tagged(body: string): Tagged {
  return { body, etag: sha256Hex(body).slice(0, 32) };
}
