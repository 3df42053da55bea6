/**
 * The Redis store as a kind of the registry: keys, applications and counters in a Redis (or
 * Valkey) that several server instances on several machines share. The client is loaded only when
 * the kind is opened; the settings are checked here without it.
 */
import type { StoreKind } from "../storeKind.ts";
import {
  DEFAULT_REDIS_PREFIX,
  REDIS_CLIENT_ENV,
  REDIS_TIMEOUT_MS,
  checkRedisCluster,
  checkRedisPrefix,
  isCluster,
  netPermission,
  parseRedisUrl,
} from "./redisUrl.ts";

/** The problem with a `REDIS_URL` value, or undefined when it is a valid one. */
function urlProblem(url: string, cluster?: string): string | undefined {
  try {
    parseRedisUrl(url, isCluster(cluster));
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** `QUOTA_STORE=redis`. */
export const redisKind: StoreKind<"url" | "prefix" | "ca" | "cluster"> = {
  name: "redis",
  summary: "several instances, on several machines, share one Redis or Valkey",
  variables: [
    {
      name: "REDIS_URL",
      option: "url",
      help: "Redis for QUOTA_STORE=redis: redis://[user:password@]host:6379/0\n(rediss:// for TLS); never printed",
      secret: true,
      check: urlProblem,
      flag: { name: "redis-url", value: "url" },
    },
    {
      name: "REDIS_PREFIX",
      option: "prefix",
      default: DEFAULT_REDIS_PREFIX,
      help: `prefix of every Redis key (default ${DEFAULT_REDIS_PREFIX}), for a Redis shared with other applications`,
      check: checkRedisPrefix,
      flag: { name: "redis-prefix", value: "prefix" },
    },
    {
      name: "REDIS_CA",
      option: "ca",
      help: "PEM file of the certificate authority of a rediss:// Redis (default: the system's)",
      flag: { name: "redis-ca", value: "file" },
    },
    {
      name: "REDIS_CLUSTER",
      option: "cluster",
      default: "0",
      help: "1: REDIS_URL names a node of a Redis Cluster (the others are found from it);\n0: one Redis",
      check: checkRedisCluster,
      flag: { name: "redis-cluster", value: "0|1" },
    },
  ],
  shared: true,
  // The store bounds each operation itself (REDIS_TIMEOUT_MS); this is the registry's backstop.
  timeoutMs: REDIS_TIMEOUT_MS + 500,
  needs: ({ url, ca, cluster }) => ({
    read: ca === undefined ? [] : [ca],
    write: [],
    // A cluster's nodes are found at run time: the seed node's host, on any port.
    net: url === undefined || urlProblem(url, cluster) !== undefined ? [] : [netPermission(parseRedisUrl(url, isCluster(cluster)))],
    env: [...REDIS_CLIENT_ENV],
  }),
  where: ({ url, cluster }) =>
    url === undefined || urlProblem(url, cluster) !== undefined ? "Redis (REDIS_URL)" : parseRedisUrl(url, isCluster(cluster)).safe,
  async open({ url, prefix, ca, cluster }, use = {}) {
    if (url === undefined) throw new Error("REDIS_URL is not set: QUOTA_STORE=redis needs redis://[user:password@]host:6379/0");
    const { openRedisStore } = await import("./redisStore.ts").catch((error: unknown) => {
      throw withMissingClient(error);
    });
    // A one-off command (the keys CLI) cannot wait for Redis to come back: it fails now.
    return openRedisStore({ url, prefix, caFile: ca, cluster: isCluster(cluster), requireConnection: use.oneOff }).catch((error: Error) => {
      // The caller names REDIS_URL already.
      throw new Error(error.message.replace(/^REDIS_URL: /, ""));
    });
  },
};

/**
 * The Redis client is an optional peer dependency of the installed package: a host that chooses
 * this store installs it. Its absence is said plainly, whatever words the runtime uses for it.
 */
function withMissingClient(error: unknown): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (!message.includes("@redis/client")) return error;
  return new Error(
    `the Redis store needs the @redis/client package where the server runs: npm install @redis/client@6, or choose another store (${message.split("\n")[0]})`,
  );
}
