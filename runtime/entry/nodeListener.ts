/**
 * The service as a node:http request listener, without a Web `Request`/`Response` per call: a
 * GET, HEAD or OPTIONS request is handed to the core as a light view of the `IncomingMessage`
 * (method, URL, headers), and the core's `Reply` is written with `writeHead`/`end`. Requests with
 * a body (POST) go through a Web `Request` with the body streamed. Used by the Node server and
 * exported for servers that embed the service (`hanja-api/node`).
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { App } from "../core/app.ts";
import type { Reply, RequestLike } from "../core/http/reply.ts";

/** Only the path and query of a URL reach the routes; this origin completes origin-form targets. */
const ORIGIN = "http://localhost";

/** A request listener answering every request with `app`. */
export function nodeListener(app: App): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = targetUrl(req.url ?? "/");
    if (url === null) return void res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" }).end("Bad request target\n");
    const method = req.method ?? "GET";
    const request: RequestLike = method === "GET" || method === "HEAD" || method === "OPTIONS" ? new IncomingView(method, url, req.headers) : webRequest(req, method, url);
    try {
      const reply = app.handle(request, new PeerOf(req));
      if ("then" in reply) reply.then((r) => writeOrFail(res, r), (error: unknown) => fail(res, error));
      else write(res, reply);
    } catch (error) {
      fail(res, error);
    }
  };
}

/** The peer address, looked up only when a route asks for it (interface B's demo quota). */
class PeerOf {
  constructor(private readonly req: IncomingMessage) {}
  get clientAddress(): string | undefined {
    return this.req.socket.remoteAddress;
  }
}

/** handle() answers its own errors; this is a failure outside it (the access log, the socket). */
function fail(res: ServerResponse, error: unknown): void {
  console.error(error);
  if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("Internal error\n");
  else res.destroy();
}

/** `write` for a reply that came later, outside the listener's own try. */
function writeOrFail(res: ServerResponse, reply: Reply): void {
  try {
    write(res, reply);
  } catch (error) {
    fail(res, error);
  }
}

/** Headers of shared replies with their Content-Length added, made once per reply. */
const withLength = new WeakMap<Reply, Record<string, string>>();

/**
 * Writes a reply with a Content-Length (node:http would otherwise send a body after `writeHead`
 * chunked): added in place to an unshared reply's headers, which are its own, and to a copy,
 * made once, of a shared reply's.
 */
function write(res: ServerResponse, reply: Reply): void {
  const { body } = reply;
  if (body === null) return void res.writeHead(reply.status, reply.headers).end();
  let headers = reply.shared ? withLength.get(reply) : (reply.headers as Record<string, string>);
  if (headers === undefined) withLength.set(reply, (headers = { ...reply.headers, "Content-Length": String(byteLength(reply, body)) }));
  else if (!reply.shared) headers["Content-Length"] = String(byteLength(reply, body));
  res.writeHead(reply.status, headers).end(body);
}

function byteLength(reply: Reply, body: string | Uint8Array): number {
  return typeof body === "string" ? (reply.bodyBytes ?? Buffer.byteLength(body)) : body.length;
}

/** The absolute URL of a request target: origin-form (`/path?q`) or absolute-form; null for anything else (`*`). */
function targetUrl(target: string): string | null {
  if (target.startsWith("/")) return ORIGIN + target;
  return URL.canParse(target) && /^https?:\/\//i.test(target) ? target : null;
}

/**
 * The request as the core reads it: method, URL, headers. Node joins most repeated fields with
 * ", ", as `Headers.get` does, but keeps only the first of a few that may not repeat (Host,
 * Authorization, Content-Type, …); a request repeating those is malformed anyway.
 */
class IncomingView implements RequestLike {
  readonly headers: HeadersView;
  constructor(
    readonly method: string,
    readonly url: string,
    incoming: IncomingHttpHeaders,
  ) {
    this.headers = new HeadersView(incoming);
  }
  get body(): null {
    return null;
  }
}

/** `Headers.get` over node:http's parsed headers. */
class HeadersView {
  constructor(private readonly incoming: IncomingHttpHeaders) {}
  get(name: string): string | null {
    const value = this.incoming[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  }
}

/** A Web `Request` with the body streamed from the socket, for the routes that read a body. */
function webRequest(req: IncomingMessage, method: string, url: string): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  return new Request(url, {
    method,
    headers,
    // node:stream/web and the DOM typings describe the same ReadableStream differently.
    body: Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>,
    duplex: "half",
  } as RequestInit & { duplex: "half" });
}
