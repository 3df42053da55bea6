/**
 * The service as a node:http request listener, without a Web `Request`/`Response` per call: a
 * GET, HEAD or OPTIONS request is handed to the core as a light view of the `IncomingMessage`
 * (method, URL, headers), and the core's `Reply` is written with `writeHead`/`end`. Requests with
 * a body (POST) go through a Web `Request` with the body streamed. Used by the Node server and
 * exported for servers that embed the service (`hanja-api/node`).
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { Duplex } from "node:stream";
import { Readable } from "node:stream";
import type { App } from "../core/app.ts";
import type { Reply, RequestLike } from "../core/http/reply.ts";
import { nextTurn } from "../core/util/nextTurn.ts";

/** Only the path and query of a URL reach the routes; this origin completes origin-form targets. */
const ORIGIN = "http://localhost";

/**
 * Methods handed to the core without a body: those of the GET routes and OPTIONS, and TRACE, which
 * node:http parses but a Web `Request` refuses to represent (`new Request` throws); no route
 * serves it, and the core answers it with 405 or 404 like any other method.
 */
const WITHOUT_BODY = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);

/** A request listener answering every request with `app` (pair it with `clientErrorListener`). */
export function nodeListener(app: App): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = targetUrl(req.url ?? "/");
    if (url === null) return void write(res, app.refuse(400, "The request target must be a path (/hanja/v1/meta) or an absolute http(s) URL."));
    const method = req.method ?? "GET";
    try {
      const request: RequestLike = WITHOUT_BODY.has(method) ? new IncomingView(method, url, req.headers) : webRequest(req, method, url);
      const reply = app.handle(request, new PeerOf(req));
      if ("then" in reply)
        reply.then(
          (r) => writeOrFail(res, r),
          (error: unknown) => fail(res, error),
        );
      else writeThisTurn(req, res, reply);
    } catch (error) {
      fail(res, error);
    }
  };
}

/**
 * A `clientError` listener for a node:http server running `app`: node:http's parser refuses a
 * request it cannot parse before any listener sees it, and by default answers with a bare status
 * line. This answers with the service's problem details instead (docs/rules.md "Errors"), under node:http's own
 * rules: nothing is written once a response on the connection has begun, a timeout keeps its bare
 * `408`, and the connection is closed. The commonest cause is a client sending raw UTF-8 in the
 * query (curl does), which Bun and Deno accept and Node does not.
 */
export function clientErrorListener(app: App): (error: Error & { code?: string; reason?: string }, socket: Duplex) => void {
  return (error, socket) => {
    const pending = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || pending?.headersSent) return void socket.destroy();
    if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") return void socket.end("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n");
    const reply =
      error.code === "HPE_HEADER_OVERFLOW"
        ? app.refuse(431, "The request's header section is larger than the server accepts.")
        : app.refuse(400, parseFailure(error));
    socket.end(closingAnswer(reply));
  };
}

/**
 * A `connect` listener for a node:http server running `app`: node:http hands a CONNECT request to
 * this event instead of the request listener, and with no listener closes the connection without
 * an answer. Here the core answers it as on Bun (`405` with `Allow` on a known path, `404`
 * otherwise; an authority-form target such as `example.com:443` is the path `/`, the page, so
 * `405`: this server is no proxy), and the connection is closed after the answer.
 */
export function connectListener(app: App): (req: IncomingMessage, socket: Duplex) => void {
  return (req, socket) => {
    const url = targetUrl(req.url ?? "/") ?? `${ORIGIN}/`;
    const answer = (reply: Reply) => void (socket.writable ? socket.end(closingAnswer(reply)) : socket.destroy());
    try {
      const reply = app.handle(new IncomingView(req.method ?? "CONNECT", url, req.headers), new PeerOf(req));
      if ("then" in reply) reply.then(answer, () => socket.destroy());
      else answer(reply);
    } catch {
      socket.destroy();
    }
  };
}

/**
 * node:http's reason phrases, required when a raw answer is first written: importing node:http with
 * the package would slow Bun's and Deno's first answer (see RESULTS.md, "First answers when
 * embedded"), and only a node:http server (which has loaded it already) writes raw answers.
 */
let statusCodes: Readonly<Record<number, string | undefined>> | undefined;
const reasonOf = (status: number) => (statusCodes ??= (createRequire(import.meta.url)("node:http") as typeof import("node:http")).STATUS_CODES)[status];

/** A reply as the raw bytes of a whole answer that ends its connection (written on a socket node:http no longer serves). */
function closingAnswer(reply: Reply): string {
  const body = typeof reply.body === "string" ? reply.body : "";
  let head = `HTTP/1.1 ${reply.status} ${reasonOf(reply.status)}\r\n`;
  for (const [name, value] of Object.entries(reply.headers)) head += `${name}: ${value}\r\n`;
  return `${head}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/**
 * What a 400 for an unparseable request says: how to send a target with characters outside ASCII
 * (the commonest cause), else what node:http's parser refused (its reason names no internals).
 */
function parseFailure(error: { code?: string; reason?: string }): string {
  if (error.code === "HPE_INVALID_URL") {
    return "The server could not parse the request target. Percent-encode characters outside ASCII, spaces and controls in the path and query (?q=%EC%88%98 for 수).";
  }
  const reason = typeof error.reason === "string" && error.reason !== "" ? error.reason : error.code;
  return `The server could not parse the request${reason ? ` (${reason.replace(/\.$/, "")})` : ""}.`;
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

/** Replies ready at once, waiting for the end of this turn of the event loop; see `writeThisTurn`. */
const ready: { res: ServerResponse; reply: Reply }[] = [];
/** The sockets with a reply in `ready`, so that a second request of theirs in the same turn is answered at once. */
const waiting = new Set<unknown>();

/**
 * Writes a reply that was ready at once after the I/O callbacks of this turn of the event loop
 * (`nextTurn`), with the others ready in the same turn, in the order they came: under load, the
 * requests node:http read in one turn are answered in one run of writes instead of a write between
 * each two reads, which costs the process and the kernel less for each request (see RESULTS.md,
 * "The detail and the quiz across the refactors"). A lone request waits only for the end of its
 * own turn.
 *
 * Only the first reply of a connection in a turn waits: a second request on the same connection
 * in the same turn (pipelining) is answered at once, because node:http stops reading a connection
 * only when it sees, as it parses the next request, answers backed up unsent on it. With every
 * answer deferred it saw none, read every request the client had sent (libuv reads up to 32 × 64
 * KiB in a turn) and held all their answers: clients pipelining thousands of requests and never
 * reading ran the server out of memory.
 */
function writeThisTurn(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  if (waiting.has(req.socket)) return void writeOrFail(res, reply);
  waiting.add(req.socket);
  if (ready.push({ res, reply }) === 1) nextTurn(writeReady);
}

function writeReady(): void {
  waiting.clear();
  for (const { res, reply } of ready.splice(0)) writeOrFail(res, reply);
}

/** `write` for a reply that came later, outside the listener's own try. */
function writeOrFail(res: ServerResponse, reply: Reply): void {
  try {
    write(res, reply);
  } catch (error) {
    fail(res, error);
  }
}

/**
 * Shared replies as written: headers with their Content-Length added and the body as bytes, made
 * once per reply and kept as long as the core keeps the reply (its cache of shared replies).
 */
const prepared = new WeakMap<Reply, { headers: Record<string, string>; body: string | Uint8Array }>();

/**
 * Writes a reply with a Content-Length (node:http would otherwise send a body after `writeHead`
 * chunked): added in place to an unshared reply's headers, which are its own; a shared reply is
 * written from a copy, made once, with its text body encoded once: node:http encoded a string body
 * on every answer (the OpenAPI document's too), which clients asking for it thousands of times at
 * once turned into seconds (see RESULTS.md, "Pipelining clients that never read").
 */
function write(res: ServerResponse, reply: Reply): void {
  const { body } = reply;
  if (body === null) return void res.writeHead(reply.status, reply.headers).end();
  if (!reply.shared) {
    const headers = reply.headers as Record<string, string>;
    headers["Content-Length"] = String(byteLength(reply, body));
    return void res.writeHead(reply.status, headers).end(body);
  }
  let form = prepared.get(reply);
  if (form === undefined) {
    const bytes = typeof body === "string" ? Buffer.from(body) : body;
    prepared.set(reply, (form = { headers: { ...reply.headers, "Content-Length": String(bytes.length) }, body: bytes }));
  }
  res.writeHead(reply.status, form.headers).end(form.body);
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
