/**
 * Server configuration from the environment (SPEC §7), validated in one place for every entry
 * point. A bad value stops start-up with a message naming the variable.
 */
import { strongAdminToken } from "./quota/apiKeys.ts";
import { parseOffset } from "./quota/clock.ts";

export interface ServerConfig {
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
  /** `QUOTA_STORE`: `sqlite` (default) or `memory`. */
  quotaStore: "sqlite" | "memory";
  /** `QUOTA_DB`, default `./.data/quota.sqlite`. */
  quotaDb: string;
  /** `TRUST_PROXY_HOPS`, default 0. */
  trustProxyHops: number;
  /** `ADMIN_TOKEN`: enables the admin routes; at least 16 characters. */
  adminToken: string | undefined;
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
}

/** Every environment variable the server reads (SPEC §7); `--help` lists each. */
export const CONFIG_VARIABLES = [
  "PORT", "HOST", "HANJA_BASE", "QUIZ_BASE", "MOUNT_PATH", "QUOTA_STORE", "QUOTA_DB", "TRUST_PROXY_HOPS",
  "ADMIN_TOKEN", "BANK_ACCOUNT", "QUOTA_TZ_OFFSET", "DIST_DIR", "ACCESS_LOG",
  "SHUTDOWN_TIMEOUT",
] as const;
export type ConfigVariable = (typeof CONFIG_VARIABLES)[number];

/** A configuration error naming the variable. */
export class ConfigError extends Error {
  constructor(variable: string, detail: string) {
    super(`${variable}: ${detail}`);
    this.name = "ConfigError";
  }
}

/** Reads and validates the configuration from an environment record. */
export function readConfig(env: Record<string, string | undefined>): ServerConfig {
  const get = (name: ConfigVariable) => {
    const value = env[name];
    return value === undefined || value === "" ? undefined : value;
  };
  const int = (name: ConfigVariable, fallback: number, min: number, max: number) => {
    const raw = get(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new ConfigError(name, `must be a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    return Number(raw);
  };
  const base = (name: ConfigVariable, fallback: string, example = fallback) => {
    const raw = get(name) ?? fallback;
    if (raw === "" && fallback === "") return raw;
    if (!/^(\/[A-Za-z0-9._~-]+)+\/?$/.test(raw)) throw new ConfigError(name, `must be a path like ${example}, got ${JSON.stringify(raw)}`);
    return raw.replace(/\/$/, "");
  };
  const store = get("QUOTA_STORE") ?? "sqlite";
  if (store !== "sqlite" && store !== "memory") throw new ConfigError("QUOTA_STORE", `must be sqlite or memory, got ${JSON.stringify(store)}`);
  const offset = get("QUOTA_TZ_OFFSET") ?? "+09:00";
  if (parseOffset(offset) === null) throw new ConfigError("QUOTA_TZ_OFFSET", `must be an offset like +09:00, got ${JSON.stringify(offset)}`);
  const adminToken = get("ADMIN_TOKEN");
  if (adminToken !== undefined && !strongAdminToken(adminToken)) throw new ConfigError("ADMIN_TOKEN", "must be at least 16 characters, not counting spaces around them");
  const host = get("HOST") ?? "127.0.0.1";
  if (/\s/.test(host)) throw new ConfigError("HOST", `must be a host name or address, got ${JSON.stringify(host)}`);
  const accessLog = get("ACCESS_LOG") ?? "1";
  if (accessLog !== "0" && accessLog !== "1") throw new ConfigError("ACCESS_LOG", `must be 0 or 1, got ${JSON.stringify(accessLog)}`);
  const hanjaBase = base("HANJA_BASE", "/hanja/v1");
  const quizBase = base("QUIZ_BASE", "/quiz/v1");
  if (hanjaBase === quizBase) throw new ConfigError("QUIZ_BASE", "must differ from HANJA_BASE");
  return {
    port: int("PORT", 8080, 0, 65535),
    host,
    hanjaBase,
    quizBase,
    mountPath: base("MOUNT_PATH", "", "/lexicon"),
    quotaStore: store,
    quotaDb: get("QUOTA_DB") ?? "./.data/quota.sqlite",
    trustProxyHops: int("TRUST_PROXY_HOPS", 0, 0, 10),
    adminToken,
    bankAccount: get("BANK_ACCOUNT"),
    quotaTzOffset: offset,
    distDir: get("DIST_DIR"),
    accessLog: accessLog === "1",
    shutdownTimeoutMs: int("SHUTDOWN_TIMEOUT", 8, 0, 3600) * 1000,
  };
}

/** The configuration variables and what they do, for `--help`. */
export const CONFIG_HELP = `Environment:
  PORT              port to listen on (default 8080, up to 65535; 0 = any free port)
  HOST              address to bind (default 127.0.0.1; 0.0.0.0 for all)
  HANJA_BASE        base path of the character API (default /hanja/v1)
  QUIZ_BASE         base path of the quiz API (default /quiz/v1)
  MOUNT_PATH        prefix a reverse proxy strips before requests reach this server
                    (e.g. /lexicon; default none): put in front of the links it writes
  QUOTA_STORE       sqlite (default) or memory
  QUOTA_DB          SQLite file (default ./.data/quota.sqlite)
  TRUST_PROXY_HOPS  reverse proxies whose X-Forwarded-For is trusted (default 0, at most 10)
  ADMIN_TOKEN       enables /quiz/v1/admin/* with Authorization: Bearer <token> (16+ chars)
  BANK_ACCOUNT      bank account text shown in the payment instructions
  QUOTA_TZ_OFFSET   UTC offset of the quota day (default +09:00, Asia/Seoul)
  DIST_DIR          folder of the built data (default: dist/)
  ACCESS_LOG        1 (default) = one JSON line per request on stdout, 0 = off
  SHUTDOWN_TIMEOUT  seconds after SIGINT/SIGTERM before connections still open are
                    closed and the server exits (default 8, 0 to 3600)`;
