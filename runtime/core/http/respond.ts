/**
 * Building replies: JSON bodies with the headers of SPEC §6 (content type, CORS, caching,
 * ETag/304, gzip/brotli) from bodies that are already serialized.
 */
import { LRUCache } from "lru-cache";
import { type Reply, type RequestLike, reply } from "./reply.ts";

export const JSON_TYPE = "application/json; charset=utf-8";
export const PROBLEM_TYPE = "application/problem+json; charset=utf-8";

/**
 * The headers the service sends that a script on another origin may read only when the response
 * exposes them (they are not CORS-safelisted), spelt as the service writes them.
 */
const EXPOSABLE = ["Allow", "WWW-Authenticate", "ETag", "RateLimit", "RateLimit-Policy", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After", "X-Request-Id"];

/**
 * Adds the CORS headers of SPEC §6 to a response's own headers, once those are all set:
 * `Access-Control-Allow-Origin: *`, and `Access-Control-Expose-Headers` naming the headers of
 * `EXPOSABLE` this response carries (a character's detail: `ETag`; a quiz: the rate-limit
 * headers), none when it carries none. Naming a header a response lacks exposes nothing, so the
 * list is each response's own and costs no bytes on the others.
 */
export function withCors(headers: Record<string, string>): Record<string, string> {
  headers["Access-Control-Allow-Origin"] = "*";
  let exposed = "";
  for (const name of EXPOSABLE) if (name in headers) exposed = exposed === "" ? name : `${exposed}, ${name}`;
  if (exposed !== "") headers["Access-Control-Expose-Headers"] = exposed;
  return headers;
}

/** The request headers a preflight always allows: those the service reads. */
const ALLOWED_HEADERS = ["Content-Type", "X-API-Key", "Authorization", "If-None-Match"];

/** A method name or a comma-separated list of header names, as RFC 9110 tokens (what a preflight may echo). */
const TCHARS = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const TOKEN = new RegExp(`^${TCHARS}$`);
const TOKEN_LIST = new RegExp(`^${TCHARS}(?:[ \\t]*,[ \\t]*${TCHARS})*$`);

/**
 * The answer to `OPTIONS` on a path whose methods are `allow` (none: an unknown path). A CORS
 * preflight (`Access-Control-Request-Method` naming a method) is allowed on every path, for the
 * method and the headers it asks for (when they are a list of header names): the browser then sends the request itself, and the page reads the real
 * answer (a 404, a 405, a 401 …) instead of an opaque CORS failure. Cross-origin requests never
 * carry credentials here (`Access-Control-Allow-Origin: *`), so allowing them widens nothing. A
 * plain `OPTIONS` gets the path's `Allow`, and on an unknown path `undefined` (the caller's 404).
 */
export function optionsReply(allow: readonly string[], request: RequestLike): Reply | undefined {
  const methods = allow.length > 0 ? [...allow, "OPTIONS"] : [];
  // What a browser sends is a method token; anything else (empty included) is no preflight.
  const method = request.headers.get("access-control-request-method")?.trim() ?? "";
  const preflight = TOKEN.test(method);
  if (!preflight && methods.length === 0) return undefined;
  // Header names by lower case, the service's own first; a preflight adds those it asks for.
  const allowHeaders = new Map(ALLOWED_HEADERS.map((name) => [name.toLowerCase(), name]));
  const asked = preflight ? (request.headers.get("access-control-request-headers")?.trim() ?? "") : "";
  if (TOKEN_LIST.test(asked)) {
    for (const name of asked.split(",").map((part) => part.trim())) {
      if (!allowHeaders.has(name.toLowerCase())) allowHeaders.set(name.toLowerCase(), name);
    }
  }
  const headers: Record<string, string> = {
    "Access-Control-Allow-Methods": (preflight && !methods.includes(method) ? [...methods, method] : methods).join(", "),
    "Access-Control-Allow-Headers": [...allowHeaders.values()].join(", "),
    "Access-Control-Max-Age": "86400",
  };
  if (preflight) headers.Vary = "Access-Control-Request-Method, Access-Control-Request-Headers";
  if (methods.length > 0) headers.Allow = methods.join(", ");
  return reply(204, withCors(headers), null);
}

/** Caching policy of a response: interface A is public and validated by ETag; B is never stored. */
export type Caching = { etag: string } | "no-store";

export interface BodyOptions {
  status?: number;
  caching: Caching;
  /** Names an unchanging body, whose replies are then built once and shared (default: a string body is its own name). */
  id?: string;
  headers?: Record<string, string>;
  contentType?: string;
  /** The UTF-8 length of a text body, when the caller knows it (it is then not measured). */
  byteLength?: number;
  /**
   * `false` when the answer depends on more than the request target (the page at `/`, chosen by
   * `Accept`): it is then never replayed for the target alone.
   */
  replay?: false;
}

/** Bodies of at least this many bytes are gzipped when the client accepts it. */
export const COMPRESS_MIN_BYTES = 1024;

const encoder = new TextEncoder();

/** Compressors a runtime can offer beyond the Web `CompressionStream` (which has gzip only). */
export interface Compressors {
  /** Brotli; entry points pass node:zlib's (Node, Bun and Deno all have it). */
  brotli?: (bytes: Uint8Array) => Promise<Uint8Array>;
  /** Gzip; default: the Web `CompressionStream`. Entry points pass node:zlib's, which is quicker. */
  gzip?: (bytes: Uint8Array) => Promise<Uint8Array>;
}

/** Sends a serialized body with the service's headers (see `createSender`). */
export type Send = (request: RequestLike, body: Body, options: BodyOptions) => Reply | Promise<Reply>;

/** The body sender of one app, and the answers it remembers. */
export interface Sender {
  send: Send;
  /**
   * The answer to a GET or HEAD whose request target (path and query) was answered before with a
   * cacheable body, negotiated for this request (encoding, 304, HEAD); undefined when there is none.
   */
  replay(request: RequestLike): Reply | Promise<Reply> | undefined;
}

/** A serialized body: text, or its UTF-8 bytes when they are kept ready (hot, unchanging bodies). */
export type Body = string | Uint8Array<ArrayBuffer>;

type Encoding = "br" | "gzip";
const ETAG_SUFFIX: Record<Encoding, string> = { br: "-br", gzip: "-gz" };

/**
 * The body sender of one app. Honours `If-None-Match` (304), `Accept-Encoding` for bodies of
 * 1 KiB or more (brotli when a compressor is given and the client prefers or accepts it, else
 * gzip; each variant has its own strong ETag) and `HEAD`. Cacheable bodies (interface A, the docs)
 * never change while the app runs, and each is a function of the request target alone, so their
 * replies — each encoding, 304 and HEAD forms included — are built once and kept, shared, in a
 * bounded cache, and the body sent for each target is remembered for `replay`.
 */
export function createSender(compressors: Compressors = {}): Sender {
  // Per body (named by its id, or a string body by itself: V8 keeps a string's hash, so looking up
  // the same body string costs no more than a short key), its replies by encoding and form.
  const shared = new LRUCache<string, (Reply | undefined)[]>({ maxSize: 64_000_000 });
  const answers = new LRUCache<string, Prepared>({
    maxSize: 32_000_000,
    sizeCalculation: (a, target) => target.length + Math.max(64, a.body.length),
  });
  const brotli = Boolean(compressors.brotli);
  // The coding chosen for each Accept-Encoding value seen: clients send a handful of values, and
  // parsing one costs more than the rest of answering a remembered reply.
  const codings = new Map<string, Encoding | undefined>();
  const codingFor = (header: string | null): Encoding | undefined => {
    if (!header) return undefined;
    const known = codings.get(header);
    if (known !== undefined || codings.has(header)) return known;
    const chosen = chooseEncoding(header, brotli);
    if (header.length <= 256) {
      if (codings.size >= 256) codings.clear();
      codings.set(header, chosen);
    }
    return chosen;
  };
  const encode = async (encoding: Encoding, body: Body, tagged: boolean): Promise<Uint8Array<ArrayBuffer>> => {
    const bytes = typeof body === "string" ? encoder.encode(body) : body;
    // A tagged body's gzip form carries a strong ETag, so it must be the same bytes wherever it is
    // made (fixedGzip.ts, imported on the first such body). It is made once per body; untagged
    // bodies (interface B) use the faster native compressor.
    if (encoding === "gzip" && tagged) return (await import("./fixedGzip.ts")).fixedGzip(bytes);
    const compress = encoding === "br" ? compressors.brotli : compressors.gzip;
    return compress ? new Uint8Array(await compress(bytes)) : gzipBytes(bytes);
  };

  /** The reply for one (body, encoding, method, validator) combination; `shared` when it is cached. */
  const build = (request: RequestLike, body: Body, options: BodyOptions, encoding: Encoding | undefined, large: boolean, notModified: boolean, share: boolean): Reply | Promise<Reply> => {
    const status = options.status ?? 200;
    const caching = options.caching;
    const headers: Record<string, string> = { "Content-Type": options.contentType ?? JSON_TYPE, ...options.headers };
    headers["Cache-Control"] = caching === "no-store" ? "no-store" : "public, max-age=86400";
    if (large) headers.Vary = headers.Vary ? `${headers.Vary}, Accept-Encoding` : "Accept-Encoding";
    if (caching !== "no-store") headers.ETag = variantTag(caching.etag, encoding);
    withCors(headers);
    if (notModified) {
      const { "Content-Type": _type, ...rest } = headers;
      return { status: 304, headers: rest, body: null, shared: share };
    }
    const head = request.method === "HEAD";
    if (!encoding) {
      if (!head) return { status, headers, body, shared: share, bodyBytes: typeof body === "string" ? options.byteLength : undefined };
      headers["Content-Length"] = String(typeof body === "string" ? (options.byteLength ?? utf8Length(body)) : body.length);
      return { status, headers, body: null, shared: share };
    }
    return encode(encoding, body, caching !== "no-store").then((payload) => {
      headers["Content-Encoding"] = encoding;
      headers["Content-Length"] = String(payload.length);
      return { status, headers, body: head ? null : payload, shared: share };
    });
  };

  /** A body ready to be negotiated: its size class and, for a cacheable body, its shared replies. */
  const prepare = (body: Body, options: BodyOptions): Prepared => {
    const large = typeof body === "string" ? (options.byteLength === undefined ? isLarge(body) : options.byteLength >= COMPRESS_MIN_BYTES) : body.length >= COMPRESS_MIN_BYTES;
    const id = options.caching === "no-store" ? undefined : (options.id ?? (typeof body === "string" ? body : undefined));
    if (id === undefined) return { body, options, large, forms: undefined };
    let forms = shared.get(id);
    // Sized as the body about twice over: the plain form and the smaller compressed ones.
    if (forms === undefined) shared.set(id, (forms = []), { size: 256 + 2 * (typeof body === "string" ? 2 * body.length : body.length) });
    return { body, options, large, forms };
  };

  // Not async: a cached or uncompressed reply (the common cases) is returned without a promise around it.
  const negotiate = (request: RequestLike, { body, options, large, forms }: Prepared): Reply | Promise<Reply> => {
    const encoding = large ? codingFor(request.headers.get("accept-encoding")) : undefined;
    const caching = options.caching;
    const notModified = caching !== "no-store" && (options.status ?? 200) === 200 && matchesEtag(request.headers.get("if-none-match"), caching.etag, encoding);
    if (forms === undefined) return build(request, body, options, encoding, large, notModified, false);
    const slot = (encoding === undefined ? 0 : encoding === "gzip" ? 3 : 6) + (notModified ? 2 : request.method === "HEAD" ? 1 : 0);
    const hit = forms[slot];
    if (hit) return hit;
    const made = build(request, body, options, encoding, large, notModified, true);
    const keep = (r: Reply) => ((forms[slot] = r), r);
    return "then" in made ? made.then(keep) : keep(made);
  };

  return {
    send(request, body, options) {
      const prepared = prepare(body, options);
      if (prepared.forms !== undefined && options.replay !== false && (request.method === "GET" || request.method === "HEAD")) answers.set(targetOf(request.url), prepared);
      return negotiate(request, prepared);
    },
    replay(request) {
      if (request.method !== "GET" && request.method !== "HEAD") return undefined;
      const prepared = answers.get(targetOf(request.url));
      return prepared && negotiate(request, prepared);
    },
  };
}

/** A body with what negotiating it needs; `forms`: the shared replies of a cacheable body, by encoding and form. */
interface Prepared {
  body: Body;
  options: BodyOptions;
  large: boolean;
  forms: (Reply | undefined)[] | undefined;
}

/** The UTF-8 length of a text body (the Content-Length a HEAD answer states for it). */
export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

// Scratch space for `isLarge`: only whether a body fills it matters, never what is written.
const sizeProbe = new Uint8Array(COMPRESS_MIN_BYTES);

/** Whether the UTF-8 body reaches `COMPRESS_MIN_BYTES`: encoded into a buffer of that size, natively, to see if it fills it. */
export function isLarge(text: string): boolean {
  if (text.length >= COMPRESS_MIN_BYTES) return true;
  if (text.length * 3 < COMPRESS_MIN_BYTES) return false;
  // encodeInto stops before a character that does not fit whole: the body is larger when not all was read.
  const { read, written } = encoder.encodeInto(text, sizeProbe);
  return read < text.length || written === COMPRESS_MIN_BYTES;
}

/** The strong ETag of one encoding of a body: each encoding is its own representation. */
function variantTag(etag: string, encoding: Encoding | undefined): string {
  return `"${etag}${encoding ? ETAG_SUFFIX[encoding] : ""}"`;
}

/**
 * Whether `If-None-Match` names the tag of the representation selected for this request, the
 * body's `encoding` (RFC 9110 §13.1.2, weak comparison: a `W/` prefix is ignored). A tag of another
 * encoding does not match: a cache holding only that encoding could not use a 304 naming this one.
 */
function matchesEtag(header: string | null, etag: string, encoding: Encoding | undefined): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const tag = variantTag(etag, encoding);
  return header.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === tag);
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

/** Path and query of an absolute URL string without parsing it (`http://h:1/a/b?q#f` → `/a/b?q`). */
export function targetOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const hash = url.indexOf("#", start);
  return hash === -1 ? url.slice(start) : url.slice(start, hash);
}

/** The path of an absolute URL string without parsing it (`http://h:1/a/b?q` → `/a/b`). */
export function pathOf(url: string): string {
  const target = targetOf(url);
  const query = target.indexOf("?");
  return query === -1 ? target : target.slice(0, query);
}
