/**
 * `REDIS_URL` and `REDIS_PREFIX`: checked before anything connects, and described for messages
 * without the password. Plain code (WHATWG `URL` only), so configuration can check them without
 * loading the Redis client.
 */

/** A checked `REDIS_URL`. */
export interface RedisTarget {
  /** The URL as given (it may hold a password: never print it). */
  url: string;
  /** `redis://host:port/db` (or `rediss://`), with no user name or password: safe for messages and logs. */
  safe: string;
  host: string;
  port: number;
  db: number;
  tls: boolean;
  /** A Redis Cluster (`REDIS_CLUSTER=1`): the URL names one of its nodes, the client finds the others. */
  cluster: boolean;
}

/** The bound on each Redis operation: a metered call answers within about a second, served or 503. */
export const REDIS_TIMEOUT_MS = 1000;

/** The port Redis listens on unless the URL names another. */
export const DEFAULT_REDIS_PORT = 6379;

/**
 * `REDIS_URL` checked: `redis://[user:password@]host[:port][/db]`, `rediss://` for TLS. Throws an
 * `Error` whose message says what is wrong and never repeats the password. For a Redis Cluster
 * (`cluster`) the URL names one node (any, primary or replica) and no database but 0: a cluster has
 * no other.
 */
export function parseRedisUrl(url: string, cluster = false): RedisTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error("must be a URL like redis://[user:password@]host:6379/0 (rediss:// for TLS)");
  }
  const scheme = parsed.protocol;
  if (scheme !== "redis:" && scheme !== "rediss:") throw new Error(`must start with redis:// or rediss:// (TLS), not ${scheme}//`);
  if (parsed.hostname === "") throw new Error("names no host: redis://host:6379/0");
  if (parsed.search !== "" || parsed.hash !== "") throw new Error("takes no query or fragment (?…, #…): the database is the path, /0");
  const path = parsed.pathname.replace(/^\//, "");
  if (path !== "" && !/^\d{1,5}$/.test(path)) throw new Error(`database must be a number, as in redis://host:6379/0, not /${safePath(path)}`);
  const port = parsed.port === "" ? DEFAULT_REDIS_PORT : Number(parsed.port);
  const db = path === "" ? 0 : Number(path);
  if (cluster && db !== 0) throw new Error(`names database ${db}, but a Redis Cluster (REDIS_CLUSTER=1) has only database 0`);
  const tls = scheme === "rediss:";
  const safe = `${scheme}//${hostForUrl(parsed.hostname)}:${port}/${db}${cluster ? " (cluster)" : ""}`;
  return { url, safe, host: parsed.hostname, port, db, tls, cluster };
}

/** A path shown in a message: only its first characters, in case a password was pasted there. */
function safePath(path: string): string {
  return path.length > 8 ? `${path.slice(0, 3)}…` : path;
}

/** The host as a URL writes it (IPv6 in brackets; `URL` already keeps them). */
function hostForUrl(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/** `host:port` as Deno's `--allow-net` takes it (an IPv6 address in brackets). */
export function netPermission(target: RedisTarget): string {
  return target.cluster ? hostForUrl(target.host) : `${hostForUrl(target.host)}:${target.port}`;
}

/** `REDIS_CLUSTER` checked: `1` for a Redis Cluster, `0` (the default) for one Redis. */
export function checkRedisCluster(value: string): string | undefined {
  return value === "0" || value === "1" ? undefined : "must be 1 (REDIS_URL names a node of a Redis Cluster) or 0 (one Redis)";
}

/** `REDIS_CLUSTER`'s value as a flag (unset: one Redis). */
export function isCluster(value: string | undefined): boolean {
  return value === "1";
}

/** The prefix of every Redis key unless `REDIS_PREFIX` says otherwise. */
export const DEFAULT_REDIS_PREFIX = "hanja:";

/**
 * `REDIS_PREFIX` checked: printable ASCII without spaces or braces, at most 64 characters. Braces
 * are refused because the keys carry a Redis Cluster hash tag (`{keys}`) that a brace in the
 * prefix would change.
 */
export function checkRedisPrefix(prefix: string): string | undefined {
  if (!/^[\x21-\x7a\x7c\x7e]{1,64}$/.test(prefix))
    return `must be 1 to 64 printable ASCII characters without spaces or braces, such as ${DEFAULT_REDIS_PREFIX}`;
  return undefined;
}

/**
 * Environment variables the Redis client (@redis/client) reads when it loads: Deno must allow
 * them (by name) or the client fails to connect.
 */
export const REDIS_CLIENT_ENV = ["REDIS_DEBUG_MAINTENANCE", "REDIS_EMIT_DIAGNOSTICS"] as const;
