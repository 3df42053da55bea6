/** Service routes outside both interfaces: liveness, the OpenAPI document, the API reference. */
import { BODY_REVISION } from "../data/format.ts";
import type { LoadedData } from "../data/load.ts";
import type { Send } from "../http/respond.ts";
import { buildOpenApi } from "../docs/openapi.ts";
import { renderDocs } from "../docs/renderDocs.ts";
import type { Route } from "./context.ts";

export interface ServiceBases {
  hanjaBase: string;
  quizBase: string;
  /** Where the host serves the service (default `""`: its root); see `AppOptions.mountPath`. */
  mountPath?: string;
  adminEnabled: boolean;
}

export function serviceRoutes(data: LoadedData, bases: ServiceBases, sendBody: Send): Route[] {
  // Built on first request: start-up stays fast, and a server that never serves them pays nothing.
  let bodies: { openapi: string; docs: string } | undefined;
  const docs = () => {
    if (!bodies) {
      const openapi = buildOpenApi(data, bases);
      bodies = { openapi: JSON.stringify(openapi), docs: renderDocs(openapi) };
    }
    return bodies;
  };
  const etag = `${data.manifest.data_hash.slice(0, 24)}-r${BODY_REVISION}-docs`;
  return [
    {
      method: "GET",
      path: "/healthz",
      handler: (request) => sendBody(request, JSON.stringify({ status: "ok", data: data.manifest.data_hash.slice(0, 12) }), { caching: "no-store" }),
    },
    { method: "GET", path: "/openapi.json", handler: (request) => sendBody(request, docs().openapi, { caching: { etag } }) },
    { method: "GET", path: "/docs", handler: (request) => sendBody(request, docs().docs, { caching: { etag }, contentType: "text/html; charset=utf-8" }) },
  ];
}
