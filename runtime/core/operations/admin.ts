/**
 * The operator's operations under the quiz base (docs/rules.md "Interface B"), mounted only when an
 * admin token is configured: list, show, a key's usage history, confirm a deposit, revoke. Bearer token compared in constant time.
 */
import { headers, ok, problem, shared } from "../docs/responses.ts";
import type { Response } from "../docs/types.ts";
import { ApiError, bearerToken } from "../http/errors.ts";
import type { RequestLike } from "../http/reply.ts";
import { constantTimeEqual } from "../quota/apiKeys.ts";
import { type ActionResult, adminView, confirmKey, keysWithStatus, revokeKey } from "../quota/keyActions.ts";
import { DAILY_LIMITS } from "../quota/plans.ts";
import { quotaDay } from "../quota/clock.ts";
import { USAGE_KEEP_DAYS } from "../quota/retention.ts";
import type { QuotaStore } from "../quota/store.ts";
import { usageHistory } from "../quota/usage.ts";
import { KEY_ID_PATH, KEY_LIST_PARAMS } from "../routes/quizParams.ts";
import { count } from "../util/count.ts";
import { type Interface, type OperationDoc, defineOperation } from "./operation.ts";

const ADMIN = { Authorization: "Bearer $ADMIN_TOKEN" };
const KEY_ID_EXAMPLE = "key_AbCdEf123456";

const unauthorized: Response = problem(401, "Missing or wrong `Authorization: Bearer` token (`param: Authorization`).", {
  codes: ["invalid_key"],
  extra: headers(["WWW-Authenticate"]),
});
const badId = problem(400, "`id` is not `key_` and 12 letters and digits (`param: id`).", { codes: ["invalid_parameter"] });
const noKey = problem(404, "No key with this id (`param: id`).", { codes: ["not_found"] });
/** The `404` an operation on one key answers when there is no key with that id. */
const noSuchKey = () => new ApiError(404, "not_found", "No key with this id.", "id");
const keyOk = (description: string) => ok(description, "AdminKeyResponse", headers(["Cache-Control"]));
/** The answers of an operation on one key (`{id}`): `answer` when it is done, else why not. */
const onOneKey = (answer: Response): OperationDoc["responses"] => ({
  "200": answer,
  "400": badId,
  "401": unauthorized,
  "404": noKey,
  "500": shared("InternalError"),
  "503": shared("StoreUnavailable"),
});

/** The reference text of an admin operation: its tag, the token, and which other methods its path answers. */
function doc(method: "GET" | "POST", fields: Omit<OperationDoc, "tags" | "security" | "pathNote">): OperationDoc {
  const pathNote = method === "GET" ? "Also answers `HEAD`; other methods: `405`." : "Only `POST`; other methods: `405`.";
  return { ...fields, tags: ["Admin"], security: [{ AdminToken: [] }], pathNote };
}

/** The admin operations; `services.options.adminToken` is set whenever they are mounted. */
export const adminInterface: Interface = ({ services }) => {
  const guard = (request: RequestLike) => {
    if (!constantTimeEqual(bearerToken(request.headers), services.options.adminToken ?? "")) {
      throw new ApiError(401, "invalid_key", "Admin routes need Authorization: Bearer <ADMIN_TOKEN>.", "Authorization", {
        "WWW-Authenticate": 'Bearer realm="admin"',
      });
    }
  };
  const send = (request: RequestLike, body: object) => services.sendBody(request, JSON.stringify({ success: true, ...body }), { caching: "no-store" });
  const act = (action: (store: QuotaStore, id: string, now: Date) => Promise<ActionResult>) => async (request: RequestLike, id: string) => {
    const now = services.now();
    const result = await action(services.store, id, now);
    if (!result.ok) {
      if (result.reason === "revoked") throw new ApiError(409, "conflict", "A revoked key cannot be confirmed.", "id");
      throw noSuchKey();
    }
    if (!result.unchanged) return send(request, { key: adminView(result.key, now) });
    // The record alone would not show that nothing happened (an early renewal is not recorded): said here, as the CLI says it.
    const note = `The key is already active (${result.key.plan} until ${result.key.expires_at ?? "no end"}): nothing changed. A deposit for the next year can be confirmed once the key has expired.`;
    return send(request, { key: adminView(result.key, now), unchanged: true, note });
  };
  const confirm = act(confirmKey);
  const revoke = act(revokeKey);

  return [
    defineOperation({
      method: "GET",
      path: "/admin/keys",
      parameters: KEY_LIST_PARAMS,
      metering: "admin",
      doc: doc("GET", {
        operationId: "listKeys",
        summary: "List keys",
        description: "Every key, newest first, with the applicant's details, optionally only those with one stored status. Not cacheable.",
        responses: {
          "200": ok("The keys.", "AdminKeyList", headers(["Cache-Control"])),
          "400": problem(400, "`status` is not one of the listed values, or given twice (`param: status`).", { codes: ["invalid_parameter"] }),
          "401": unauthorized,
          "500": shared("InternalError"),
          "503": shared("StoreUnavailable"),
        },
        examples: [{ description: "Keys awaiting their deposit", query: { status: "pending_deposit" }, headers: ADMIN }],
      }),
      authorize: guard,
      handler: async (request, _ctx, { status }) => {
        const now = services.now();
        // One document answers: the keys are read a page at a time, the event loop free between pages.
        const keys: Record<string, unknown>[] = [];
        for await (const key of keysWithStatus(services.store, status, now)) keys.push(adminView(key, now));
        return send(request, { count: keys.length, keys });
      },
    }),
    defineOperation({
      method: "GET",
      path: "/admin/keys/{id}",
      parameters: { id: KEY_ID_PATH },
      metering: "admin",
      doc: doc("GET", {
        operationId: "getKey",
        summary: "One key",
        description: "One key with the applicant's details and its live status (`expired` once an annual key passes `expires_at`).",
        responses: onOneKey(keyOk("The key.")),
        examples: [{ description: "Show a key", path: { id: KEY_ID_EXAMPLE }, headers: ADMIN }],
      }),
      authorize: guard,
      handler: async (request, _ctx, { id }) => {
        const key = await services.store.keyById(id);
        if (!key) throw noSuchKey();
        return send(request, { key: adminView(key, services.now()) });
      },
    }),
    defineOperation({
      method: "GET",
      path: "/admin/keys/{id}/usage",
      parameters: { id: KEY_ID_PATH },
      metering: "admin",
      doc: doc("GET", {
        operationId: "getKeyUsage",
        summary: "A key's usage history",
        description: `The key's metered calls per metering day, as far back as they are kept (${USAGE_KEEP_DAYS} days): the days with calls, oldest first, and their sum. The history holds no personal data and outlives the erasure of the applicant's. Not cacheable.`,
        responses: onOneKey(ok("The history.", "AdminKeyUsage", headers(["Cache-Control"]))),
        examples: [{ description: "A key's usage", path: { id: KEY_ID_EXAMPLE }, headers: ADMIN }],
      }),
      authorize: guard,
      handler: async (request, _ctx, { id }) => {
        if (!(await services.store.keyById(id))) throw noSuchKey();
        const now = services.now();
        return send(request, { id, ...(await usageHistory(services.store, id, now, quotaDay(now, services.offsetMinutes).day)) });
      },
    }),
    defineOperation({
      method: "POST",
      path: "/admin/keys/{id}/confirm",
      parameters: { id: KEY_ID_PATH },
      metering: "admin",
      doc: doc("POST", {
        operationId: "confirmKey",
        summary: "Confirm the deposit",
        description:
          `The deposit arrived: the key becomes \`annual\`/\`active\` for one year from now (${count(DAILY_LIMITS.annual)} calls a day). Confirming an expired key renews it for a year from now; ` +
          "confirming an active key changes nothing (idempotent). A revoked key cannot be confirmed (`409`). No request body.",
        responses: { ...onOneKey(keyOk("The key after confirmation.")), "409": problem(409, "The key is revoked (`param: id`).", { codes: ["conflict"] }) },
        examples: [{ description: "Confirm a deposit", path: { id: KEY_ID_EXAMPLE }, headers: ADMIN }],
      }),
      authorize: guard,
      handler: (request, _ctx, { id }) => confirm(request, id),
    }),
    defineOperation({
      method: "POST",
      path: "/admin/keys/{id}/revoke",
      parameters: { id: KEY_ID_PATH },
      metering: "admin",
      doc: doc("POST", {
        operationId: "revokeKey",
        summary: "Revoke a key",
        description: "Revokes the key for good: it answers `403 key_revoked` from then on. Revoking again keeps the first `revoked_at`. No request body.",
        responses: onOneKey(keyOk("The key after revocation.")),
        examples: [{ description: "Revoke a key", path: { id: KEY_ID_EXAMPLE }, headers: ADMIN }],
      }),
      authorize: guard,
      handler: (request, _ctx, { id }) => revoke(request, id),
    }),
  ];
};
