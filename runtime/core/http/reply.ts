/**
 * What the core answers before any runtime's `Response` exists. Routes produce a `Reply`; `app.fetch`
 * turns it into a Web `Response`, while the entry points hand it to their server in the cheapest
 * form that server has (node:http writes it directly; Bun and Deno clone a ready `Response` for
 * a shared reply).
 */

/** A response: status, headers, and a body already serialized (null: none, as for HEAD or 304). */
export interface Reply {
  readonly status: number;
  /**
   * The header fields. An unshared reply's object belongs to it alone, so the server writing it may
   * add a field (Content-Length) in place; a shared reply's must not be changed.
   */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array<ArrayBuffer> | null;
  /** The UTF-8 length of a text body when it is known without measuring it (a server may use it as Content-Length). */
  readonly bodyBytes?: number;
  /**
   * True when this very object answers every request of its kind (an unchanging body in a given
   * encoding): a server may keep one `Response` per shared reply and clone it.
   */
  readonly shared: boolean;
}

/** Per-request information the embedding server knows. */
export interface ServeInfo {
  /**
   * The TCP peer's address. Read only by routes that need it (interface B), so it may be a getter.
   * Without it (and without trusted `X-Forwarded-For` hops), every caller without a key shares one
   * demo quota, and one limit of applications a day on `POST /subscribe`.
   */
  readonly clientAddress?: string;
}

/** What the core reads from a request. A Web `Request` is one; node:http adapters pass a lighter view. */
export interface RequestLike {
  readonly method: string;
  /** Absolute URL; only its path and query are used. */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
  /** The request body; read only by the routes that take one (POST). */
  readonly body?: ReadableStream<Uint8Array> | null;
}

/** A fresh Web `Response` for a reply. */
export function toResponse(reply: Reply): Response {
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}

/** An unshared reply. */
export function reply(status: number, headers: Record<string, string>, body: Reply["body"]): Reply {
  return { status, headers, body, shared: false };
}
