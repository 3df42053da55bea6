/**
 * Private Redis servers for tests: `redis-server` (the Debian package) on a free loopback port,
 * with its files in a temporary folder, stopped and removed by the test. Without `redis-server`
 * the Redis tests fail, unless `SKIP_REDIS_TESTS=1` says to skip them (`redisAvailable`).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Whether the Redis tests run: `redis-server` is there, or fails them when it is missing, unless SKIP_REDIS_TESTS=1. */
export const skipRedis = process.env["SKIP_REDIS_TESTS"] === "1";

/** The `redis-server` program, or an error saying how to get it. */
function redisServerProgram(): string {
  try {
    return execFileSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).trim();
  } catch {
    throw new Error("redis-server is not installed: apt-get install -y redis-server (or set SKIP_REDIS_TESTS=1 to skip the Redis tests)");
  }
}

/** A running private Redis. */
export interface TestRedis {
  port: number;
  /** `redis://127.0.0.1:<port>/0`. */
  url: string;
  dir: string;
  pid: number;
  /** Stops it (SIGKILL with `hard`) and waits for it to exit; the folder stays until `remove`. */
  stop(hard?: boolean): Promise<void>;
  /** Starts it again on the same port and folder (its AOF, if on, brings the data back). */
  restart(): Promise<void>;
  /** Stops it and removes its folder. */
  remove(): Promise<void>;
}

/** A free loopback port: the kernel picks one, then it is released for Redis to take (a start that loses the race is retried). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Spawns redis-server on `port` in `dir`; resolves once it accepts connections, rejects when it exits first. */
function spawnRedis(port: number, dir: string, extra: readonly string[]): Promise<ChildProcess> {
  const args = [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--dir",
    dir,
    "--save",
    "",
    "--appendonly",
    "no",
    "--daemonize",
    "no",
    "--logfile",
    "",
    ...extra,
  ];
  const child = spawn(redisServerProgram(), args, { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        child.stdout?.off("data", onData);
        child.stdout?.resume();
        resolve(child);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`redis-server exited with ${code} before it was ready:\n${output.slice(-2000)}`)));
    child.once("error", reject);
  });
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", () => resolve()));
}

const running = new Set<TestRedis>();

/** Starts a private Redis; `extra` arguments go to redis-server (`--appendonly yes`, …). */
export async function startRedis(extra: readonly string[] = []): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), "hanja-redis-"));
  let child: ChildProcess | undefined;
  let port = 0;
  for (let attempt = 0; child === undefined; attempt++) {
    port = await freePort();
    try {
      child = await spawnRedis(port, dir, extra);
    } catch (error) {
      if (attempt >= 4) throw error;
    }
  }
  let current: ChildProcess = child;
  const stop = async (hard = false) => {
    current.kill(hard ? "SIGKILL" : "SIGTERM");
    await exited(current);
  };
  const redis: TestRedis = {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    dir,
    get pid() {
      return current.pid ?? 0;
    },
    stop,
    async restart() {
      await stop();
      current = await spawnRedis(port, dir, extra);
    },
    async remove() {
      await stop();
      running.delete(redis);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  running.add(redis);
  return redis;
}

/** Stops and removes every Redis started here (for afterAll). */
export async function removeAllRedis(): Promise<void> {
  await Promise.all([...running].map((redis) => redis.remove()));
}

/** A private Redis Cluster: 3 primaries and a replica of each, on free loopback ports. */
export interface TestRedisCluster {
  /** Every node, the three primaries first as `redis-cli --cluster create` assigned them. */
  nodes: TestRedis[];
  /** `redis://127.0.0.1:<port>/0` of the first node: a seed for `REDIS_CLUSTER=1`. */
  url: string;
  /** Runs redis-cli against a node (`CLUSTER INFO`, `INFO commandstats`…) and gives its output. */
  cli(node: TestRedis, ...args: string[]): string;
  /** Waits until every running node says `cluster_state:ok` and agrees on the primaries (at most `ms`). */
  settled(ms?: number): Promise<void>;
  /** The nodes that are primaries now. */
  primaries(): TestRedis[];
}

/** The `redis-cli` program. */
function redisCli(): string {
  return execFileSync("sh", ["-c", "command -v redis-cli"], { encoding: "utf8" }).trim();
}

/**
 * Starts a Redis Cluster of 3 primaries and 3 replicas (`--cluster-enabled yes`, joined by
 * `redis-cli --cluster create … --cluster-replicas 1`), a second's node timeout so a failover
 * takes a few seconds, and resolves once every replica holds its primary's data. `extra`
 * arguments go to every node.
 */
export async function startRedisCluster(extra: readonly string[] = []): Promise<TestRedisCluster> {
  // A replica's first sync starts at once (Redis waits 5 s by default for more replicas to join it).
  const nodes = await Promise.all(
    Array.from({ length: 6 }, () => startRedis(["--cluster-enabled", "yes", "--cluster-node-timeout", "1000", "--repl-diskless-sync-delay", "0", ...extra])),
  );
  const cli = (node: TestRedis, ...args: string[]) => execFileSync(redisCli(), ["-p", String(node.port), ...args], { encoding: "utf8" });
  execFileSync(redisCli(), ["--cluster", "create", ...nodes.map((n) => `127.0.0.1:${n.port}`), "--cluster-replicas", "1", "--cluster-yes"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const alive = (node: TestRedis) => {
    try {
      return cli(node, "PING").trim() === "PONG";
    } catch {
      return false;
    }
  };
  const cluster: TestRedisCluster = {
    nodes,
    url: (nodes[0] as TestRedis).url,
    cli,
    primaries: () => nodes.filter((node) => alive(node) && /role:master/.test(cli(node, "INFO", "replication"))),
    async settled(ms = 20_000) {
      const until = Date.now() + ms;
      for (;;) {
        const running = nodes.filter(alive);
        const ok = running.every((node) => /cluster_state:ok/.test(cli(node, "CLUSTER", "INFO")));
        // Every slot served by a primary that answers, as each node sees it.
        const covered =
          ok &&
          running.every((node) => {
            const masters = cli(node, "CLUSTER", "NODES")
              .split("\n")
              .filter((line) => /\bmaster\b/.test(line) && !/\bfail\b/.test(line) && / \d+-\d+/.test(line));
            return masters.length === 3;
          });
        // And every replica synced with its primary: Redis refuses to promote a replica that never
        // was (its data's age is unknown), so a primary killed before would stay failed.
        const synced =
          covered &&
          running.every((node) => !/role:slave/.test(cli(node, "INFO", "replication")) || /master_link_status:up/.test(cli(node, "INFO", "replication")));
        if (synced) return;
        if (Date.now() > until) throw new Error("the test Redis Cluster did not settle");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
  await cluster.settled();
  return cluster;
}
