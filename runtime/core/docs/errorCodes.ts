/**
 * The stable error codes of both interfaces (docs/rules.md "Errors") with the statuses they come with and when.
 * Keyed by `ErrorCode`, so a code added to `http/errors.ts` does not compile until it is documented.
 */
import type { ErrorCode } from "../http/errors.ts";
import { APPLICATIONS_PER_IP } from "../quota/plans.ts";
import type { ErrorCodeDoc } from "./types.ts";
import { HEAVY_READ, HEAVY_READS_IN_ALL, HEAVY_READS_PER_CLIENT } from "../routes/heavyReads.ts";
import { count } from "../util/count.ts";
import { MAX_WAITING } from "../classes/submissionQueue.ts";

const ERRORS: Record<ErrorCode, Omit<ErrorCodeDoc, "code">> = {
  invalid_parameter: {
    status: [400],
    title: "Invalid parameter",
    description:
      "A query parameter, path segment or body field is malformed or out of bounds, or given twice; `param` names it. " +
      "Integers must be plain decimal digits. Unknown query parameters are ignored. Also: `X-API-Key` and `api_key` both sent with different values (`param: api_key`), or `X-API-Key` sent twice (`param: X-API-Key`). " +
      "On the Node server, a request its HTTP parser refuses (non-ASCII bytes or a space in the request line, a malformed header) gets this code with no `param`; the `detail` says what to fix.",
  },
  not_found: {
    status: [404],
    title: "Not found",
    description:
      "No such route, no such character (`param: character`), idiom (`param: idx`), key (`param: id`) or class quiz (`param: code`: never made here, or erased with its results).",
  },
  method_not_allowed: {
    status: [405],
    title: "Method not allowed",
    description: "The path exists but not for this method; the `Allow` header lists the methods it has.",
  },
  invalid_key: {
    status: [401],
    title: "Invalid API key",
    description:
      "The API key is malformed or unknown; `param` names where it was sent (`X-API-Key` or `api_key`). It is never silently treated as the demo. " +
      "A key sent as `Authorization: Bearer hj_…` on interface B is refused the same way (`param: Authorization`), the `detail` saying where a key goes. " +
      "On admin routes: a missing or wrong `Authorization: Bearer` token (`param: Authorization`).",
  },
  key_expired: {
    status: [403],
    title: "API key expired",
    description:
      "The annual plan of this key ran out (one year after the deposit was confirmed). The `detail` says how to renew: the annual price by bank transfer with the key's payment reference (`HJ…`) as the depositor name; the operator renews it on the deposit. `GET /me` still reports the key.",
  },
  key_revoked: {
    status: [403],
    title: "API key revoked",
    description: "The operator revoked this key. `GET /me` still reports the key.",
  },
  quota_exceeded: {
    status: [429],
    title: "Daily quota exceeded",
    description: `The daily limit of the plan is used up, or a client made more than ${APPLICATIONS_PER_IP} applications today. \`Retry-After\` gives the seconds until the counters reset.`,
  },
  too_many_requests: {
    status: [429],
    title: "Too many requests",
    description: `\`POST /read\` of a text over ${count(HEAVY_READ)} characters while this client (its address, as the demo counts it) already has ${count(HEAVY_READS_PER_CLIENT)} such texts being read, or the server ${count(HEAVY_READS_IN_ALL)}. Nothing was read: send it again after the seconds in \`Retry-After\`. Also a submission to a class quiz while ${count(MAX_WAITING)} submissions to it wait their turn in the process: nothing stored or counted.`,
  },
  unsupported_media_type: {
    status: [415],
    title: "Unsupported media type",
    description: "`POST /subscribe` needs `Content-Type: application/json`; `POST /read` `text/plain` or `application/json`; both UTF-8.",
  },
  payload_too_large: {
    status: [413, 431],
    title: "Payload too large",
    description:
      "`413`: the request body is over 8 KiB (8,192 bytes) for `POST /subscribe`; for `POST /read`, its text is over 20,000 characters or the body over 256 KiB. `431`: on the Node server, the request's header section is over Node's 16 KiB limit.",
  },
  conflict: {
    status: [409],
    title: "Conflict",
    description:
      "An application with the same e-mail is already awaiting its deposit (`param: email`), the operator tried to confirm a revoked key (`param: id`), or a class quiz already has a submission under the name sent, with other answers (`param: name`: the first submission stands).",
  },
  forbidden: {
    status: [403],
    title: "Forbidden",
    description:
      "The results of a class quiz asked for with another key than the one that made it (`param: X-API-Key` or `api_key`); or a student's submission to a class quiz whose key is no longer active (expired or revoked: `param: code`), which the teacher must renew.",
  },
  class_closed: {
    status: [410],
    title: "Class quiz closed",
    description:
      "The class quiz no longer takes submissions: the hours its teacher chose have passed, or the service now runs another data release than the one its questions were drawn from (`param: code`). The teacher can still read its results until they are erased.",
  },
  class_full: {
    status: [429],
    title: "Class quiz full",
    description:
      "The class quiz has as many submissions as its teacher allowed (`students_max`, at most the server's `CLASS_STUDENTS_MAX`): nothing was stored or counted. No `Retry-After`: it stays full.",
  },
  class_limit: {
    status: [429],
    title: "Class quiz limit reached",
    description:
      "The key keeps as many class quizzes as the server allows (`CLASS_QUIZZES_PER_KEY`: open ones, and closed ones whose results are kept). Nothing was made or counted; room comes back as the oldest results are erased.",
  },
  internal_error: {
    status: [500],
    title: "Internal server error",
    description: "An unexpected failure. The body holds no internals; quote its `request_id` (also in `X-Request-Id`) when reporting it.",
  },
  service_unavailable: {
    status: [503],
    title: "Service unavailable",
    description:
      "The quota store (keys and daily counters) cannot answer now: down, busy past its time bound, or out of disk. Only interface B and the admin routes read it; " +
      "interface A and the reference are unaffected. Nothing was counted: retry after the seconds in `Retry-After`.",
  },
};

/** The error codes in a stable order (the order of `ErrorCode`). */
export const ERROR_CODES: ErrorCodeDoc[] = Object.entries(ERRORS).map(([code, doc]) => ({ code, ...doc }));

/** The codes that come with `status`. */
export function codesFor(status: number): ErrorCode[] {
  return ERROR_CODES.filter((e) => e.status.includes(status)).map((e) => e.code as ErrorCode);
}
