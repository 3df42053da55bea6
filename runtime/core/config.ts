/**
 * Server configuration from the environment (docs/rules.md "Runtimes and configuration"), validated in one place for every entry
 * point. A bad value stops start-up with a message naming the variable. The quota store's
 * variables come from the store registry (`runtime/stores/registry.ts`), which imports no driver.
 */
import { DEFAULT_STORE_KIND, STORE_KINDS, type StoreKindName, isStoreKind, settingName, storeKind, storeVariables } from "../stores/registry.ts";
import { strongAdminToken } from "./quota/apiKeys.ts";
import { withoutTrailing } from "./util/withoutTrailing.ts";
import { parseOffset } from "./quota/clock.ts";

/**
 * The configuration: the fields below, and the variables of the chosen quota store as camelCase
 * fields (`QUOTA_DB` → `quotaDb`; `optionsFrom` in the registry reads them).
 */
export type ServerConfig = BaseConfig & { readonly [storeSetting: string]: unknown };

interface BaseConfig {
  /** `PORT`, default 8080. */
  port: number;
  /** `HOST`, default 127.0.0.1. */
  host: string;
  /** `HANJA_BASE`, default `/hanja/v1`. */
  hanjaBase: string;
  /** `QUIZ_BASE`, default `/quiz/v1`. */
  quizBase: string;
  /** `MOUNT_PATH`: the prefix a reverse proxy strips before requests reach the server, default none. */
  mountPath: string;
  /** `QUOTA_STORE`: a kind of the store registry, `sqlite` by default. */
  quotaStore: StoreKindName;
  /** `TRUST_PROXY_HOPS`, default 0. */
  trustProxyHops: number;
  /** `ADMIN_TOKEN`: enables the admin routes; at least 16 characters. */
  adminToken: string | undefined;
  /** `METRICS_TOKEN`: enables `GET /metrics` for a Bearer token; at least 16 characters. */
  metricsToken: string | undefined;
  /** `BANK_ACCOUNT`: payment instructions text. */
  bankAccount: string | undefined;
  /** `QUOTA_TZ_OFFSET`, default `+09:00`. */
  quotaTzOffset: string;
  /** `DIST_DIR`: where the built data is, default `dist` beside the program. */
  distDir: string | undefined;
  /** `ACCESS_LOG`: `1` (default) writes one JSON line per request to stdout, `0` turns it off. */
  accessLog: boolean;
  /**
   * `SHUTDOWN_TIMEOUT`: seconds from SIGINT/SIGTERM after which connections still open are closed
   * and the server exits, default 8 (under Docker's 10 s before SIGKILL).
   */
  shutdownTimeoutMs: number;
  /** `RETENTION_DAYS`: days personal data of pending applications and revoked keys is kept, default 30. */
  retentionDays: number;
}

/** The variables of the server itself, besides those of the quota store kinds. */
const SERVER_VARIABLES = [
  "PORT",
  "HOST",
  "HANJA_BASE",
  "QUIZ_BASE",
  "MOUNT_PATH",
  "QUOTA_STORE",
  "TRUST_PROXY_HOPS",
  "ADMIN_TOKEN",
  "METRICS_TOKEN",
  "BANK_ACCOUNT",
  "QUOTA_TZ_OFFSET",
  "DIST_DIR",
  "ACCESS_LOG",
  "SHUTDOWN_TIMEOUT",
  "RETENTION_DAYS",
] as const;

/** Every environment variable the server reads (docs/rules.md "Runtimes and configuration"), every store kind's included; `--help` lists each. */
export const CONFIG_VARIABLES: readonly string[] = [...SERVER_VARIABLES, ...new Set(storeVariables().map((v) => v.name))];
type ConfigVariable = (typeof SERVER_VARIABLES)[number];

/** A configuration error naming the variable. */
export class ConfigError extends Error {
  constructor(variable: string, detail: string) {
    super(`${variable}: ${detail}`);
    this.name = "ConfigError";
  }
}

/**
 * Reads and validates the configuration from an environment record; `defaults.quotaDb` replaces
 * the default `QUOTA_DB` (the compiled binary keeps its database in the user's data folder).
 */
export function readConfig(env: Record<string, string | undefined>, defaults: { quotaDb?: string } = {}): ServerConfig {
  const get = (name: ConfigVariable) => {
    const value = env[name];
    return value === undefined || value === "" ? undefined : value;
  };
  const int = (name: ConfigVariable, fallback: number, min: number, max: number) => {
    const raw = get(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
      throw new ConfigError(name, `must be a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    return Number(raw);
  };
  const base = (name: ConfigVariable, fallback: string, example = fallback) => {
    const raw = get(name) ?? fallback;
    if (raw === "" && fallback === "") return raw;
    if (!/^(\/[A-Za-z0-9._~-]+)+\/?$/.test(raw)) throw new ConfigError(name, `must be a path like ${example}, got ${JSON.stringify(raw)}`);
    return raw.replace(/\/$/, "");
  };
  const store = get("QUOTA_STORE") ?? DEFAULT_STORE_KIND;
  if (!isStoreKind(store)) throw new ConfigError("QUOTA_STORE", `must be ${Object.keys(STORE_KINDS).join(" or ")}, got ${JSON.stringify(store)}`);
  const offset = get("QUOTA_TZ_OFFSET") ?? "+09:00";
  if (parseOffset(offset) === null) throw new ConfigError("QUOTA_TZ_OFFSET", `must be an offset like +09:00, got ${JSON.stringify(offset)}`);
  const adminToken = get("ADMIN_TOKEN");
  if (adminToken !== undefined && !strongAdminToken(adminToken))
    throw new ConfigError("ADMIN_TOKEN", "must be at least 16 characters, not counting spaces around them");
  const metricsToken = get("METRICS_TOKEN");
  if (metricsToken !== undefined && !strongAdminToken(metricsToken))
    throw new ConfigError("METRICS_TOKEN", "must be at least 16 characters, not counting spaces around them");
  const host = get("HOST") ?? "127.0.0.1";
  if (/\s/.test(host)) throw new ConfigError("HOST", `must be a host name or address, got ${JSON.stringify(host)}`);
  const accessLog = get("ACCESS_LOG") ?? "1";
  if (accessLog !== "0" && accessLog !== "1") throw new ConfigError("ACCESS_LOG", `must be 0 or 1, got ${JSON.stringify(accessLog)}`);
  const hanjaBase = base("HANJA_BASE", "/hanja/v1");
  const quizBase = base("QUIZ_BASE", "/quiz/v1");
  if (hanjaBase === quizBase) throw new ConfigError("QUIZ_BASE", "must differ from HANJA_BASE");
  return {
    ...storeSettings(store, env),
    port: int("PORT", 8080, 0, 65535),
    host,
    hanjaBase,
    quizBase,
    mountPath: base("MOUNT_PATH", "", "/lexicon"),
    quotaStore: store,
    // The compiled binary keeps its database in the user's data folder unless QUOTA_DB says otherwise.
    ...(store === "sqlite" && !env.QUOTA_DB && defaults.quotaDb !== undefined ? { quotaDb: defaults.quotaDb } : {}),
    trustProxyHops: int("TRUST_PROXY_HOPS", 0, 0, 10),
    adminToken,
    metricsToken,
    bankAccount: get("BANK_ACCOUNT"),
    quotaTzOffset: offset,
    distDir: get("DIST_DIR"),
    accessLog: accessLog === "1",
    shutdownTimeoutMs: int("SHUTDOWN_TIMEOUT", 8, 0, 3600) * 1000,
    retentionDays: int("RETENTION_DAYS", 30, 1, 3650),
  };
}

/**
 * The chosen store kind's variables as configuration fields (`QUOTA_DB` → `quotaDb`), defaults
 * filled in; a value its kind refuses is a `ConfigError`, which repeats the value unless secret.
 */
function storeSettings(name: StoreKindName, env: Record<string, string | undefined>): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const variable of storeKind(name).variables) {
    const raw = env[variable.name];
    const value = raw === undefined || raw === "" ? variable.default : raw;
    if (value === undefined) continue;
    const problem = variable.check?.(value);
    if (problem !== undefined) throw new ConfigError(variable.name, variable.secret ? problem : `${problem}, got ${JSON.stringify(value)}`);
    settings[settingName(variable.name)] = value;
  }
  return settings;
}

/** A `--help` entry: the name in a column of 18, later lines of the text under the first. */
function helpEntry(name: string, text: string): string {
  return `  ${name.padEnd(18)}${text.split("\n").join(`\n${" ".repeat(20)}`)}`;
}

/** The `QUOTA_STORE` entry and each kind's variables, from the registry. */
function storeHelp(): string {
  const kinds = Object.values(STORE_KINDS);
  const names = kinds.map((kind) => `${kind.name}${kind.name === DEFAULT_STORE_KIND ? " (default)" : ""}`).join(" or ");
  const entry = [`the quota store: ${names}`, ...kinds.map((kind) => `  ${kind.name}: ${kind.summary}`)].join("\n");
  return [helpEntry("QUOTA_STORE", entry), ...storeVariables().map((v) => helpEntry(v.name, v.help))].join("\n");
}

/**
 * The default `QUOTA_DB` of the compiled binary, a file copied anywhere and run from any folder:
 * the user's data folder (`$XDG_DATA_HOME/hanja-api/quota.sqlite`, else
 * `~/.local/share/hanja-api/quota.sqlite`), so that the keys sold do not depend on the folder it
 * was started from; `./.data/quota.sqlite` only when there is no home folder.
 */
export function binaryQuotaDb(env: Record<string, string | undefined>): string {
  const data = env.XDG_DATA_HOME || (env.HOME ? `${env.HOME}/.local/share` : undefined);
  return data ? `${withoutTrailing(data, "/")}/hanja-api/quota.sqlite` : "./.data/quota.sqlite";
}

/** `--help`'s list of variables for the compiled binary: its data is built in, its database in the user's data folder. */
export function binaryConfigHelp(env: Record<string, string | undefined>): string {
  return CONFIG_HELP.replace(
    / {2}QUOTA_DB {10}.*/,
    `  QUOTA_DB          SQLite file (default ${binaryQuotaDb(env)},\n                    the same whatever folder this program runs from)`,
  ).replace(
    / {2}DIST_DIR {10}.*/,
    "  DIST_DIR          folder of other built data to serve instead of the data built\n                    into this executable (default: the built-in data, no files needed)",
  );
}

/** The configuration variables and what they do, for `--help`. */
export const CONFIG_HELP = `Environment:
  PORT              port to listen on (default 8080, up to 65535; 0 = any free port)
  HOST              address to bind (default 127.0.0.1; 0.0.0.0 for all)
  HANJA_BASE        base path of the character API (default /hanja/v1)
  QUIZ_BASE         base path of the quiz API (default /quiz/v1)
  MOUNT_PATH        prefix a reverse proxy strips before requests reach this server
                    (e.g. /lexicon; default none): put in front of the links it writes
${storeHelp()}
  TRUST_PROXY_HOPS  reverse proxies whose X-Forwarded-For is trusted (default 0, at most 10)
  ADMIN_TOKEN       enables /quiz/v1/admin/* with Authorization: Bearer <token> (16+ chars)
  METRICS_TOKEN     enables GET /metrics (Prometheus) with Authorization: Bearer <token>
                    (16+ chars); unset, /metrics answers 404
  BANK_ACCOUNT      bank account text shown in the payment instructions
  QUOTA_TZ_OFFSET   UTC offset of the quota day (default +09:00, Asia/Seoul)
  DIST_DIR          folder of the built data (default: dist/)
  ACCESS_LOG        1 (default) = one JSON line per request on stdout, 0 = off
  SHUTDOWN_TIMEOUT  seconds after SIGINT/SIGTERM before connections still open are
                    closed and the server exits (default 8, 0 to 3600)
  RETENTION_DAYS    days the name, e-mail, phone and depositor of an application awaiting
                    its deposit, or of a revoked key, are kept (default 30, 1 to 3650)`;
