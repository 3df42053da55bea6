/**
 * The connection to Redis: the client's settings for metering, the first connection at start-up,
 * and what a failure means. The client's defaults (queue commands while disconnected, resend them
 * after a reconnect) would hold a metered request for as long as Redis is away and could count a
 * call twice; here nothing is queued while disconnected, a command sent is never sent again, and
 * the client reconnects by itself in the background.
 */
import { readFileSync } from "node:fs";
import { ErrorReply, createClient, createCluster } from "@redis/client";
import type { RedisTarget } from "./redisUrl.ts";

/** What the store uses of the client. */
export interface RedisConnection {
  readonly isOpen: boolean;
  readonly isReady: boolean;
  /**
   * Sends a command. On a cluster `routeBy` names the key whose slot's primary gets it, and that
   * primary alone, on the connection the scripts of the slot go by (a `WAIT` after a script on that
   * slot); by default the command's first key routes it.
   */
  sendCommand(args: string[], routeBy?: string): Promise<unknown>;
  /** On a cluster, the address of the primary serving `key`'s slot as the client last learnt it (one Redis: undefined). */
  primaryOf?(key: string): string | undefined;
  /** Closes after the commands already sent are answered. */
  close(): Promise<unknown>;
  destroy(): void;
}

/** Longest wait for the first connection at start-up before the server starts without it. */
export const STARTUP_WAIT_MS = 3000;
/** Longest wait for a TCP (and TLS) connection to Redis. */
const CONNECT_TIMEOUT_MS = 2000;
/** Reconnection backoff: 50 ms doubling up to this. */
const MAX_BACKOFF_MS = 1000;
/** On a cluster, how long after a node's first reconnection attempt (then between attempts) the slots are asked again. */
const TOPOLOGY_REFRESH_MS = 500;

/** Redis refused the connection's credentials or database: a setting to fix, not an outage. */
const REFUSAL = /^(WRONGPASS|NOAUTH|NOPERM)\b|^ERR (DB index is out of range|invalid password|AUTH\b|.*\bSELECT\b)/;
/** Replies that mean Redis cannot answer now, though it is reachable. */
const BUSY_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|OOM|MISCONF|NOREPLICAS)\b/;

/** Whether `error` is Redis refusing the credentials or the database of `REDIS_URL`. */
export function isRefusal(error: unknown): boolean {
  return error instanceof Error && REFUSAL.test(error.message);
}

/**
 * Whether `error` means Redis cannot answer now (down, unreachable, loading, out of memory…), as
 * opposed to a mistake in a command, which is a bug and is answered 500.
 */
export function isOutage(error: unknown): boolean {
  if (!(error instanceof ErrorReply)) return true;
  return BUSY_REPLY.test(error.message) || REFUSAL.test(error.message);
}

/** What the server sees of the connection, for `/healthz` and the log. */
export interface ConnectionState {
  ready: boolean;
  /** The last connection error, when not ready (never a password: Redis errors do not hold one). */
  error?: string;
}

export interface ConnectOptions {
  target: RedisTarget;
  /** PEM file of the certificate authority for `rediss://` (`REDIS_CA`); default: the system's. */
  caFile?: string;
  /** Called when the connection is lost or comes back. */
  onChange?: (state: ConnectionState) => void;
}

/**
 * Creates the client and makes the first connection. Resolves when connected or, when Redis does
 * not answer within `STARTUP_WAIT_MS`, with a client still trying in the background (the server
 * starts; metered calls answer 503 until Redis is there). Rejects when Redis refuses the URL's
 * credentials or database, or the CA file cannot be read: settings an operator must fix.
 */
export async function connect(options: ConnectOptions): Promise<{ client: RedisConnection; state: () => ConnectionState }> {
  const { target } = options;
  let ca: string | undefined;
  if (options.caFile !== undefined) {
    if (!target.tls) throw new Error("REDIS_CA is set but REDIS_URL is not rediss:// (TLS)");
    try {
      ca = readFileSync(options.caFile, "utf8");
    } catch (error) {
      throw new Error(`REDIS_CA: cannot read ${options.caFile}: ${(error as Error).message}`);
    }
  }
  let started = false;
  let lastError: string | undefined;
  let ready = false;
  const socket = {
    connectTimeout: CONNECT_TIMEOUT_MS,
    ...(target.tls ? { tls: true as const, ...(ca === undefined ? {} : { ca }) } : {}),
    // At start-up a refusal stops the server (a setting to fix); later one is an outage, as a
    // password rotated on Redis before the server's is: keep trying.
    reconnectStrategy: (retries: number, cause: Error) => (!started && isRefusal(cause) ? cause : Math.min(50 * 2 ** retries, MAX_BACKOFF_MS)),
  };
  const client = target.cluster
    ? clusterConnection(target, socket)
    : createClient({
        url: target.url,
        disableOfflineQueue: true,
        // The store bounds each call itself, with one timer for all (`Deadlines`): the client's own
        // 5 s default makes an AbortSignal and a timer per command, which weighed on every call
        // (see RESULTS.md, "The ceiling of a Redis-backed call").
        commandOptions: { timeout: 0 },
        socket,
      });
  const change = (now: boolean, error?: string) => {
    if (error !== undefined) lastError = error;
    if (now === ready) return;
    ready = now;
    options.onChange?.({ ready, ...(ready ? {} : { error: lastError }) });
  };
  client.on("error", (error: Error) => change(false, error.message));
  client.on("ready", () => change(true));
  client.on("end", () => change(false));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<"waited">((resolve) => (timer = setTimeout(() => resolve("waited"), STARTUP_WAIT_MS)));
  const connecting = client.connect();
  try {
    await Promise.race([connecting, waited]);
  } catch (error) {
    clearTimeout(timer);
    client.destroy();
    throw new Error(`Redis at ${target.safe} refused the connection: ${(error as Error).message}`);
  }
  clearTimeout(timer);
  started = true;
  // Still connecting in the background: a refusal now is reported through `state`.
  connecting.catch(() => {});
  ready = client.isReady;
  return {
    client: client as unknown as RedisConnection,
    state: () => ({ ready: client.isReady, ...(client.isReady ? {} : { error: lastError ?? "not connected yet" }) }),
  };
}

/** The first key of a command as the store sends them (`EVALSHA sha n key…`, `GET key`…), for a cluster's routing; none for `PING`, `CONFIG`. */
export function firstKey(args: readonly string[]): string | undefined {
  const name = args[0]?.toUpperCase();
  if (name === "EVAL" || name === "EVALSHA") return args[2] === "0" ? undefined : args[3];
  if (name === "PING" || name === "CONFIG" || name === "INFO") return undefined;
  return args[1];
}

/** The Redis Cluster slot of a key: CRC16 (XMODEM) of its hash tag (the first non-empty `{…}`), or of the whole key, mod 16384. */
export function keySlot(key: string): number {
  const open = key.indexOf("{");
  const close = open < 0 ? -1 : key.indexOf("}", open + 1);
  const hashed = close > open + 1 ? key.slice(open + 1, close) : key;
  let crc = 0;
  for (const byte of Buffer.from(hashed)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}

/**
 * A Redis Cluster's client, found from the node `REDIS_URL` names, with the same settings as one
 * Redis's (no offline queue, no per-command timer) for every node it connects to. Each command goes
 * to the primary of its first key's slot; a `MOVED` (a slot moved, a replica promoted: the command
 * did not run) is followed, a command lost with its node is not sent again.
 */
function clusterConnection(
  target: RedisTarget,
  socket: object,
): RedisConnection & { on(event: string, listener: (...args: never[]) => void): unknown; connect(): Promise<unknown> } {
  const url = new URL(target.url);
  const credentials = {
    ...(url.username === "" ? {} : { username: decodeURIComponent(url.username) }),
    ...(url.password === "" ? {} : { password: decodeURIComponent(url.password) }),
  };
  const cluster = createCluster({
    rootNodes: [{ url: target.url }],
    defaults: { ...credentials, disableOfflineQueue: true, socket: socket as never },
    commandOptions: { timeout: 0 },
    // While a node cannot be reached (a primary failed), the slots are asked again this often, so
    // that its promoted replica is found within about a second of its election, not after the
    // client's default 5 s.
    topologyRefreshOnReconnectionAttemptStrategy: TOPOLOGY_REFRESH_MS,
  });
  /**
   * `args` sent to the primary of `key`'s slot itself. Through the cluster's `sendCommand`, a
   * command that Redis's command tips send to every shard goes to every primary: a `WAIT` (tips
   * `request_policy:all_shards`, `response_policy:agg_min`) would then cost every primary a `WAIT`
   * and, while one primary is down, fail on every slot, not only on that primary's.
   */
  const onPrimaryOf = async (key: string, args: string[]): Promise<unknown> => {
    const node = cluster.slots[keySlot(key)]?.master;
    if (node === undefined) throw new Error(`no primary known for slot ${keySlot(key)}`);
    return (await cluster.nodeClient(node)).sendCommand(args, { timeout: 0 });
  };
  return {
    get isOpen() {
      return cluster.isOpen;
    },
    get isReady() {
      return cluster.isReady;
    },
    sendCommand: (args: string[], routeBy?: string) => (routeBy === undefined ? cluster.sendCommand(firstKey(args), false, args) : onPrimaryOf(routeBy, args)),
    primaryOf: (key: string) => cluster.slots[keySlot(key)]?.master.address,
    close: () => cluster.close(),
    destroy: () => cluster.destroy(),
    connect: () => cluster.connect(),
    on(event: string, listener: (...args: never[]) => void) {
      // The cluster says `connect` and `disconnect` where one Redis says `ready` and `end`.
      const name = event === "ready" ? "connect" : event === "end" ? "disconnect" : event;
      return cluster.on(name, listener as never);
    },
  };
}

/**
 * Redis's persistence as this store needs it: a warning when it is off or partial, none when it is
 * on or when Redis does not let this client see its configuration (managed services often refuse
 * `CONFIG GET`).
 */
export async function persistenceWarning(client: RedisConnection, where: string): Promise<string | undefined> {
  let config: Record<string, string>;
  try {
    const reply = (await client.sendCommand(["CONFIG", "GET", "appendonly"])) as unknown;
    const save = (await client.sendCommand(["CONFIG", "GET", "save"])) as unknown;
    config = { ...pairs(reply), ...pairs(save) };
  } catch {
    return undefined;
  }
  if (config.appendonly === undefined || config.save === undefined) return undefined;
  if (config.appendonly === "yes") return undefined;
  if (config.save.trim() === "") {
    return `Redis at ${where} has persistence off (appendonly no, no save points): a restart of Redis loses every key, application and count. Turn on appendonly (README: Scaling out).`;
  }
  return `Redis at ${where} keeps only RDB snapshots (appendonly no): a crash of Redis loses the keys, applications and counts since the last snapshot. Turn on appendonly (README: Scaling out).`;
}

/** `CONFIG GET`'s reply (a flat array under RESP2, a map under RESP3) as a record. */
function pairs(reply: unknown): Record<string, string> {
  if (Array.isArray(reply)) {
    const record: Record<string, string> = {};
    for (let i = 0; i + 1 < reply.length; i += 2) record[String(reply[i])] = String(reply[i + 1]);
    return record;
  }
  if (reply instanceof Map) return Object.fromEntries([...reply].map(([k, v]) => [String(k), String(v)]));
  return typeof reply === "object" && reply !== null ? Object.fromEntries(Object.entries(reply).map(([k, v]) => [k, String(v)])) : {};
}
