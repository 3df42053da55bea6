/**
 * `POST /subscribe` (docs/rules.md "Interface B"): JSON only, at most 8 KiB, fields validated; issues a free key
 * awaiting the deposit and answers with the payment instructions. Personal data goes to the store
 * and nowhere else.
 */
import { ApiError, invalidFields } from "../http/errors.ts";
import type { Reply, RequestLike } from "../http/reply.ts";
import { newApiKey, hashApiKey } from "../quota/apiKeys.ts";
import { checkApplicant } from "../quota/applicant.ts";
import { quotaDay } from "../quota/clock.ts";
import { paymentReference } from "../quota/keyActions.ts";
import { ANNUAL_PRICE_KRW, APPLICATIONS_PER_IP, DAILY_LIMITS } from "../quota/plans.ts";
import { type Applicant, DuplicateApplicationError, DuplicateReferenceError } from "../quota/store.ts";
import type { AppServices } from "../operations/operation.ts";
import { jsonObject, readJson } from "./jsonBody.ts";

export async function subscribeHandler(request: RequestLike, config: AppServices & { ip: string }): Promise<Reply> {
  const applicant = validateApplicant(jsonObject(await readJson(request, "the application")));
  const now = config.now();
  const { day, secondsToReset } = quotaDay(now, config.offsetMinutes);
  const attempt = await config.store.consume(`subscribe:${config.ip}`, day, APPLICATIONS_PER_IP);
  if (!attempt.allowed) {
    throw new ApiError(429, "quota_exceeded", `At most ${APPLICATIONS_PER_IP} applications per client per day; try again tomorrow.`, undefined, {
      "Retry-After": String(secondsToReset),
    });
  }
  const { key, id } = await issueKey(config, applicant, now);
  const body = {
    success: true,
    api_key: key,
    key: { id, plan: "free", status: "pending_deposit", daily_limit: DAILY_LIMITS.free },
    payment: {
      plan: "annual",
      price_krw: ANNUAL_PRICE_KRW,
      method: "bank_transfer",
      account: config.bankAccount,
      // The reference to write as the depositor name of the transfer, so the operator can match the
      // transfer to this key without the response echoing personal data.
      reference: paymentReference(id),
      // Its former name, kept for one release (CHANGELOG.md).
      depositor: paymentReference(id),
    },
  };
  return config.sendBody(request, JSON.stringify(body), { status: 201, caching: "no-store" });
}

/** New keys tried when the payment reference of the one drawn is taken by an open application (1 in about 2 billion each). */
const KEY_ATTEMPTS = 5;

/** Stores a new pending key for `applicant`: drawn again while its payment reference is taken. */
async function issueKey(config: AppServices, applicant: Applicant, now: Date): Promise<{ key: string; id: string }> {
  for (let attempt = 1; ; attempt++) {
    const { key, id } = newApiKey(config.random);
    try {
      await config.store.insertKey({
        id,
        hash: hashApiKey(key),
        plan: "free",
        status: "pending_deposit",
        created_at: now.toISOString(),
        confirmed_at: null,
        expires_at: null,
        revoked_at: null,
        applicant,
      });
      return { key, id };
    } catch (error) {
      if (error instanceof DuplicateApplicationError) {
        throw new ApiError(
          409,
          "conflict",
          "An application with this e-mail is already awaiting its deposit; use the key you were given, or ask the operator.",
          "email",
        );
      }
      if (!(error instanceof DuplicateReferenceError) || attempt === KEY_ATTEMPTS) throw error;
    }
  }
}

/** The applicant's fields, trimmed and checked (`checkApplicant`); every bad field is reported at once in one 400 (`param` the first, `errors` each). */
export function validateApplicant(body: Record<string, unknown>): Applicant {
  const checked = checkApplicant(body);
  if ("problems" in checked) throw invalidFields(checked.problems);
  return checked.applicant;
}
