/** The reference text interface B's operations share: key, metering, the answers every metered call may give. */
import { headers, ok, problem, quotaExceeded, RATE_LIMIT, shared } from "../docs/responses.ts";
import type { Operation as DocOperation, Response, SecurityRequirement } from "../docs/types.ts";
import { DAILY_LIMITS } from "../quota/plans.ts";
import { count } from "../util/count.ts";
import type { OperationDoc } from "./operation.ts";

/** A key is optional: the demo runs without one. */
export const OPTIONAL_KEY: SecurityRequirement[] = [{}, { ApiKeyHeader: [] }, { ApiKeyQuery: [] }];

/** The path note of interface B's GET operations. */
export const GET_ONLY = "Also answers `HEAD`; other methods: `405` with `Allow`.";

export const METERED =
  `Metered: one call of the caller's daily quota (demo ${count(DAILY_LIMITS.demo)} per client IP, free ${count(DAILY_LIMITS.free)}, annual ${count(DAILY_LIMITS.annual)} per key), whatever \`count\`; ` +
  "the rate-limit headers come with the answer. A `400` for a bad parameter is not counted. Not cacheable (`Cache-Control: no-store`).";

/** A `400` is answered before metering: it is not counted and carries no rate-limit headers. */
export function badRequest(what: string): Response {
  return problem(400, `Invalid parameter: ${what}; or \`X-API-Key\` and \`api_key\` differ, or \`X-API-Key\` is sent twice. \`param\` names it. Not counted.`, {
    codes: ["invalid_parameter"],
  });
}

/** Responses every metered operation has besides its own. */
export function meteredResponses(success: Response, errors: Record<string, Response>): DocOperation["responses"] {
  return {
    "200": success,
    ...errors,
    "401": shared("InvalidKey"),
    "403": shared("InactiveKey"),
    "429": quotaExceeded(),
    "500": shared("InternalError"),
    "503": shared("StoreUnavailable"),
  };
}

/** A metered success: its schema with the rate-limit headers. */
export const meteredOk = (description: string, schema: string) => ok(description, schema, headers([...RATE_LIMIT, "Cache-Control"]));

/** The reference text of an interface-B operation: tag, an optional key unless it says otherwise, GET and HEAD unless it says otherwise. */
export function quizDoc(fields: Omit<OperationDoc, "tags" | "pathNote"> & { pathNote?: string }): OperationDoc {
  return { security: OPTIONAL_KEY, pathNote: GET_ONLY, ...fields, tags: ["Quiz"] };
}

export const WITH_KEY = { "X-API-Key": "$API_KEY" };
