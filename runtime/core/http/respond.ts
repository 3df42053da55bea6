import { LRUCache } from "lru-cache";
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
  /** Names an unchanging body for the cache of compressed forms (default: a string body is its own name). */
  id?: string;
  headers?: Record<string, string>;
  contentType?: string;
}

/** Bodies of at least this many bytes are gzipped when the client accepts it. */
export const COMPRESS_MIN_BYTES = 1024;

const encoder = new TextEncoder();

/** Compressors a runtime can offer beyond the Web `CompressionStream` (which has gzip only). */
export interface Compressors {
  /** Brotli; entry points pass node:zlib's (Node, Bun and Deno all have it). */
  brotli?: (bytes: Uint8Array) => Promise<Uint8Array>;
}

/** Sends a serialized body with the service's headers (see `createSender`). */
export type Send = (request: Request, body: Body, options: BodyOptions) => Response | Promise<Response>;

/** A serialized body: text, or its UTF-8 bytes when they are kept ready (hot, unchanging bodies). */
export type Body = string | Uint8Array<ArrayBuffer>;

type Encoding = "br" | "gzip";
const ETAG_SUFFIX: Record<Encoding, string> = { br: "-br", gzip: "-gz" };

/**
 * The body sender of one app. Honours `If-None-Match` (304), `Accept-Encoding` for bodies of
 * 1 KiB or more (brotli when a compressor is given and the client prefers or accepts it, else
 * gzip; each variant has its own strong ETag) and `HEAD`. Compressed forms of cacheable bodies
 * (interface A, the docs) are kept in a bounded cache: the data never changes while the app runs.
 */
export function createSender(compressors: Compressors = {}): Send {
  const compressed = new LRUCache<string, Uint8Array<ArrayBuffer>>({ maxSize: 32_000_000, sizeCalculation: (b) => Math.max(1, b.length) });
  /** `id` names an unchanging body for the cache of compressed forms; undefined: not cached. */
  const compress = async (encoding: Encoding, body: Body, id: string | undefined): Promise<Uint8Array<ArrayBuffer>> => {
    const key = id === undefined ? undefined : `${encoding}\u0000${id}`;
    const hit = key === undefined ? undefined : compressed.get(key);
    if (hit) return hit;
    const bytes = typeof body === "string" ? encoder.encode(body) : body;
    const out = encoding === "br" && compressors.brotli ? new Uint8Array(await compressors.brotli(bytes)) : await gzipBytes(bytes);
    if (key !== undefined) compressed.set(key, out);
    return out;
  };

  // Not async: an uncompressed answer (the common case) is returned without a promise around it.
  return (request, body, options) => {
    const status = options.status ?? 200;
    const headers: Record<string, string> = { "Content-Type": options.contentType ?? JSON_TYPE, ...CORS_HEADERS, ...options.headers };
    const caching = options.caching;
    headers["Cache-Control"] = caching === "no-store" ? "no-store" : "public, max-age=86400";
    const large = typeof body === "string" ? isLarge(body) : body.length >= COMPRESS_MIN_BYTES;
    const encoding = large ? chooseEncoding(request.headers.get("accept-encoding"), Boolean(compressors.brotli)) : undefined;
    if (large) headers.Vary = "Accept-Encoding";
    if (caching !== "no-store") {
      headers.ETag = `"${caching.etag}${encoding ? ETAG_SUFFIX[encoding] : ""}"`;
      if (status === 200 && matchesEtag(request.headers.get("if-none-match"), caching.etag)) {
        const { "Content-Type": _type, ...notModified } = headers;
        return new Response(null, { status: 304, headers: notModified });
      }
    }
    if (!encoding) {
      if (request.method !== "HEAD") return new Response(body, { status, headers });
      headers["Content-Length"] = String(typeof body === "string" ? encoder.encode(body).length : body.length);
      return new Response(null, { status, headers });
    }
    const id = caching === "no-store" ? undefined : (options.id ?? (typeof body === "string" ? body : undefined));
    return compress(encoding, body, id).then((payload) => {
      headers["Content-Encoding"] = encoding;
      headers["Content-Length"] = String(payload.length);
      return new Response(request.method === "HEAD" ? null : payload, { status, headers });
    });
  };
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

/** `If-None-Match` uses weak comparison (RFC 9110 §13.1.2): any representation's tag matches. */
function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => {
    const t = tag.trim().replace(/^W\//, "");
    return t === `"${etag}"` || t === `"${etag}-gz"` || t === `"${etag}-br"`;
  });
}

/**
 * The coding to answer with: the accepted one (q > 0) with the highest q, brotli winning ties when
 * it is available; `*` stands for any coding not named. Undefined: send the body as it is.
 */
export function chooseEncoding(header: string | null, brotli: boolean): Encoding | undefined {
  if (!header) return undefined;
  const q = new Map<string, number>();
  for (const part of header.split(",")) {
    const [coding = "", ...params] = part.trim().toLowerCase().split(";");
    const weight = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = weight === undefined ? 1 : Number(weight.slice(2));
    q.set(coding.trim(), Number.isFinite(value) ? value : 0);
  }
  const weight = (coding: string) => q.get(coding) ?? q.get("*") ?? 0;
  const br = brotli ? weight("br") : 0;
  const gzip = weight("gzip");
  if (br > 0 && br >= gzip) return "br";
  return gzip > 0 ? "gzip" : undefined;
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
