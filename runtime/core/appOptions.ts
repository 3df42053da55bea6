/**
 * The options of `createApp`, documented once with their defaults, and their checking: a bad option
 * is an `AppOptionError` naming it.
 */
import type { DistFiles } from "./data/load.ts";
import type { Compressors } from "./http/encoding.ts";
import { strongAdminToken } from "./quota/apiKeys.ts";
import { withoutTrailing } from "./util/withoutTrailing.ts";
import { parseOffset } from "./quota/clock.ts";
import { MemoryQuotaStore } from "./quota/memoryStore.ts";
import { DEFAULT_RETENTION_DAYS } from "./quota/retention.ts";
import type { QuotaStore } from "./quota/store.ts";
import type { ProcessMemory } from "./metrics/serviceMetrics.ts";
import { type Random, cryptoRandom } from "./util/random.ts";

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
  /**
   * Serves `GET /metrics` (the Prometheus text format) to `Authorization: Bearer <metricsToken>`,
   * at least 16 characters. Default: unset, no metrics are kept and `/metrics` is an unknown path (404).
   */
  metricsToken?: string;
  /**
   * What the metrics call the quota store (their `store` label): the server programs pass
   * `QUOTA_STORE`. Default `memory` for the default store, `custom` for a store passed in.
   */
  storeKind?: string;
  /**
   * The process's memory, reported by the metrics: the server programs pass `process.memoryUsage`
   * (Node, Bun and Deno have it). Default: none, no memory is reported.
   */
  memoryUsage?: () => ProcessMemory;
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

/**
 * A `createApp` option that cannot be used, named by the option: an embedding reads `option` and
 * `detail`, and the server's start-up names the environment variable behind the option from
 * `option` alone (never by reading the message). The message is `option: detail`.
 */
export class AppOptionError extends Error {
  constructor(
    /** The option at fault (`hanjaBase`), as `AppOptions` names it. */
    readonly option: keyof AppOptions,
    /** What is wrong with it, without its name. */
    readonly detail: string,
  ) {
    super(`${option}: ${detail}`);
    this.name = "AppOptionError";
  }
}

/** The options with their defaults filled in, checked. */
export interface ResolvedOptions {
  dist: DistFiles;
  hanjaBase: string;
  quizBase: string;
  mountPath: string;
  store: QuotaStore;
  /** Minutes east of UTC of the metering day. */
  offsetMinutes: number;
  trustProxyHops: number;
  adminToken: string | undefined;
  metricsToken: string | undefined;
  storeKind: string;
  memoryUsage: (() => ProcessMemory) | undefined;
  bankAccount: string;
  retentionDays: number;
  now: () => Date;
  random: Random;
  compressors: Compressors | undefined;
  log: ((entry: AccessLogEntry) => void) | undefined;
  onError: (error: unknown, requestId: string) => void;
}

/** Checks `options` and fills in the defaults; a bad option throws `AppOptionError` (a bad `retentionDays`, a plain `Error`). */
export function resolveOptions(options: AppOptions): ResolvedOptions {
  const hanjaBase = normaliseBase(options.hanjaBase ?? "/hanja/v1", "hanjaBase");
  const quizBase = normaliseBase(options.quizBase ?? "/quiz/v1", "quizBase");
  const mountPath = normaliseBase(options.mountPath ?? "", "mountPath");
  if (hanjaBase === quizBase) throw new AppOptionError("quizBase", `${JSON.stringify(quizBase)} must differ from hanjaBase`);
  const store = options.store ?? new MemoryQuotaStore();
  const offsetMinutes = parseOffset(options.quotaTzOffset ?? "+09:00");
  if (offsetMinutes === null) throw new AppOptionError("quotaTzOffset", `${JSON.stringify(options.quotaTzOffset)} is not an offset like +09:00`);
  for (const name of ["adminToken", "metricsToken"] as const) {
    if (options[name] !== undefined && !strongAdminToken(options[name])) {
      throw new AppOptionError(name, "must be a string of at least 16 characters (not counting spaces around it)");
    }
  }
  for (const name of ["log", "onError", "now", "memoryUsage"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "function") throw new AppOptionError(name, `must be a function, got ${typeof options[name]}`);
  }
  const trustProxyHops = options.trustProxyHops ?? 0;
  if (!Number.isInteger(trustProxyHops) || trustProxyHops < 0) throw new AppOptionError("trustProxyHops", `${trustProxyHops} is not a whole number ≥ 0`);
  const retentionDays = options.retentionDays ?? DEFAULT_RETENTION_DAYS;
  if (!Number.isInteger(retentionDays) || retentionDays < 1)
    throw new Error(`retentionDays: must be a whole number of days, at least 1, got ${String(retentionDays)}`);
  return {
    dist: options.dist,
    hanjaBase,
    quizBase,
    mountPath,
    store,
    offsetMinutes,
    trustProxyHops,
    adminToken: options.adminToken,
    metricsToken: options.metricsToken,
    storeKind: options.storeKind ?? (options.store ? "custom" : "memory"),
    memoryUsage: options.memoryUsage,
    bankAccount: options.bankAccount ?? "(the operator has not configured BANK_ACCOUNT yet)",
    retentionDays,
    now: options.now ?? (() => new Date()),
    random: options.random ?? cryptoRandom,
    compressors: options.compressors,
    log: options.log,
    onError: options.onError ?? ((error, id) => console.error(`[${id}] unexpected error:`, error)),
  };
}

function normaliseBase(base: string, name: "hanjaBase" | "quizBase" | "mountPath"): string {
  if (typeof base !== "string") throw new AppOptionError(name, `must be a string like /hanja/v1, got ${typeof base}`);
  const trimmed = withoutTrailing(base, "/");
  if (trimmed !== "" && !/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) {
    throw new AppOptionError(name, `${JSON.stringify(base)} is not a path like /hanja/v1`);
  }
  return trimmed;
}
