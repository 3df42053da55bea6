/** Interface B's unmetered operations on the caller's key: `GET /me` and `POST /subscribe`. */
import { schemaRef } from "../../format/schema.ts";
import { headers, ok, problem, shared } from "../docs/responses.ts";
import { quotaDay } from "../quota/clock.ts";
import { daysLeft, keyStatus } from "../quota/keyActions.ts";
import { recentUsage } from "../quota/usage.ts";
import { ANNUAL_PRICE_KRW, APPLICATIONS_PER_IP, DAILY_LIMITS, MAX_BODY_BYTES } from "../quota/plans.ts";
import type { Metering } from "../routes/metering.ts";
import { subscribeHandler } from "../routes/subscribe.ts";
import { count } from "../util/count.ts";
import { type InterfaceContext, type Operation, defineOperation } from "./operation.ts";
import { WITH_KEY, badRequest, quizDoc } from "./quizDocs.ts";

/** `GET /me` and `POST /subscribe` of interface B, with its metering (who is calling, from which IP). */
export function accountOperations({ services }: InterfaceContext, metering: Metering): Operation[] {
  return [
    defineOperation({
      method: "GET",
      path: "/me",
      metering: "public",
      doc: quizDoc({
        operationId: "getKeyStatus",
        summary: "Status of the calling key",
        description:
          "Plan, status, today's usage, the calls of the last 30 days and expiry of the key sent (expired and revoked keys are reported too, with `daily_limit` 0). " +
          "Without a key: the caller's demo quota (`plan: demo`, `id` null). Not metered.",
        responses: {
          "200": ok("The key status.", "KeyStatusResponse", headers(["Cache-Control"])),
          "400": badRequest("`X-API-Key` and `api_key` both sent with different values, `X-API-Key` sent twice, or `api_key` given twice"),
          "401": shared("InvalidKey"),
          "500": shared("InternalError"),
          "503": shared("StoreUnavailable"),
        },
        examples: [{ description: "Key status", headers: WITH_KEY }, { description: "Demo status (no key)" }],
      }),
      handler: async (request, ctx) => {
        const caller = await metering.caller(request, ctx);
        const now = caller.at;
        const { day, resetsAt } = quotaDay(now, services.offsetMinutes);
        const { limit } = caller;
        const key = caller.key;
        // The history is read with today's count: both come from the store at once.
        const [used, usage] = await Promise.all([services.store.used(caller.bucket, day), key ? recentUsage(services.store, key.id, day) : null]);
        const body = {
          success: true,
          key: {
            id: key?.id ?? null,
            plan: caller.plan,
            status: key ? keyStatus(key, now) : "active",
            daily_limit: limit,
            used_today: used,
            remaining: Math.max(0, limit - used),
            resets_at: resetsAt.toISOString(),
            expires_at: key?.expires_at ?? null,
            days_left: key ? daysLeft(key, now) : null,
            created_at: key?.created_at ?? null,
            usage,
          },
        };
        return services.sendBody(request, JSON.stringify(body), { caching: "no-store" });
      },
    }),
    defineOperation({
      method: "POST",
      path: "/subscribe",
      metering: "public",
      doc: quizDoc({
        operationId: "subscribe",
        summary: "Apply for the annual plan",
        description:
          `Applies for the annual plan (${count(ANNUAL_PRICE_KRW)} KRW a year, bank transfer only) and issues a key at once. Until the operator confirms the deposit ` +
          `the key is on the free plan (\`pending_deposit\`, ${count(DAILY_LIMITS.free)} calls a day); then it becomes \`annual\` (${count(DAILY_LIMITS.annual)} calls a day) for one year.\n\n` +
          `The key is shown only in this response; the service keeps only its hash. Body: \`Content-Type: application/json\`, at most ${MAX_BODY_BYTES} bytes. ` +
          `At most ${APPLICATIONS_PER_IP} applications per client IP per day. One pending application per e-mail address. ` +
          "Personal data is never logged and never returned by the public interface. Not metered; no key needed (a key sent is ignored).",
        security: [{}],
        pathNote: "Only `POST`; other methods: `405` with `Allow`.",
        requestBody: {
          description: "The application.",
          required: true,
          content: {
            "application/json": { schema: schemaRef("SubscribeRequest"), example: { name: "홍길동", email: "gildong@example.com", depositor: "홍길동" } },
          },
        },
        responses: {
          "201": ok("Key issued; payment instructions.", "SubscribeResponse", headers(["Cache-Control"])),
          "400": problem(
            400,
            "The body is not a UTF-8 JSON object, or a field is missing or invalid (`param` names it: `body`, `name`, `email`, `phone`, `depositor`).",
            { codes: ["invalid_parameter"] },
          ),
          "409": problem(409, "An application with this e-mail is already awaiting its deposit (`param: email`).", { codes: ["conflict"] }),
          "413": problem(413, `The body is over ${MAX_BODY_BYTES} bytes.`, { codes: ["payload_too_large"] }),
          "415": problem(415, "The body is not sent as `Content-Type: application/json`.", { codes: ["unsupported_media_type"] }),
          "429": problem(429, `More than ${APPLICATIONS_PER_IP} applications from this client IP today.`, {
            codes: ["quota_exceeded"],
            extra: headers(["Retry-After"]),
          }),
          "500": shared("InternalError"),
          "503": shared("StoreUnavailable"),
        },
        examples: [
          {
            description: "Apply",
            headers: { "Content-Type": "application/json" },
            body: { name: "홍길동", email: "gildong@example.com", depositor: "홍길동" },
          },
        ],
      }),
      handler: (request, ctx) => subscribeHandler(request, { ...services, ip: metering.ipOf(request, ctx) }),
    }),
  ];
}
