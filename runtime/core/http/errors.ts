/**
 * The one error type of the service and its RFC 9457 formatter (docs/rules.md "Errors").
 * Handlers throw `ApiError`; anything else becomes a logged, generic 500.
 */

/** Stable machine-readable error codes. */
export type ErrorCode =
  | "invalid_parameter"
  | "not_found"
  | "method_not_allowed"
  | "invalid_key"
  | "key_expired"
  | "key_revoked"
  | "quota_exceeded"
  | "too_many_requests"
  | "unsupported_media_type"
  | "payload_too_large"
  | "conflict"
  | "forbidden"
  | "class_closed"
  | "class_full"
  | "class_limit"
  | "internal_error"
  | "service_unavailable";

const TITLES: Record<ErrorCode, string> = {
  invalid_parameter: "Invalid parameter",
  not_found: "Not found",
  method_not_allowed: "Method not allowed",
  invalid_key: "Invalid API key",
  key_expired: "API key expired",
  key_revoked: "API key revoked",
  quota_exceeded: "Daily quota exceeded",
  too_many_requests: "Too many requests",
  unsupported_media_type: "Unsupported media type",
  payload_too_large: "Payload too large",
  conflict: "Conflict",
  forbidden: "Forbidden",
  class_closed: "Class quiz closed",
  class_full: "Class quiz full",
  class_limit: "Class quiz limit reached",
  internal_error: "Internal server error",
  service_unavailable: "Service unavailable",
};

/** One bad field of a request body. */
export interface FieldError {
  param: string;
  detail: string;
}

/** `400 invalid_parameter` for one or more bad fields: `param` names the first, `detail` says what is wrong with each, `errors` lists them. */
export function invalidFields(errors: readonly FieldError[]): ApiError {
  const [first] = errors;
  if (first === undefined) throw new Error("invalidFields: no error");
  if (errors.length === 1) return invalidParameter(first.param, first.detail);
  return new ApiError(400, "invalid_parameter", `${errors.length} fields are invalid: ${errors.map((e) => e.detail).join("; ")}.`, first.param, {}, errors);
}

/** An error with its HTTP status, stable code and, for parameter errors, the parameter's name. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly detail: string,
    readonly param?: string,
    /** Extra response headers (e.g. `Allow`, `Retry-After`, rate-limit headers). */
    readonly headers: Record<string, string> = {},
    /** Every bad field of a request body, when there are several (the problem's `errors` member; `param` is the first). */
    readonly errors?: readonly FieldError[],
  ) {
    super(detail);
    this.name = "ApiError";
  }
}

/** `400 invalid_parameter` naming the parameter. */
export function invalidParameter(param: string, detail: string): ApiError {
  return new ApiError(400, "invalid_parameter", detail, param);
}

/** The problem-details body of an error, as a string; `mountPath` is where the host serves the service. */
export function problemBody(error: ApiError, requestId: string, mountPath = ""): string {
  return JSON.stringify({
    // A relative reference to the error table of the API reference served by this service.
    type: `${mountPath}/docs#error-${error.code}`,
    title: TITLES[error.code],
    status: error.status,
    detail: error.detail,
    code: error.code,
    success: false,
    ...(error.param === undefined ? {} : { param: error.param }),
    ...(error.errors === undefined ? {} : { errors: error.errors }),
    request_id: requestId,
  });
}

/** The `404` of a path no route serves; `mountPath` is where the host serves the service. */
export function noSuchRoute(mountPath: string): ApiError {
  return new ApiError(404, "not_found", `No such route. See ${mountPath}/docs for the API reference.`);
}

/** The token of an `Authorization: Bearer <token>` header (any case of the scheme), or `""`. */
export function bearerToken(headers: { get(name: string): string | null }): string {
  return /^Bearer\s+(\S.*)$/i.exec(headers.get("authorization") ?? "")?.[1] ?? "";
}

/** The error a non-`ApiError` exception is answered with: no internals. */
export function internalError(): ApiError {
  return new ApiError(500, "internal_error", "The server failed to answer this request. Quote the request_id when reporting it.");
}

/** `503 service_unavailable`: the quota store cannot answer now; `Retry-After` says when to try again. */
export function serviceUnavailable(retryAfterSeconds: number): ApiError {
  return new ApiError(
    503,
    "service_unavailable",
    "The service cannot count calls or read keys right now; nothing was counted. Try again after Retry-After seconds.",
    undefined,
    {
      "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))),
    },
  );
}
