/**
 * Building responses: JSON bodies with the headers of SPEC §6 (content type, CORS, caching,
 * ETag/304, gzip) from bodies that are already serialized.
 */

export const JSON_TYPE = "application/json; charset=utf-8";
export const PROBLEM_TYPE = "application/problem+json; charset=utf-8";

/** Headers browsers may read from a cross-origin response. */
export const EXPOSED_HEADERS = [
  "ETag",
  "RateLimit",
  "RateLimit-Policy",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "Retry-After",
  "X-Request-Id",
].join(", ");

/** CORS headers on every response (SPEC §6). */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": EXPOSED_HEADERS,
};

/** The answer to a CORS preflight on a known path. */
export function preflight(allow: readonly string[]): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      "Access-Control-Allow-Methods": [...allow, "OPTIONS"].join(", "),
      "Access-Control-Allow-Headers": "Content-Type, X-API-Key, Authorization, If-None-Match",
      "Access-Control-Max-Age": "86400",
      Allow: [...allow, "OPTIONS"].join(", "),
    },
  });
}

/** Caching policy of a response: interface A is public and validated by ETag; B is never stored. */
export type Caching = { etag: string } | "no-store";

export interface BodyOptions {
  status?: number;
  caching: Caching;
  headers?: Record<string, string>;
  contentType?: string;
}

/** Bodies of at least this many bytes are gzipped when the client accepts it. */
export const COMPRESS_MIN_BYTES = 1024;

const encoder = new TextEncoder();

/**
 * Sends a serialized body. Honours `If-None-Match` (304), `Accept-Encoding: gzip` for bodies of
 * 1 KiB or more (the gzip variant has its own strong ETag) and `HEAD`.
 */
export async function sendBody(request: Request, body: string, options: BodyOptions): Promise<Response> {
  const status = options.status ?? 200;
  const headers: Record<string, string> = { "Content-Type": options.contentType ?? JSON_TYPE, ...CORS_HEADERS, ...options.headers };
  const caching = options.caching;
  if (caching === "no-store") headers["Cache-Control"] = "no-store";
  else headers["Cache-Control"] = "public, max-age=86400";
  const large = isLarge(body);
  const gzip = large && acceptsGzip(request.headers.get("accept-encoding"));
  if (large) headers.Vary = "Accept-Encoding";
  if (caching !== "no-store") {
    const etag = gzip ? `"${caching.etag}-gz"` : `"${caching.etag}"`;
    headers.ETag = etag;
    if (status === 200 && matchesEtag(request.headers.get("if-none-match"), caching.etag)) {
      delete headers["Content-Type"];
      return new Response(null, { status: 304, headers });
    }
  }
  if (!gzip) {
    if (request.method !== "HEAD") return new Response(body, { status, headers });
    headers["Content-Length"] = String(encoder.encode(body).length);
    return new Response(null, { status, headers });
  }
  const payload = await gzipBytes(encoder.encode(body));
  headers["Content-Encoding"] = "gzip";
  headers["Content-Length"] = String(payload.length);
  return new Response(request.method === "HEAD" ? null : payload, { status, headers });
}

/** Whether the UTF-8 body reaches `COMPRESS_MIN_BYTES`, counted without encoding it. */
export function isLarge(text: string): boolean {
  if (text.length >= COMPRESS_MIN_BYTES) return true;
  if (text.length * 3 < COMPRESS_MIN_BYTES) return false;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A surrogate pair is one 4-byte character: 2 for each half.
    bytes += c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 2 : 3;
    if (bytes >= COMPRESS_MIN_BYTES) return true;
  }
  return false;
}

/** `If-None-Match` uses weak comparison (RFC 9110 §13.1.2): either representation's tag matches. */
function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => {
    const t = tag.trim().replace(/^W\//, "");
    return t === `"${etag}"` || t === `"${etag}-gz"`;
  });
}

function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  return header.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (coding !== "gzip" && coding !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return !q || Number(q.slice(2)) > 0;
  });
}

async function gzipBytes(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The path of an absolute URL string without parsing it (`http://h:1/a/b?q` → `/a/b`). */
export function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const end = url.search(/[?#]/);
  return end === -1 ? url.slice(start) : url.slice(start, end);
}
