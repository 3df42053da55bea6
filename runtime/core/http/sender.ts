/**
 * Sending bodies that are already serialized, with the service's headers (content type, CORS,
 * caching, ETag/304, gzip/brotli; the rules: docs/rules.md "Headers"), and remembering the
 * answers to cacheable targets. CORS, codings, tags and URL parts each live in their own file.
 */
import { LRUCache } from "lru-cache";
import { utf8Length } from "../util/utf8Length.ts";
import { type CacheBudget, ENTRY_BYTES, bodyBytes, cacheBudget, stringBytes } from "../util/cacheBudget.ts";
import { withAnswerHeaders } from "./answerHeaders.ts";
import { type Compressors, type Encoding, chooseEncoding, encodeBody } from "./encoding.ts";
import { matchesEtag, variantTag } from "./etag.ts";
import type { Reply, RequestLike } from "./reply.ts";
import { targetOf } from "./target.ts";

export const JSON_TYPE = "application/json; charset=utf-8";
export const PROBLEM_TYPE = "application/problem+json; charset=utf-8";

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
  /**
   * `false` for a body that is one of unboundedly many (a reading of free text): its replies are
   * built for this request only, neither shared nor replayed, so that such answers never push the
   * remembered ones (details, pages) out of the bounded caches.
   */
  keep?: false;
}

/** Bodies of at least this many bytes are gzipped when the client accepts it. */
export const COMPRESS_MIN_BYTES = 1024;

const encoder = new TextEncoder();

/*
 * Where a cacheable body keeps its shared replies (`Replies.forms`): one row per encoding, one
 * column per form of the answer.
 */
/** The full answer to a GET. */
const FULL = 0;
/** The answer to a HEAD: headers only. */
const HEAD = 1;
/** The 304 to a matching `If-None-Match`. */
const NOT_MODIFIED = 2;
/** Forms per encoding: the width of a row. */
const FORMS = 3;
const IDENTITY_ROW = 0;
const GZIP_ROW = FORMS;
const BR_ROW = 2 * FORMS;

/** Sends a serialized body with the service's headers (see `createSender`). */
export type Send = (request: RequestLike, body: Body, options: BodyOptions) => Reply | Promise<Reply>;

/** The body sender of one app, and the answers it remembers. */
export interface Sender {
  send: Send;
  /**
   * The answer to a GET or HEAD whose request target (path and query) was answered before with a
   * cacheable body, negotiated for this request (encoding, 304, HEAD); undefined when there is none.
   * `answered.route` becomes the path template of the route that first answered it.
   */
  replay(request: RequestLike, answered?: { route?: string }): Reply | Promise<Reply> | undefined;
  /**
   * Keeps `route`, the path template of the operation that answered `request`, with the answer it
   * left to replay (when it left one), so that a replayed answer is counted under its operation too.
   */
  noteRoute(request: RequestLike, route: string): void;
}

/** A serialized body: text, or its UTF-8 bytes when they are kept ready (hot, unchanging bodies). */
export type Body = string | Uint8Array<ArrayBuffer>;

/**
 * The body sender of one app. Honours `If-None-Match` (304), `Accept-Encoding` for bodies of
 * 1 KiB or more (brotli when a compressor is given and the client prefers or accepts it, else
 * gzip; each variant has its own strong ETag) and `HEAD`. Cacheable bodies (interface A, the docs)
 * never change while the app runs, and each is a function of the request target alone, so their
 * replies — each encoding, 304 and HEAD forms included — are built once and kept, shared, in a
 * cache bounded by the bytes it holds (`budget`: util/cacheBudget.ts), and the body sent for each target
 * is remembered for `replay`.
 */
export function createSender(compressors: Compressors = {}, budget: Pick<CacheBudget, "replies" | "answers"> = cacheBudget()): Sender {
  // Per body (named by its id, or a string body by itself: V8 keeps a string's hash, so looking up
  // the same body string costs no more than a short key), its replies by encoding and form, sized
  // by the replies it holds (counted again each time one is added, `keep`). Only this cache holds
  // them: a remembered answer finds them here by its body's id.
  const shared = new LRUCache<string, Replies>({ maxSize: budget.replies });
  // Per request target, the body answered (counted here too: an answer keeps its body alive after
  // the caches that made it let it go).
  const answers = new LRUCache<string, Prepared>({
    maxSize: budget.answers,
    sizeCalculation: (a, target) => ENTRY_BYTES + PREPARED_BYTES + stringBytes(target) + bodyBytes(a.body),
  });
  // The longest target ever remembered: a longer one (a `/read` of free text, 1.5 KB for 200
  // characters) cannot be among them, and is not looked up, which would hash the whole of it.
  let longest = 0;
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
  const encode = (encoding: Encoding, body: Body, tagged: boolean) => encodeBody(encoding, body, tagged, compressors);

  /** The reply for one (body, encoding, method, validator) combination; `shared` when it is cached. */
  const build = (
    request: RequestLike,
    body: Body,
    options: BodyOptions,
    encoding: Encoding | undefined,
    large: boolean,
    notModified: boolean,
    share: boolean,
  ): Reply | Promise<Reply> => {
    const status = options.status ?? 200;
    const caching = options.caching;
    const headers: Record<string, string> = { "Content-Type": options.contentType ?? JSON_TYPE, ...options.headers };
    headers["Cache-Control"] = caching === "no-store" ? "no-store" : "public, max-age=86400";
    if (large) headers.Vary = headers.Vary ? `${headers.Vary}, Accept-Encoding` : "Accept-Encoding";
    if (caching !== "no-store") headers.ETag = variantTag(caching.etag, encoding);
    withAnswerHeaders(headers);
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

  /** A body ready to be negotiated: its size class and, for a cacheable body, the id its shared replies are kept by. */
  const prepare = (body: Body, options: BodyOptions): Prepared => {
    const large =
      typeof body === "string"
        ? options.byteLength === undefined
          ? isLarge(body)
          : options.byteLength >= COMPRESS_MIN_BYTES
        : body.length >= COMPRESS_MIN_BYTES;
    const id = options.caching === "no-store" || options.keep === false ? undefined : (options.id ?? (typeof body === "string" ? body : undefined));
    return { body, options, large, id, route: undefined };
  };

  /** The shared replies of a cacheable body (made empty when there are none yet). */
  const repliesOf = (id: string, body: Body): (Reply | undefined)[] => {
    const kept = shared.get(id);
    if (kept !== undefined) return kept.forms;
    const forms: (Reply | undefined)[] = [];
    shared.set(id, { forms }, { size: repliesBytes(id, body, forms) });
    return forms;
  };

  // Not async: a cached or uncompressed reply (the common cases) is returned without a promise around it.
  const negotiate = (request: RequestLike, { body, options, large, id }: Prepared): Reply | Promise<Reply> => {
    const encoding = large ? codingFor(request.headers.get("accept-encoding")) : undefined;
    const caching = options.caching;
    const notModified = caching !== "no-store" && (options.status ?? 200) === 200 && matchesEtag(request.headers.get("if-none-match"), caching.etag, encoding);
    if (id === undefined) return build(request, body, options, encoding, large, notModified, false);
    const forms = repliesOf(id, body);
    const slot =
      (encoding === undefined ? IDENTITY_ROW : encoding === "gzip" ? GZIP_ROW : BR_ROW) +
      (notModified ? NOT_MODIFIED : request.method === "HEAD" ? HEAD : FULL);
    const hit = forms[slot];
    if (hit) return hit;
    const made = build(request, body, options, encoding, large, notModified, true);
    const keep = (r: Reply) => {
      forms[slot] = r;
      // Counted again with the new reply (a new holder, so that lru-cache sizes it anew), unless the
      // replies were let go meanwhile (a compression under way).
      if (shared.peek(id)?.forms === forms) shared.set(id, { forms }, { size: repliesBytes(id, body, forms) });
      return r;
    };
    return "then" in made ? made.then(keep) : keep(made);
  };

  return {
    send(request, body, options) {
      const prepared = prepare(body, options);
      if (prepared.id !== undefined && options.replay !== false && (request.method === "GET" || request.method === "HEAD")) {
        const target = targetOf(request.url);
        if (target.length > longest) longest = target.length;
        answers.set(target, prepared);
      }
      return negotiate(request, prepared);
    },
    replay(request, answered) {
      if (request.method !== "GET" && request.method !== "HEAD") return undefined;
      const target = targetOf(request.url);
      const prepared = target.length > longest ? undefined : answers.get(target);
      if (prepared === undefined) return undefined;
      if (answered) answered.route = prepared.route;
      return negotiate(request, prepared);
    },
    noteRoute(request, route) {
      if (request.method !== "GET" && request.method !== "HEAD") return;
      const prepared = answers.peek(targetOf(request.url));
      if (prepared !== undefined) prepared.route = route;
    },
  };
}

/** What a remembered answer's own objects cost (`Prepared`, beside its target and body). */
const PREPARED_BYTES = 96;
/**
 * What one shared reply's objects cost: the reply and its headers (beside a compressed body). The
 * ready `Response` the Bun and Deno servers keep beside a shared reply (`entry/responses.ts`) is
 * not counted.
 */
const REPLY_BYTES = 640;

/** The shared replies of a body: a holder, made anew each time a reply is added, so that lru-cache counts the entry again. */
interface Replies {
  forms: (Reply | undefined)[];
}

/** What a body's shared replies cost: the entry, its id (a string body is its own id), the body, each reply and each compressed body. */
function repliesBytes(id: string, body: Body, forms: readonly (Reply | undefined)[]): number {
  let bytes = ENTRY_BYTES + (id === body ? 0 : stringBytes(id)) + bodyBytes(body);
  for (const reply of forms) {
    if (reply === undefined) continue;
    bytes += REPLY_BYTES;
    if (reply.body instanceof Uint8Array && reply.body !== body) bytes += bodyBytes(reply.body);
  }
  return bytes;
}

/** A body with what negotiating it needs; `id`: the name its shared replies are kept by, for a cacheable body. */
interface Prepared {
  body: Body;
  options: BodyOptions;
  large: boolean;
  id: string | undefined;
  /** The path template of the route that answered with it, for a remembered answer. */
  route?: string;
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
