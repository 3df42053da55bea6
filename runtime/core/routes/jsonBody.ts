/**
 * Request bodies of interface B (`POST /subscribe`, `POST /grade`): UTF-8 JSON only, at most
 * `MAX_BODY_BYTES` whatever `Content-Length` claims.
 */
import { readBody, refuseOtherCharset } from "../http/body.ts";
import { ApiError, invalidParameter } from "../http/errors.ts";
import type { RequestLike } from "../http/reply.ts";
import { MAX_BODY_BYTES } from "../quota/plans.ts";

/** The body of `request` as parsed JSON; `415` for another media type or charset (`what` names the body in the message), `413` when too large, `400` naming `body` when not JSON. */
export async function readJson(request: RequestLike, what: string): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new ApiError(415, "unsupported_media_type", `Send ${what} as Content-Type: application/json (got ${JSON.stringify(type.slice(0, 60) || "none")}).`);
  }
  // JSON is UTF-8 (RFC 8259 §8.1): a body declared in another charset would be misread.
  refuseOtherCharset(type, `${what} as UTF-8 JSON`);
  return parseJson(await readBody(request, MAX_BODY_BYTES, `The body may be at most ${MAX_BODY_BYTES} bytes.`));
}

/** `value` as a JSON object, else a `400` naming `body`. */
export function jsonObject(value: unknown): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalidParameter("body", "The body must be a JSON object.");
  return value as Record<string, unknown>;
}

/** `text` parsed as JSON, else a `400` naming `body`. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw invalidParameter("body", "The body is not valid JSON.");
  }
}
