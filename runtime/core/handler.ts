/**
 * Answering one request: the answer remembered for its target or the route's, problem details
 * for an error (a generic 500 with a request id for an unexpected one), and the access-log record.
 * `createApp` wires it to the router and the body sender.
 */
import type { AccessLogEntry } from "./appOptions.ts";
import type { RequestMetrics } from "./metrics/requestMetrics.ts";
import { ApiError, internalError, noSuchRoute, problemBody, serviceUnavailable } from "./http/errors.ts";
import type { RawQuery } from "./http/params.ts";
import { type Reply, type RequestLike, type ServeInfo, reply } from "./http/reply.ts";
import { redactedTarget } from "./http/redact.ts";
import { PROBLEM_TYPE, type Sender } from "./http/sender.ts";
import { withAnswerHeaders } from "./http/answerHeaders.ts";
import { optionsReply } from "./http/cors.ts";
import { pathOf } from "./http/target.ts";
import type { StoreOutages } from "./quota/outages.ts";
import { StoreUnavailableError } from "./quota/store.ts";
import type { RequestContext } from "./routes/context.ts";
import { type Router, normalized } from "./operations/router.ts";
import { andThen } from "./util/andThen.ts";
import { utf8Length } from "./util/utf8Length.ts";

/** What answering requests needs: the router, the body sender and the app's options. */
export interface HandlerConfig {
  router: Router;
  sender: Sender;
  mountPath: string;
  /** Tokens (admin, metrics) whose values are never written to the access log. */
  secrets: readonly (string | undefined)[];
  log: ((entry: AccessLogEntry) => void) | undefined;
  /** Counts every answer when the app serves metrics. */
  metrics?: RequestMetrics;
  onError: (error: unknown, requestId: string) => void;
  /** Where a call answered 503 (the store could not answer) is reported instead of `onError`. */
  outages: StoreOutages;
}

/** `App.handle` and `App.refuse` (see `App`). */
export interface RequestHandler {
  handle(request: RequestLike, info?: ServeInfo): Reply | Promise<Reply>;
  refuse(status: 400 | 431, detail: string): Reply;
}

/** The request handler of one app. */
export function createHandler(config: HandlerConfig): RequestHandler {
  const { sender, router, mountPath, log, metrics, onError } = config;
  const allowedFor = (path: string) => router.allowed(path);
  // Without a log or metrics nothing reads the time a request took: it is not measured.
  const timed = log !== undefined || metrics !== undefined;
  const bootId = Math.floor(Math.random() * 36 ** 6)
    .toString(36)
    .padStart(6, "0");
  /** Values the access log never writes, wherever they appear in a target. */
  const secrets = config.secrets.flatMap((secret) => (secret ? [secret.trim()] : []));
  let counter = 0;
  const logTime = isoClock();

  /**
   * A GET or HEAD of a target already answered with a cacheable body (interface A, the docs) is
   * answered again from that body, without routing: the data never changes while the app runs.
   * Everything else goes through the router.
   */
  function handle(request: RequestLike, info: ServeInfo = {}): Reply | Promise<Reply> {
    const started = timed ? performance.now() : 0;
    const ctx = new Context(bootId, ++counter, info);
    let replayed: Reply | Promise<Reply> | undefined;
    try {
      replayed = sender.replay(request, ctx);
    } catch (error) {
      return finish(request, ctx, started, failure(error, ctx, request));
    }
    if (replayed === undefined) {
      // Without a log or metrics, `finish` has nothing to do: no promise step is spent on it.
      const routed = route(request, ctx);
      return timed ? andThen(routed, (reply) => finish(request, ctx, started, reply)) : routed;
    }
    if (!("then" in replayed)) return finish(request, ctx, started, replayed);
    return replayed.then(
      (reply) => finish(request, ctx, started, reply),
      (error: unknown) => finish(request, ctx, started, failure(error, ctx, request)),
    );
  }

  /**
   * The route's reply, on the normalized URL (the access log keeps the target as sent); without a
   * promise when the route answers at once.
   */
  function route(sent: RequestLike, ctx: Context): Reply | Promise<Reply> {
    try {
      const request = normalized(sent);
      if (request.method === "OPTIONS") return preflightFor(request);
      const reply = router.dispatch(request, ctx) ?? noRoute(request);
      const { route } = ctx;
      if (metrics !== undefined && route !== undefined) {
        // Once the answer is made (and remembered, when it is replayable), it carries its operation.
        const note = () => sender.noteRoute(request, route);
        if ("then" in reply) reply.then(note, note);
        else note();
      }
      return "then" in reply ? reply.catch((error: unknown) => failure(error, ctx, request)) : reply;
    } catch (error) {
      return failure(error, ctx, sent);
    }
  }

  /**
   * The problem-details reply to an error; an unexpected one is reported with its request id. A
   * store that cannot answer now is a 503 with Retry-After, reported to `outages` (the first of an
   * outage is logged with its message, which holds no personal data by the store contract).
   */
  function failure(error: unknown, ctx: Context, request: RequestLike): Reply {
    if (error instanceof ApiError) {
      ctx.problem = error.code;
      ctx.param = error.param;
      return errorReply(error, ctx.requestId, request.method, mountPath);
    }
    if (error instanceof StoreUnavailableError) {
      config.outages.unavailable(error, ctx.requestId);
      ctx.problem = "service_unavailable";
      return errorReply(serviceUnavailable(error.retryAfterSeconds), ctx.requestId, request.method, mountPath);
    }
    onError(error, ctx.requestId);
    ctx.problem = "internal_error";
    return errorReply(internalError(), ctx.requestId, request.method, mountPath);
  }

  /** Writes the access-log record of a request, counts it in the metrics and returns its reply. */
  function finish(request: RequestLike, ctx: Context, started: number, response: Reply): Reply {
    if (!timed) return response;
    const ms = performance.now() - started;
    if (log) {
      const entry: AccessLogEntry = {
        time: logTime(),
        request_id: ctx.requestId,
        method: request.method,
        path: redactedTarget(request.url, secrets),
        status: response.status,
        duration_ms: Math.round(ms * 100) / 100,
      };
      if (ctx.plan) entry.plan = ctx.plan;
      if (ctx.problem) entry.problem = ctx.problem;
      if (ctx.param) entry.param = ctx.param;
      log(entry);
    }
    if (metrics) {
      metrics.request(ctx.route, request.method, response.status, ms);
      if (ctx.metered) metrics.decision(ctx.plan ?? "unknown", ctx.metered === "served" ? "served" : (ctx.problem ?? "internal_error"));
    }
    return response;
  }

  /** The answer to OPTIONS: a CORS preflight on any path, the methods of a known path, else 404. */
  function preflightFor(request: RequestLike): Reply {
    const answer = optionsReply(allowedFor(pathOf(request.url)), request);
    if (answer === undefined) throw noSuchRoute(mountPath);
    return answer;
  }

  /**
   * No route took the request: 405 when the path exists for other methods, else 404. `Allow` names
   * OPTIONS too, which every known path answers (the CORS preflight).
   */
  function noRoute(request: RequestLike): never {
    const allow = allowedFor(pathOf(request.url));
    if (allow.length > 0) {
      throw new ApiError(405, "method_not_allowed", `${request.method} is not allowed here; use ${allow.join(", ")}`, undefined, {
        Allow: [...allow, "OPTIONS"].join(", "),
      });
    }
    throw noSuchRoute(mountPath);
  }

  function refuse(status: 400 | 431, detail: string): Reply {
    const ctx = new Context(bootId, ++counter, {});
    const error = new ApiError(status, status === 431 ? "payload_too_large" : "invalid_parameter", detail);
    const response = errorReply(error, ctx.requestId, "GET", mountPath);
    log?.({ time: logTime(), request_id: ctx.requestId, method: "-", path: "-", status, duration_ms: 0, problem: error.code });
    metrics?.request(undefined, "other", status, 0);
    return response;
  }

  return { handle, refuse };
}

/** Per-request state; the request id and the peer address are only looked up when something reads them. */
class Context implements RequestContext {
  clientIp?: string;
  plan?: string;
  route?: string;
  metered?: "pending" | "served";
  problem?: string;
  param?: string;
  rawQuery?: RawQuery;
  private id: string | undefined;
  constructor(
    private readonly bootId: string,
    private readonly n: number,
    private readonly info: ServeInfo,
  ) {}
  get clientAddress(): string | undefined {
    return this.info.clientAddress;
  }
  get requestId(): string {
    return (this.id ??= `${this.bootId}-${this.n.toString(36)}`);
  }
}

/**
 * The current time as `new Date().toISOString()` writes it, formatted once per millisecond: a busy
 * server logs many requests in the same millisecond, and formatting costs more than the rest of a
 * log record.
 */
export function isoClock(now: () => number = Date.now): () => string {
  let ms = Number.NaN;
  let text = "";
  return () => {
    const t = now();
    if (t !== ms) {
      ms = t;
      text = new Date(t).toISOString();
    }
    return text;
  };
}

/**
 * Problem-details reply (docs/rules.md "Errors"); never cached. A HEAD gets the length of the body a GET would
 * get (RFC 9110 §8.6), so no server adapter writes `Content-Length: 0` for it.
 */
export function errorReply(error: ApiError, requestId: string, method: string, mountPath = ""): Reply {
  const headers = withAnswerHeaders({ "Content-Type": PROBLEM_TYPE, "Cache-Control": "no-store", "X-Request-Id": requestId, ...error.headers });
  const body = problemBody(error, requestId, mountPath);
  if (method !== "HEAD") return reply(error.status, headers, body);
  headers["Content-Length"] = String(utf8Length(body));
  return reply(error.status, headers, null);
}
