/**
 * Response headers and response objects of the OpenAPI document: the caching headers of interface A,
 * the rate-limit headers of interface B's metered calls (docs/rules.md "Interface B", "Headers") and the problem responses.
 */
import { BODY_REVISION } from "../../format/dist.ts";
import { API_KEY_CHALLENGE } from "../routes/metering.ts";
import { codesFor } from "./errorCodes.ts";
import { schemaRef } from "../../format/schema.ts";
import { type Header, type Response, type Schema, ref } from "./types.ts";

const JSON_MEDIA = "application/json";
const PROBLEM = "application/problem+json";

/** Every response header the service documents, with its schema (the catalogue in `components.headers`). */
export const HEADERS = {
  ETag: {
    description: `Strong entity tag: on interface A derived from the data hash and the revision of the service's bodies (\`-r${BODY_REVISION}\`), on the reference (\`/docs\`, \`/openapi.json\`) from its own bytes; \`-gz\` / \`-br\` suffix on the gzip / brotli variant. Send it back in \`If-None-Match\` to get \`304\`.`,
    schema: { type: "string", pattern: '^"[0-9a-f]+(-r[0-9]+)?(-[a-z]+)*"$' },
  },
  "Cache-Control": {
    description: "`public, max-age=86400` on interface A and the reference; `no-store` on interface B, the admin routes and every error.",
    schema: { type: "string", enum: ["public, max-age=86400", "no-store"] },
  },
  RateLimit: {
    description: 'Quota left in the current window (IETF httpapi ratelimit-headers draft): `"daily";r=<remaining>;t=<seconds to reset>`.',
    schema: { type: "string", pattern: '^"daily";r=\\d+;t=\\d+$' },
  },
  "RateLimit-Policy": {
    description: 'The quota policy: `"daily";q=<daily limit>;w=86400`.',
    schema: { type: "string", pattern: '^"daily";q=\\d+;w=86400$' },
  },
  "X-RateLimit-Limit": { description: "Daily limit of the caller's plan.", schema: { type: "integer", minimum: 0 } },
  "X-RateLimit-Remaining": { description: "Calls left today.", schema: { type: "integer", minimum: 0 } },
  "X-RateLimit-Reset": { description: "When the counters reset, in Unix epoch seconds.", schema: { type: "integer", minimum: 0 } },
  "Retry-After": {
    description: "Seconds to wait: until the daily counters reset (`429`), or before trying again (`503`).",
    schema: { type: "integer", minimum: 1 },
  },
  "X-Request-Id": { description: "Id of the request, as in the problem body's `request_id`.", schema: { type: "string" } },
  Allow: { description: "Methods the path supports, e.g. `GET, HEAD, OPTIONS`.", schema: { type: "string" } },
  "WWW-Authenticate": {
    description: `How to authenticate: \`${API_KEY_CHALLENGE}\` for an API key, \`Bearer realm="admin"\` on the admin routes.`,
    schema: { type: "string", enum: [API_KEY_CHALLENGE, 'Bearer realm="admin"'] },
  },
} satisfies Record<string, Header>;

export type HeaderName = keyof typeof HEADERS;

/** The named headers, all required or all optional. */
export function headers(names: readonly HeaderName[], required = true): Record<string, Header> {
  return Object.fromEntries(names.map((name) => [name, { ...HEADERS[name], required }]));
}

export const RATE_LIMIT: readonly HeaderName[] = ["RateLimit", "RateLimit-Policy", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];
/** Headers of every interface-A `200`: caching and the entity tag. */
export const CACHED: readonly HeaderName[] = ["ETag", "Cache-Control"];

/** A successful JSON response. */
export function ok(description: string, schema: string | Schema, head: Record<string, Header> = {}): Response {
  return {
    description,
    headers: head,
    content: { [JSON_MEDIA]: { schema: typeof schema === "string" ? schemaRef(schema) : schema } },
  };
}

/**
 * A problem-details response with `status` and the codes that come with it (`codes` narrows them).
 * `metered`: the call was counted before it failed, so the rate-limit headers come too.
 */
export function problem(status: number, description: string, options: { codes?: string[]; metered?: boolean; extra?: Record<string, Header> } = {}): Response {
  const codes = options.codes ?? codesFor(status);
  return {
    description,
    headers: {
      ...headers(["X-Request-Id", "Cache-Control"]),
      ...(options.metered ? headers(RATE_LIMIT) : {}),
      ...options.extra,
    },
    content: {
      [PROBLEM]: {
        schema: {
          type: "object",
          allOf: [schemaRef("Problem")],
          properties: { status: { const: status }, code: codes.length === 1 ? { const: codes[0] } : { enum: codes } },
        },
      },
    },
  };
}

/** `429 quota_exceeded` of a metered call: rate-limit headers and `Retry-After`. */
export function quotaExceeded(): Response {
  return problem(429, "The daily limit of the caller's plan is used up (the call was not counted).", {
    metered: true,
    extra: headers(["Retry-After"]),
  });
}

/** Reusable responses (`components.responses`). */
export function sharedResponses(): Record<string, Response> {
  return {
    NotModified: {
      description: "The `If-None-Match` tag matches: use the cached body. No body.",
      headers: headers(["ETag", "Cache-Control"]),
    },
    InternalError: problem(500, "Unexpected failure; no internals in the body. Quote `request_id` when reporting it."),
    MethodNotAllowed: problem(405, "The path exists but not for this method (any path of this document). `Allow` lists its methods.", {
      extra: headers(["Allow"]),
    }),
    NotFoundRoute: problem(404, "No such route (any path not in this document, and the admin routes when no admin token is configured)."),
    InvalidKey: problem(
      401,
      "The API key is malformed or unknown, or was sent as `Authorization: Bearer` (read only by the admin routes); it is never treated as the demo.",
      { extra: headers(["WWW-Authenticate"]) },
    ),
    StoreUnavailable: problem(503, "The quota store cannot answer now (down, busy, out of disk); nothing was counted. Retry after `Retry-After` seconds.", {
      extra: headers(["Retry-After"]),
    }),
    InactiveKey: problem(403, "The API key is expired (`key_expired`) or revoked (`key_revoked`)."),
  };
}

/** A `$ref` to a reusable response. */
export function shared(name: keyof ReturnType<typeof sharedResponses>): { $ref: string } {
  return ref("responses", name);
}
