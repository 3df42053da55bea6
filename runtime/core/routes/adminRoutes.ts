/**
 * Operator routes under the quiz base (docs/rules.md "Interface B"), registered only when an admin token is
 * configured: list, show, confirm a deposit, revoke. Bearer token compared in constant time.
 */
import type { IRequest } from "itty-router";
import { ApiError, bearerToken } from "../http/errors.ts";
import { parsePath, parseQuery, queryOf } from "../http/params.ts";
import type { Send } from "../http/sender.ts";
import { constantTimeEqual } from "../quota/apiKeys.ts";
import { type ActionResult, adminView, confirmKey, keysWithStatus, revokeKey } from "../quota/keyActions.ts";
import type { QuotaStore } from "../quota/store.ts";
import type { Route } from "./context.ts";
import { KEY_ID_PATH, KEY_LIST_PARAMS } from "./quizParams.ts";

export interface AdminConfig {
  store: QuotaStore;
  now: () => Date;
  adminToken: string;
  sendBody: Send;
}

export function adminRoutes(base: string, config: AdminConfig): Route[] {
  const guard = async (request: IRequest) => {
    if (!constantTimeEqual(bearerToken(request.headers), config.adminToken)) {
      throw new ApiError(401, "invalid_key", "Admin routes need Authorization: Bearer <ADMIN_TOKEN>.", "Authorization", {
        "WWW-Authenticate": 'Bearer realm="admin"',
      });
    }
  };
  const send = (request: IRequest, body: unknown) => config.sendBody(request, JSON.stringify({ success: true, ...(body as object) }), { caching: "no-store" });
  const keyId = (request: IRequest) => parsePath("id", request.params.id ?? "", KEY_ID_PATH).value;
  const act = (action: (store: QuotaStore, id: string, now: Date) => Promise<ActionResult>) => async (request: IRequest) => {
    await guard(request);
    const now = config.now();
    const result = await action(config.store, keyId(request), now);
    if (!result.ok) {
      if (result.reason === "revoked") throw new ApiError(409, "conflict", "A revoked key cannot be confirmed.", "id");
      throw new ApiError(404, "not_found", "No key with this id.", "id");
    }
    if (!result.unchanged) return send(request, { key: adminView(result.key, now) });
    // The record alone would not show that nothing happened (an early renewal is not recorded): said here, as the CLI says it.
    const note = `The key is already active (${result.key.plan} until ${result.key.expires_at ?? "no end"}): nothing changed. A deposit for the next year can be confirmed once the key has expired.`;
    return send(request, { key: adminView(result.key, now), unchanged: true, note });
  };

  return [
    {
      method: "GET",
      path: `${base}/admin/keys`,
      handler: async (request) => {
        await guard(request);
        const { status } = parseQuery(queryOf(request.url), KEY_LIST_PARAMS);
        const now = config.now();
        // One document answers: the keys are read a page at a time, the event loop free between pages.
        const keys: Record<string, unknown>[] = [];
        for await (const key of keysWithStatus(config.store, status, now)) keys.push(adminView(key, now));
        return send(request, { count: keys.length, keys });
      },
    },
    {
      method: "GET",
      path: `${base}/admin/keys/:id`,
      handler: async (request) => {
        await guard(request);
        const key = await config.store.keyById(keyId(request));
        if (!key) throw new ApiError(404, "not_found", "No key with this id.", "id");
        return send(request, { key: adminView(key, config.now()) });
      },
    },
    { method: "POST", path: `${base}/admin/keys/:id/confirm`, handler: act(confirmKey) },
    { method: "POST", path: `${base}/admin/keys/:id/revoke`, handler: act(revokeKey) },
  ];
}
