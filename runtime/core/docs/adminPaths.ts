/**
 * The operator routes under the quiz base (docs/rules.md "Interface B", present only when an admin token is
 * configured) and the service routes outside both interfaces (docs/rules.md "Headers").
 */
import { DAILY_LIMITS } from "../quota/plans.ts";
import { USAGE_KEEP_DAYS } from "../quota/retention.ts";
import { count } from "../util/count.ts";
import { KEY_ID_PATH, KEY_LIST_PARAMS } from "../routes/quizParams.ts";
import { parameterRefs } from "./parameters.ts";
import { CACHED, headers, ok, problem, shared } from "./responses.ts";
import type { Operation, PathItem, Response } from "./types.ts";

const ADMIN = { Authorization: "Bearer $ADMIN_TOKEN" };
const KEY_ID_EXAMPLE = "key_AbCdEf123456";

const unauthorized: Response = problem(401, "Missing or wrong `Authorization: Bearer` token (`param: Authorization`).", {
  codes: ["invalid_key"],
  extra: headers(["WWW-Authenticate"]),
});
const badId = problem(400, "`id` is not `key_` and 12 letters and digits (`param: id`).", { codes: ["invalid_parameter"] });
const noKey = problem(404, "No key with this id (`param: id`).", { codes: ["not_found"] });

function adminOperation(op: Omit<Operation, "tags" | "security">): Operation {
  return { ...op, tags: ["Admin"], security: [{ AdminToken: [] }] };
}

const keyOk = (description: string) => ok(description, "AdminKeyResponse", headers(["Cache-Control"]));

/** Admin paths under the quiz base. */
export function adminPaths(base: string): Record<string, PathItem> {
  return {
    [`${base}/admin/keys`]: {
      description: "Also answers `HEAD`; other methods: `405`.",
      get: adminOperation({
        operationId: "listKeys",
        summary: "List keys",
        description: "Every key, newest first, with the applicant's details, optionally only those with one stored status. Not cacheable.",
        parameters: parameterRefs(KEY_LIST_PARAMS),
        responses: {
          "200": ok("The keys.", "AdminKeyList", headers(["Cache-Control"])),
          "400": problem(400, "`status` is not one of the listed values, or given twice (`param: status`).", { codes: ["invalid_parameter"] }),
          "401": unauthorized,
          "500": shared("InternalError"),
          "503": shared("StoreUnavailable"),
        },
        "x-request-examples": [{ description: "Keys awaiting their deposit", query: { status: "pending_deposit" }, headers: ADMIN }],
      }),
    },
    [`${base}/admin/keys/{id}`]: {
      description: "Also answers `HEAD`; other methods: `405`.",
      get: adminOperation({
        operationId: "getKey",
        summary: "One key",
        description: "One key with the applicant's details and its live status (`expired` once an annual key passes `expires_at`).",
        parameters: parameterRefs({ id: KEY_ID_PATH }),
        responses: {
          "200": keyOk("The key."),
          "400": badId,
          "401": unauthorized,
          "404": noKey,
          "500": shared("InternalError"),
          "503": shared("StoreUnavailable"),
        },
        "x-request-examples": [{ description: "Show a key", path: { id: KEY_ID_EXAMPLE }, headers: ADMIN }],
      }),
    },
    [`${base}/admin/keys/{id}/usage`]: {
      description: "Also answers `HEAD`; other methods: `405`.",
      get: adminOperation({
        operationId: "getKeyUsage",
        summary: "A key's usage history",
        description: `The key's metered calls per metering day, as far back as they are kept (${USAGE_KEEP_DAYS} days): the days with calls, oldest first, and their sum. The history holds no personal data and outlives the erasure of the applicant's. Not cacheable.`,
        parameters: parameterRefs({ id: KEY_ID_PATH }),
        responses: {
          "200": ok("The history.", "AdminKeyUsage", headers(["Cache-Control"])),
          "400": badId,
          "401": unauthorized,
          "404": noKey,
          "500": shared("InternalError"),
          "503": shared("StoreUnavailable"),
        },
        "x-request-examples": [{ description: "A key's usage", path: { id: KEY_ID_EXAMPLE }, headers: ADMIN }],
      }),
    },
    [`${base}/admin/keys/{id}/confirm`]: {
      description: "Only `POST`; other methods: `405`.",
      post: adminOperation({
        operationId: "confirmKey",
        summary: "Confirm the deposit",
        description:
          `The deposit arrived: the key becomes \`annual\`/\`active\` for one year from now (${count(DAILY_LIMITS.annual)} calls a day). Confirming an expired key renews it for a year from now; ` +
          "confirming an active key changes nothing (idempotent). A revoked key cannot be confirmed (`409`). No request body.",
        parameters: parameterRefs({ id: KEY_ID_PATH }),
        responses: {
          "200": keyOk("The key after confirmation."),
          "400": badId,
          "401": unauthorized,
          "404": noKey,
          "409": problem(409, "The key is revoked (`param: id`).", { codes: ["conflict"] }),
          "500": shared("InternalError"),
          "503": shared("StoreUnavailable"),
        },
        "x-request-examples": [{ description: "Confirm a deposit", path: { id: KEY_ID_EXAMPLE }, headers: ADMIN }],
      }),
    },
    [`${base}/admin/keys/{id}/revoke`]: {
      description: "Only `POST`; other methods: `405`.",
      post: adminOperation({
        operationId: "revokeKey",
        summary: "Revoke a key",
        description: "Revokes the key for good: it answers `403 key_revoked` from then on. Revoking again keeps the first `revoked_at`. No request body.",
        parameters: parameterRefs({ id: KEY_ID_PATH }),
        responses: {
          "200": keyOk("The key after revocation."),
          "400": badId,
          "401": unauthorized,
          "404": noKey,
          "500": shared("InternalError"),
          "503": shared("StoreUnavailable"),
        },
        "x-request-examples": [{ description: "Revoke a key", path: { id: KEY_ID_EXAMPLE }, headers: ADMIN }],
      }),
    },
  };
}

function serviceOperation(op: Omit<Operation, "tags" | "security">): Operation {
  return { ...op, tags: ["Service"], security: [{}] };
}

/** `/healthz`, `/openapi.json`, `/docs` at the root. */
export function servicePaths(): Record<string, PathItem> {
  const cached = (description: string, contentType: string, schema: Record<string, unknown>): Operation["responses"] => ({
    "200": { description, headers: headers(CACHED), content: { [contentType]: { schema } } },
    "304": shared("NotModified"),
    "500": shared("InternalError"),
  });
  return {
    "/healthz": {
      description: "Also answers `HEAD`.",
      get: serviceOperation({
        operationId: "getHealth",
        summary: "Liveness",
        description: "`200` while the process is up and serving its data, with the quota store's state (`store`). Not cacheable.",
        responses: { "200": ok("Alive.", "Health", headers(["Cache-Control"])), "500": shared("InternalError") },
        "x-request-examples": [{ description: "Liveness probe" }],
      }),
    },
    "/openapi.json": {
      description: "Also answers `HEAD`.",
      get: serviceOperation({
        operationId: "getOpenApi",
        summary: "This OpenAPI document",
        description: "The OpenAPI 3.1 document of both interfaces and the service routes, for the configured base paths.",
        responses: cached("The document.", "application/json", {
          type: "object",
          required: ["openapi", "info", "paths"],
          properties: { openapi: { const: "3.1.0" }, info: { type: "object" }, paths: { type: "object" } },
        }),
        "x-request-examples": [{ description: "The document" }],
      }),
    },
    "/docs": {
      description: "Also answers `HEAD`.",
      get: serviceOperation({
        operationId: "getDocs",
        summary: "API reference",
        description:
          "This human-readable reference as one self-contained HTML page (no scripts, no external assets). Error `type` links point at its `#error-<code>` anchors.",
        responses: cached("The page.", "text/html", { type: "string" }),
        "x-request-examples": [{ description: "The page" }],
      }),
    },
  };
}
