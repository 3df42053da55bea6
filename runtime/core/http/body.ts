/** Reading a request's body: bounded whatever `Content-Length` claims, decoded as UTF-8. */
import { ApiError, invalidParameter } from "./errors.ts";
import type { RequestLike } from "./reply.ts";

/**
 * Reads at most `maxBytes` of the body, whatever `Content-Length` claims, and decodes it as UTF-8;
 * more is `413` with `tooLarge` as its detail, bytes that are not UTF-8 a `400` naming the body.
 */
export async function readBody(request: RequestLike, maxBytes: number, tooLarge: string): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  const refuse = () => new ApiError(413, "payload_too_large", tooLarge);
  if (declared > maxBytes) throw refuse();
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
    if (size > maxBytes) {
      await reader.cancel();
      throw refuse();
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

/** True when a charset label names UTF-8 (`utf-8`, `UTF8`, `unicode-1-1-utf-8`). */
export function isUtf8Label(label: string): boolean {
  try {
    return new TextDecoder(label).encoding === "utf-8";
  } catch {
    return false;
  }
}

/**
 * Refuses a body whose `Content-Type` declares a charset other than UTF-8 (`415`); `sendAs` says
 * what to send instead ("the text as UTF-8"). No charset is UTF-8.
 */
export function refuseOtherCharset(contentType: string, sendAs: string): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType)?.[1];
  if (charset !== undefined && !isUtf8Label(charset)) {
    throw new ApiError(415, "unsupported_media_type", `Send ${sendAs} (got charset ${JSON.stringify(charset.slice(0, 40))}).`);
  }
}
