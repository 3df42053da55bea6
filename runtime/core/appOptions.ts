/**
 * The options of `createApp`, documented once with their defaults, and their checking: a bad option
 * is an `AppOptionError` naming it. The options a server setting may feed have a rule each
 * (`OPTION_RULES` in `optionRules.ts`: default, bounds), which `createApp` checks them by and the
 * server's table of settings (`runtime/entry/settings.ts`) reads their variables by, so a variable
 * and its option accept the same values. The rules live in the core because the core must not
 * import the server programs.
 */
import type { DistFiles } from "./data/load.ts";
import type { Compressors } from "./http/encoding.ts";
import type { Interface } from "./operations/operation.ts";
import { strongAdminToken } from "./quota/apiKeys.ts";
import { BANK_ACCOUNT_UNSET } from "./quota/bankAccount.ts";
import { withoutTrailing } from "./util/withoutTrailing.ts";
import { parseOffset } from "./quota/clock.ts";
import { MemoryQuotaStore } from "./quota/memoryStore.ts";
import type { QuotaStore } from "./quota/store.ts";
import type { ProcessMemory } from "./metrics/serviceMetrics.ts";
import { OPTION_RULES, type OptionRule, type RuledInputs, type RuledOption, type RuledValues } from "./optionRules.ts";
import { type Random, cryptoRandom } from "./util/random.ts";

export { OPTION_RULES, type OptionRule, type RuleInputs, type RuledInputs, type RuleValues, type RuledOption, type RuledValues } from "./optionRules.ts";

/**
 * Options of `createApp`. Every field has the default named in its comment. An option with a rule
 * in `OPTION_RULES` is an option here by that entry alone (`RuledInputs`); its field below says
 * what it does.
 */
export interface AppOptions extends RuledInputs {
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
  /** Reverse-proxy hops whose `X-Forwarded-For` entries are trusted, 0 to 10. Default 0 (use the socket's peer). */
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
   * The secret the ids of quizzes drawn with `reveal=0` are encrypted under (`POST /grade` opens
   * them), at least 16 characters; several separated by commas during a rotation (the first
   * encrypts, each opens). Default: a random secret of this app, so its quiz ids are graded only by
   * this app and not after a restart.
   */
  quizSecret?: string;
  /**
   * Days the personal data of an application awaiting its deposit, and of a revoked key, is kept
   * (retention.ts); the app erases what is due when it starts and every hour. 1 to 3650, default 30.
   */
  retentionDays?: number;
  /** Days a class quiz's results (its students' names and answers) are kept after it closes; then the sweep erases the class quiz. 1 to 365, default 30. */
  classResultsDays?: number;
  /** The most students a class quiz may take (a teacher may ask for fewer). 1 to 1000, default 200. */
  classStudentsMax?: number;
  /** The most class quizzes one key keeps at once (open, or closed with results kept). 1 to 10000, default 100. */
  classQuizzesPerKey?: number;
  /**
   * The most the app's caches hold together, in MB (10^6 bytes): the answers remembered for
   * repeated targets and their encoded replies, list pages, search results, and the API key and
   * client address lookups (`util/cacheBudget.ts`). Each entry is counted as what its key and value
   * cost on the heap. 8 to 4096, default 32.
   */
  cacheMegabytes?: number;
  /** Clock, for tests. Default: the system clock. */
  now?: () => Date;
  /** Randomness for quizzes and keys. Default: the platform CSPRNG. */
  random?: Random;
  /** Compressors beyond gzip (brotli). Default: none; the entry points pass node:zlib's brotli. */
  compressors?: Compressors;
  /** Receives one access-log record per request. Default: none. */
  log?: (entry: AccessLogEntry) => void;
  /**
   * The page for people, served at the root (`GET /` to browsers, its script and stylesheet under
   * `/page/`): `page` of `hanja-api/page` (`runtime/page/`). The server programs and
   * `createBundledApp` pass it. Default: none, those paths are unknown (404), and the app carries
   * none of the page's bytes.
   */
  page?: Interface;
  /**
   * Receives unexpected errors with their request id. Default: `console.error`. A quota store that
   * cannot answer is not one: its outage is logged on stderr as two `warn` JSON lines, one as the
   * first call is answered 503 and one when the store answers again, with the calls answered 503.
   */
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
  /**
   * The code of the problem the request was answered with (`invalid_parameter`, `not_found`,
   * `quota_exceeded`…: the fragment of the problem's `type`), on an error reply only.
   */
  problem?: string;
  /** The parameter or body field the problem names (its `param`: a `400`'s, or `api_key` on a `401`), when it names one. */
  param?: string;
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
export interface ResolvedOptions extends Omit<RuledValues, "bankAccount"> {
  /**
   * The ruled options, checked, as one object: what the handlers read a setting from
   * (`AppServices.options`), so that a new setting is its entry in `OPTION_RULES` and the server's
   * table, and the operation that reads it.
   */
  options: Readonly<RuledValues>;
  dist: DistFiles;
  store: QuotaStore;
  /** Minutes east of UTC of the metering day. */
  offsetMinutes: number;
  bankAccount: string;
  /** The quiz-id secrets (`quizSecret`): the first encrypts, every one opens; undefined, the quiz ids draw one of their own on first use. */
  quizSecrets: string[] | undefined;
  /** The metrics' name for the store. */
  storeKind: string;
  memoryUsage: (() => ProcessMemory) | undefined;
  now: () => Date;
  random: Random;
  compressors: Compressors | undefined;
  log: ((entry: AccessLogEntry) => void) | undefined;
  page: Interface | undefined;
  onError: (error: unknown, requestId: string) => void;
}

/** Checks `options` (the ruled ones by `OPTION_RULES`) and fills in the defaults; a bad option throws `AppOptionError`. */
export function resolveOptions(options: AppOptions): ResolvedOptions {
  const ruled = ruledOptions(options);
  if (ruled.hanjaBase === ruled.quizBase) throw new AppOptionError("quizBase", `${JSON.stringify(ruled.quizBase)} must differ from hanjaBase`);
  for (const name of ["log", "onError", "now", "memoryUsage", "page"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "function") throw new AppOptionError(name, `must be a function, got ${typeof options[name]}`);
  }
  return {
    ...ruled,
    options: Object.freeze(ruled),
    dist: options.dist,
    store: options.store ?? new MemoryQuotaStore(),
    offsetMinutes: parseOffset(ruled.quotaTzOffset) as number,
    bankAccount: ruled.bankAccount ?? BANK_ACCOUNT_UNSET,
    quizSecrets: secretList(ruled.quizSecret) ?? undefined,
    storeKind: options.storeKind ?? (options.store ? "custom" : "memory"),
    memoryUsage: options.memoryUsage,
    now: options.now ?? (() => new Date()),
    random: options.random ?? cryptoRandom,
    compressors: options.compressors,
    log: options.log,
    page: options.page,
    onError: options.onError ?? ((error, id) => console.error(`[${id}] unexpected error:`, error)),
  };
}

/** The ruled options of `options` checked by their rules (a bad one throws `AppOptionError`), their defaults filled in. */
export function ruledOptions(options: RuledInputs): RuledValues {
  return Object.fromEntries(
    (Object.entries(OPTION_RULES) as [RuledOption, OptionRule][]).map(([name, rule]) => [name, byRule(name, rule, options[name])]),
  ) as RuledValues;
}

/** One ruled option checked by its rule, or its default. */
function byRule(name: RuledOption, rule: OptionRule, value: unknown): unknown {
  switch (rule.type) {
    case "path":
      return normaliseBase(value ?? rule.default, name);
    case "offset":
      if (parseOffset(String(value ?? rule.default)) === null) throw new AppOptionError(name, `${JSON.stringify(value)} is not an offset like +09:00`);
      return value ?? rule.default;
    case "integer": {
      const number = value ?? rule.default;
      if (typeof number !== "number" || !Number.isInteger(number) || number < rule.min)
        throw new AppOptionError(name, `${String(number)} is not a whole number ≥ ${rule.min}`);
      if (number > rule.max) throw new AppOptionError(name, `${number} is more than ${rule.max}, the most it may be`);
      return number;
    }
    case "token":
      if (value !== undefined && !strongAdminToken(value))
        throw new AppOptionError(name, "must be a string of at least 16 characters (not counting spaces around it)");
      return value;
    case "text":
      if (value !== undefined && typeof value !== "string") throw new AppOptionError(name, `must be a string, got ${typeof value}`);
      return value;
    case "secrets":
      if (value !== undefined && secretList(value) === null) throw new AppOptionError(name, SECRETS_RULE);
      return value;
  }
}

/** What a `secrets` option must be, said without its value. */
export const SECRETS_RULE = "must be one secret of at least 16 characters, or several separated by commas (the first signs, each verifies)";

/** The secrets of a `secrets` value (comma-separated, spaces around each ignored), or null unless each has at least 16 characters. */
export function secretList(value: unknown): string[] | null {
  if (typeof value !== "string") return null;
  const secrets = value.split(",").map((secret) => secret.trim());
  return secrets.every((secret) => secret.length >= 16) ? secrets : null;
}

function normaliseBase(base: unknown, name: RuledOption): string {
  if (typeof base !== "string") throw new AppOptionError(name, `must be a string like /hanja/v1, got ${typeof base}`);
  const trimmed = withoutTrailing(base, "/");
  if (trimmed !== "" && !/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) {
    throw new AppOptionError(name, `${JSON.stringify(base)} is not a path like /hanja/v1`);
  }
  return trimmed;
}
