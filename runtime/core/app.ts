/**
 * The portable core: `createApp(options)` → `{ fetch }`, Web APIs only (SPEC §7). Per-runtime
 * entry points read `dist/`, pick a quota store and hand both in.
 */
import { IttyRouter, type IRequest } from "itty-router";
import { AppOptionError } from "./appOptionError.ts";
import { type DistFiles, type LoadedData, loadData } from "./data/load.ts";
import { ApiError, internalError, problemBody, serviceUnavailable } from "./http/errors.ts";
import { type Reply, type RequestLike, reply, toResponse } from "./http/reply.ts";
import { redactedTarget } from "./http/redact.ts";
import { type Compressors, PROBLEM_TYPE, createSender, optionsReply, pathOf, utf8Length, withCors } from "./http/respond.ts";
import type { RequestContext, Route } from "./routes/context.ts";
import { hanjaRoutes } from "./routes/hanjaRoutes.ts";
import { adminRoutes } from "./routes/adminRoutes.ts";
import { quizRoutes } from "./routes/quizRoutes.ts";
import { allowedMethods, assertReachable, dispatch, normalized } from "./routes/routeTable.ts";
import { serviceRoutes } from "./routes/serviceRoutes.ts";
import { pageRoutes } from "./routes/pageRoutes.ts";
import { strongAdminToken } from "./quota/apiKeys.ts";
import { parseOffset } from "./quota/clock.ts";
import { andThen } from "./quota/meter.ts";
import { MemoryQuotaStore } from "./quota/memoryStore.ts";
import { type QuotaStore, StoreUnavailableError } from "./quota/store.ts";
import { DEFAULT_RETENTION_DAYS, type Erasure, eraseDue } from "./quota/retention.ts";
import { type Random, cryptoRandom } from "./quiz/random.ts";

/** Options of `createApp`. Every field has the default named in its comment. */
export interface AppOptions {
  /** The `dist/` files, keyed by file name, each as text or bytes (entry points read them for you; see `DistFiles`). */
  dist: DistFiles;
  /** Base path of interface A. Default `/hanja/v1`. */
  hanjaBase?: string;
  /** Base path of interface B. Default `/quiz/v1`; must differ from `hanjaBase`. */
  quizBase?: string;
  /**
   * The path a host serves the service under when it strips that prefix before handing requests
   * over (a mount such as `/lexicon`, or a reverse proxy's location). Routing is unchanged; only
   * the links the service writes carry it: a problem's `type`, the OpenAPI `servers` entry, the
   * /docs page's link to /openapi.json, the terms URL in /meta. Default `""` (the host's root).
   */
  mountPath?: string;
  /** Keys, applications and daily counters. Default: a new `MemoryQuotaStore` (lost on restart). */
  store?: QuotaStore;
  /** Offset of the metering day from UTC, `+09:00` (Asia/Seoul) by default. */
  quotaTzOffset?: string;
  /** Reverse-proxy hops whose `X-Forwarded-For` entries are trusted. Default 0 (use the socket's peer). */
  trustProxyHops?: number;
  /** Enables the admin routes when set (Bearer token). Default: unset, the routes answer 404. */
  adminToken?: string;
  /** Bank account text of the payment instructions. Default: a placeholder asking to configure it. */
  bankAccount?: string;
  /**
   * Days the personal data of an application awaiting its deposit, and of a revoked key, is kept
   * (retention.ts); the app erases what is due when it starts and every hour. Default 30.
   */
  retentionDays?: number;
  /** Clock, for tests. Default: the system clock. */
  now?: () => Date;
  /** Randomness for quizzes and keys. Default: the platform CSPRNG. */
  random?: Random;
  /** Compressors beyond gzip (brotli). Default: none; the entry points pass node:zlib's brotli. */
  compressors?: Compressors;
  /** Receives one access-log record per request. Default: none. */
  log?: (entry: AccessLogEntry) => void;
  /** Receives unexpected errors with their request id. Default: `console.error`. */
  onError?: (error: unknown, requestId: string) => void;
}

/** One access-log record: no personal data, no key. */
export interface AccessLogEntry {
  time: string;
  request_id: string;
  method: string;
  /** Path and query, with the `api_key` value replaced by REDACTED. */
  path: string;
  status: number;
  duration_ms: number;
  plan?: string;
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

export interface App {
  /** Answers a Web `Request` (what embedding servers and frameworks call). */
  fetch(request: Request, info?: ServeInfo): Promise<Response>;
  /**
   * Answers with a `Reply` (status, headers, serialized body) instead of a `Response`, for server
   * adapters that write it themselves; a Web `Request` is a `RequestLike`.
   */
  handle(request: RequestLike, info?: ServeInfo): Reply | Promise<Reply>;
  /**
   * The problem reply to a request the server could not parse, which never reaches `handle`: a
   * malformed request line or header section (`400`), or one too large (`431`). Logged like any
   * other request, with `-` for method and path. For server adapters that see such requests
   * (node:http's `clientError`).
   */
  refuse(status: 400 | 431, detail: string): Reply;
  /** The loaded data (counts, manifest). */
  readonly data: LoadedData;
  /** Erases the personal data due now (as the hourly sweep does) and returns what it erased. */
  erasePersonalData(): Promise<Erasure[]>;
  /** Releases what the app holds (the quota store). */
  close(): Promise<void>;
}

/** Builds the service from loaded `dist/` files and options. */
export function createApp(options: AppOptions): App {
  const data = loadData(options.dist);
  const hanjaBase = normaliseBase(options.hanjaBase ?? "/hanja/v1", "hanjaBase");
  const quizBase = normaliseBase(options.quizBase ?? "/quiz/v1", "quizBase");
  const mountPath = normaliseBase(options.mountPath ?? "", "mountPath");
  if (hanjaBase === quizBase) throw new AppOptionError("quizBase", `${JSON.stringify(quizBase)} must differ from hanjaBase`);
  const store = options.store ?? new MemoryQuotaStore();
  const now = options.now ?? (() => new Date());
  const offsetMinutes = parseOffset(options.quotaTzOffset ?? "+09:00");
  if (offsetMinutes === null) throw new AppOptionError("quotaTzOffset", `${JSON.stringify(options.quotaTzOffset)} is not an offset like +09:00`);
  if (options.adminToken !== undefined && !strongAdminToken(options.adminToken)) {
    throw new AppOptionError("adminToken", "must be a string of at least 16 characters (not counting spaces around it)");
  }
  for (const name of ["log", "onError", "now"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "function") throw new AppOptionError(name, `must be a function, got ${typeof options[name]}`);
  }
  const trustProxyHops = options.trustProxyHops ?? 0;
  if (!Number.isInteger(trustProxyHops) || trustProxyHops < 0) throw new AppOptionError("trustProxyHops", `${trustProxyHops} is not a whole number ≥ 0`);
  const sender = createSender(options.compressors);
  const sendBody = sender.send;
  // itty-router tries routes in order, testing each pattern against the path. Interface B comes
  // first: its calls are routed every time, while interface A's repeated targets are answered
  // from their remembered bodies without routing (see `handle`).
  const interfaceB = quizRoutes(quizBase, data, {
    store,
    now,
    random: options.random ?? cryptoRandom,
    offsetMinutes,
    trustProxyHops,
    bankAccount: options.bankAccount ?? "(the operator has not configured BANK_ACCOUNT yet)",
    sendBody,
    mountPath,
  });
  const interfaceA = hanjaRoutes(hanjaBase, data, sendBody, mountPath);
  const routes: Route[] = [
    ...interfaceB,
    ...interfaceA,
    ...(options.adminToken ? adminRoutes(quizBase, { store, now, adminToken: options.adminToken, sendBody }) : []),
    ...serviceRoutes(data, { hanjaBase, quizBase, mountPath, adminEnabled: Boolean(options.adminToken) }, sendBody, store),
    ...pageRoutes({ hanjaBase, quizBase, mountPath }, sendBody),
  ];
  const router = IttyRouter<IRequest, [RequestContext]>();
  for (const route of routes) {
    router[route.method.toLowerCase() as "get"](route.path, route.handler);
    if (route.method === "GET") router.head(route.path, route.handler);
  }
  assertReachable(router.routes, interfaceA, hanjaBase);
  const allowedFor = allowedMethods(router.routes);
  const onError = options.onError ?? ((error, id) => console.error(`[${id}] unexpected error:`, error));
  const bootId = Math.floor(Math.random() * 36 ** 6).toString(36).padStart(6, "0");
  /** Values the access log never writes, wherever they appear in a target. */
  const secrets = options.adminToken ? [options.adminToken.trim()] : [];
  let counter = 0;
  const logTime = isoClock();

  /**
   * A GET or HEAD of a target already answered with a cacheable body (interface A, the docs) is
   * answered again from that body, without routing: the data never changes while the app runs.
   * Everything else goes through the router.
   */
  function handle(request: RequestLike, info: ServeInfo = {}): Reply | Promise<Reply> {
    const started = options.log ? performance.now() : 0;
    const ctx = new Context(bootId, ++counter, info);
    let replayed: Reply | Promise<Reply> | undefined;
    try {
      replayed = sender.replay(request);
    } catch (error) {
      return finish(request, ctx, started, failure(error, ctx, request));
    }
    if (replayed === undefined) {
      // Without a log, `finish` has nothing to do: no promise step is spent on it.
      const routed = route(request, ctx);
      return options.log ? andThen(routed, (reply) => finish(request, ctx, started, reply)) : routed;
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
      const reply = dispatch(router.routes, request, ctx) ?? noRoute(request);
      return "then" in reply ? reply.catch((error: unknown) => failure(error, ctx, request)) : reply;
    } catch (error) {
      return failure(error, ctx, sent);
    }
  }

  /**
   * The problem-details reply to an error; an unexpected one is reported with its request id. A
   * store that cannot answer now is a 503 with Retry-After (its message, which holds no personal
   * data by the store contract, is reported too).
   */
  function failure(error: unknown, ctx: Context, request: RequestLike): Reply {
    if (error instanceof ApiError) return errorReply(error, ctx.requestId, request.method, mountPath);
    onError(error, ctx.requestId);
    const answer = error instanceof StoreUnavailableError ? serviceUnavailable(error.retryAfterSeconds) : internalError();
    return errorReply(answer, ctx.requestId, request.method, mountPath);
  }

  /** Writes the access-log record of a request and returns its reply. */
  function finish(request: RequestLike, ctx: Context, started: number, response: Reply): Reply {
    if (options.log) {
      const entry: AccessLogEntry = {
        time: logTime(),
        request_id: ctx.requestId,
        method: request.method,
        path: redactedTarget(request.url, secrets),
        status: response.status,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
      };
      if (ctx.plan) entry.plan = ctx.plan;
      options.log(entry);
    }
    return response;
  }

  /** The answer to OPTIONS: a CORS preflight on any path, the methods of a known path, else 404. */
  function preflightFor(request: RequestLike): Reply {
    const answer = optionsReply(allowedFor(pathOf(request.url)), request);
    if (answer === undefined) throw notFound(mountPath);
    return answer;
  }

  /**
   * No route took the request: 405 when the path exists for other methods, else 404. `Allow` names
   * OPTIONS too, which every known path answers (the CORS preflight).
   */
  function noRoute(request: RequestLike): never {
    const allow = allowedFor(pathOf(request.url));
    if (allow.length > 0) {
      throw new ApiError(405, "method_not_allowed", `${request.method} is not allowed here; use ${allow.join(", ")}`, undefined, { Allow: [...allow, "OPTIONS"].join(", ") });
    }
    throw notFound(mountPath);
  }

  function refuse(status: 400 | 431, detail: string): Reply {
    const ctx = new Context(bootId, ++counter, {});
    const error = new ApiError(status, status === 431 ? "payload_too_large" : "invalid_parameter", detail);
    const response = errorReply(error, ctx.requestId, "GET", mountPath);
    options.log?.({ time: logTime(), request_id: ctx.requestId, method: "-", path: "-", status, duration_ms: 0 });
    return response;
  }

  const retentionDays = options.retentionDays ?? DEFAULT_RETENTION_DAYS;
  if (!Number.isInteger(retentionDays) || retentionDays < 1) throw new Error(`retentionDays: must be a whole number of days, at least 1, got ${String(retentionDays)}`);
  const erasePersonalData = () => eraseDue(store, now(), retentionDays, (line) => console.error(JSON.stringify(line)));
  const sweep = () =>
    void erasePersonalData().catch((error: unknown) => console.error(JSON.stringify({ level: "error", msg: `personal data erasure failed (retried within the hour): ${error instanceof Error ? error.message : String(error)}` })));
  const sweeps = [setTimeout(sweep, 0), setInterval(sweep, RETENTION_SWEEP_MS)];
  // The sweep's timers never keep a process alive on their own (Node, Bun and Deno have unref).
  for (const timer of sweeps) (timer as { unref?: () => void }).unref?.();

  return {
    fetch: async (request, info) => toResponse(await handle(request, info)),
    handle,
    refuse,
    data,
    erasePersonalData,
    close: async () => {
      for (const timer of sweeps) clearTimeout(timer);
      await store.close();
    },
  };
}

/** How often the app erases the personal data that has become due. */
const RETENTION_SWEEP_MS = 3_600_000;

/** Per-request state; the request id and the peer address are only looked up when something reads them. */
class Context implements RequestContext {
  clientIp?: string;
  plan?: string;
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

function notFound(mountPath: string): ApiError {
  return new ApiError(404, "not_found", `No such route. See ${mountPath}/docs for the API reference.`);
}

/**
 * Problem-details reply (SPEC §5); never cached. A HEAD gets the length of the body a GET would
 * get (RFC 9110 §8.6), so no server adapter writes `Content-Length: 0` for it.
 */
export function errorReply(error: ApiError, requestId: string, method: string, mountPath = ""): Reply {
  const headers = withCors({ "Content-Type": PROBLEM_TYPE, "Cache-Control": "no-store", "X-Request-Id": requestId, ...error.headers });
  const body = problemBody(error, requestId, mountPath);
  if (method !== "HEAD") return reply(error.status, headers, body);
  headers["Content-Length"] = String(utf8Length(body));
  return reply(error.status, headers, null);
}

function normaliseBase(base: string, name: "hanjaBase" | "quizBase" | "mountPath"): string {
  if (typeof base !== "string") throw new AppOptionError(name, `must be a string like /hanja/v1, got ${typeof base}`);
  const trimmed = base.replace(/\/+$/, "");
  if (trimmed !== "" && !/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) {
    throw new AppOptionError(name, `${JSON.stringify(base)} is not a path like /hanja/v1`);
  }
  return trimmed;
}
