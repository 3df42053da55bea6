/**
 * Request bodies of interface B (`POST /subscribe`, `POST /grade`): UTF-8 JSON only, at most
 * `MAX_BODY_BYTES` whatever `Content-Length` claims.
 */
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
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(type)?.[1];
  if (charset !== undefined && !isUtf8Label(charset)) {
    throw new ApiError(415, "unsupported_media_type", `Send ${what} as UTF-8 JSON (got charset ${JSON.stringify(charset.slice(0, 40))}).`);
  }
  return parseJson(await readBody(request));
}

/** `value` as a JSON object, else a `400` naming `body`. */
export function jsonObject(value: unknown): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalidParameter("body", "The body must be a JSON object.");
  return value as Record<string, unknown>;
}

/** Whether a charset label names UTF-8 (WHATWG Encoding: `utf-8`, `utf8`, `unicode-1-1-utf-8` …). */
function isUtf8Label(label: string): boolean {
  try {
    return new TextDecoder(label).encoding === "utf-8";
  } catch {
    return false;
  }
}

/** Reads at most `MAX_BODY_BYTES`, whatever `Content-Length` claims; more is a 413. */
async function readBody(request: RequestLike): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  const tooLarge = () => new ApiError(413, "payload_too_large", `The body may be at most ${MAX_BODY_BYTES} bytes.`);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch {
      // The client went away mid-upload (or its stream failed): its fault, not the server's.
      throw invalidParameter("body", "The body could not be read to its end.");
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.length;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw invalidParameter("body", "The body is not valid UTF-8.");
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw invalidParameter("body", "The body is not valid JSON.");
  }
}
