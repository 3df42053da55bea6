/** The service's own operations at its root, outside both interfaces: liveness, the OpenAPI document, the API reference. */
import { buildOpenApi } from "../docs/openapi.ts";
import { docsPolicy, renderDocs } from "../docs/renderDocs.ts";
import { CACHED, headers, ok, shared } from "../docs/responses.ts";
import type { Operation as DocOperation } from "../docs/types.ts";
import { sha256Hex } from "../util/sha256Hex.ts";
import { type Interface, type OperationDoc, defineOperation } from "./operation.ts";

/** The reference text of a service operation: its tag, no credentials, GET and HEAD only. */
function doc(fields: Omit<OperationDoc, "tags" | "security" | "pathNote">): OperationDoc {
  return { ...fields, tags: ["Service"], security: [{}], pathNote: "Also answers `HEAD`." };
}

/** A cacheable document's responses. */
const cached = (description: string, contentType: string, schema: Record<string, unknown>): DocOperation["responses"] => ({
  "200": { description, headers: headers(CACHED), content: { [contentType]: { schema } } },
  "304": shared("NotModified"),
  "500": shared("InternalError"),
});

/**
 * `/healthz` reports `store`: `ok`, or `unavailable` while a store that lives apart from the
 * process (Redis) cannot answer. The answer stays `200`: the process is alive and interface A
 * serves; only metered calls answer 503 until the store is back.
 */
export const serviceInterface: Interface = ({ bases, data, services, reference }) => {
  // Built on first request: start-up stays fast, and a server that never serves them pays nothing.
  // Each is tagged by a hash of its own bytes, which depend on the release and on the options
  // (bases, mount path, admin routes) as much as on the data.
  let bodies: { openapi: Tagged; docs: Tagged; policy: string } | undefined;
  const docs = () => {
    if (!bodies) {
      const { operations, parameters } = reference();
      const openapi = buildOpenApi(data, bases, operations, parameters);
      bodies = { openapi: tagged(JSON.stringify(openapi)), docs: tagged(renderDocs(openapi)), policy: docsPolicy() };
    }
    return bodies;
  };
  const { sendBody } = services;
  return [
    defineOperation({
      method: "GET",
      path: "/healthz",
      metering: "service",
      doc: doc({
        operationId: "getHealth",
        summary: "Liveness",
        description: "`200` while the process is up and serving its data, with the quota store's state (`store`). Not cacheable.",
        responses: { "200": ok("Alive.", "Health", headers(["Cache-Control"])), "500": shared("InternalError") },
        examples: [{ description: "Liveness probe" }],
      }),
      handler: (request) => {
        const storeState = services.store.health?.().ready === false ? "unavailable" : "ok";
        return sendBody(request, JSON.stringify({ status: "ok", data: data.manifest.data_hash.slice(0, 12), store: storeState }), { caching: "no-store" });
      },
    }),
    defineOperation({
      method: "GET",
      path: "/openapi.json",
      metering: "service",
      doc: doc({
        operationId: "getOpenApi",
        summary: "This OpenAPI document",
        description: "The OpenAPI 3.1 document of both interfaces and the service routes, for the configured base paths.",
        responses: cached("The document.", "application/json", {
          type: "object",
          required: ["openapi", "info", "paths"],
          properties: { openapi: { const: "3.1.0" }, info: { type: "object" }, paths: { type: "object" } },
        }),
        examples: [{ description: "The document" }],
      }),
      handler: (request) => sendBody(request, docs().openapi.body, { caching: { etag: docs().openapi.etag } }),
    }),
    defineOperation({
      method: "GET",
      path: "/docs",
      metering: "service",
      doc: doc({
        operationId: "getDocs",
        summary: "API reference",
        description:
          "This human-readable reference as one self-contained HTML page (no scripts, no external assets). Error `type` links point at its `#error-<code>` anchors.",
        responses: cached("The page.", "text/html", { type: "string" }),
        examples: [{ description: "The page" }],
      }),
      handler: (request) =>
        sendBody(request, docs().docs.body, {
          caching: { etag: docs().docs.etag },
          contentType: "text/html; charset=utf-8",
          headers: { "Content-Security-Policy": docs().policy },
        }),
    }),
  ];
};

interface Tagged {
  body: string;
  etag: string;
}

/** A body with its strong entity tag: the first 128 bits of its SHA-256, hex. */
function tagged(body: string): Tagged {
  return { body, etag: sha256Hex(body).slice(0, 32) };
}
