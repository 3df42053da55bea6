/**
 * Slow: a primary of a Redis Cluster (3 primaries, 3 replicas) killed under load from four servers
 * (Node, Node, Bun, Deno; `REDIS_CLUSTER=1`), keyed and demo calls mixed: its replica takes over,
 * the calls whose slot was on it answer 503 meanwhile and are not counted, the others are answered
 * 200 throughout (with `cluster-require-full-coverage no`), and every call answered 200 is counted
 * exactly once. The switch time and the counts are printed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConformanceServer, bunSource, denoSource, nodeSource } from "../conformance/servers.ts";
import { awayFromRollover } from "../conformance/client.ts";
import { stopAllServers } from "../helpers/server.ts";
import { type TestRedis, type TestRedisCluster, removeAllRedis, skipRedis, startRedisCluster } from "../helpers/redisServer.ts";
import { Q, applicant } from "../http/quiz-helpers.ts";
import { quotaDay } from "../../runtime/core/quota/clock.ts";
import { keySlot } from "../../runtime/stores/redis/connection.ts";

const ADMIN_TOKEN = "redis-cluster-admin-token";
const KEYS = 6;
/** Demo callers: each makes fewer calls than the demo's 30 a day, so every answer is 200 or 503. */
const DEMO_CALLS_EACH = 20;

type Server = ConformanceServer & { kill(signal: NodeJS.Signals): void; stderr(): string };
interface Result {
  status: number;
  /** Which key (index) or demo address made the call. */
  who: string;
  at: number;
}

async function call(server: Server, path: string, headers: Record<string, string>): Promise<number> {
  try {
    const response = await fetch(`${server.url}${Q}${path}`, { headers });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

/** The slot of a hash tag's content (or of a whole name without one). */
const slotOf = (tag: string) => keySlot(`{${tag}}`);

/** The node serving `slot` as primary now, as `node` sees the cluster. */
function primaryOf(cluster: TestRedisCluster, node: TestRedis, slot: number): number {
  for (const line of cluster.cli(node, "CLUSTER", "NODES").split("\n")) {
    if (!/\bmaster\b/.test(line) || /\bfail\b/.test(line)) continue;
    const port = Number(/:(\d+)@/.exec(line)?.[1]);
    for (const range of line.split(" ").slice(8)) {
      const [from, to] = range.split("-").map(Number);
      if (from !== undefined && slot >= from && slot <= (to ?? from)) return port;
    }
  }
  return 0;
}

describe.skipIf(skipRedis)("a Redis Cluster's primary killed under load", () => {
  let cluster: TestRedisCluster;
  let servers: Server[] = [];

  beforeAll(async () => {
    // Without full coverage required, the other primaries serve while one is failing over (Redis's
    // default, `yes`, answers CLUSTERDOWN for every slot until the replica has taken over).
    cluster = await startRedisCluster(["--appendonly", "yes", "--cluster-require-full-coverage", "no"]);
    const env = { QUOTA_STORE: "redis", REDIS_URL: cluster.url, REDIS_CLUSTER: "1", REDIS_PREFIX: "fo:", ADMIN_TOKEN, TRUST_PROXY_HOPS: "1" };
    servers = await Promise.all([nodeSource(env), nodeSource(env), bunSource(env), denoSource(env)]);
  }, 180_000);
  afterAll(async () => {
    await stopAllServers();
    await removeAllRedis();
  });

  it("its replica takes over; calls meanwhile answer 503 and are not counted; every 200 is counted exactly once", { timeout: 180_000 }, async () => {
    await awayFromRollover(90_000);
    const keys: { key: string; id: string }[] = [];
    for (let k = 0; k < KEYS; k++) {
      const response = await fetch(`${servers[k % 4]!.url}${Q}/subscribe`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Forwarded-For": `198.51.100.${k + 1}` },
        body: JSON.stringify(applicant(`failover-${k}`)),
      });
      expect(response.status).toBe(201);
      const body = (await response.json()) as { api_key: string; key: { id: string } };
      const confirmed = await fetch(`${servers[0]!.url}${Q}/admin/keys/${body.key.id}/confirm`, {
        method: "POST",
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(confirmed.status).toBe(200);
      keys.push({ key: body.api_key, id: body.key.id });
    }
    // Key 0: a key whose slot's primary is not the one of `{keys}` (the key records and version).
    const keysPrimary = primaryOf(cluster, cluster.nodes[0]!, slotOf("keys"));
    const first = keys.findIndex(({ id }) => primaryOf(cluster, cluster.nodes[0]!, slotOf(`key:${id}`)) !== keysPrimary);
    expect(first, "a key on another primary than {keys}'s").toBeGreaterThanOrEqual(0);
    keys.unshift(...keys.splice(first, 1));
    // The victim: the primary of key 0's slot (so keyed calls are sure to meet the switch), and its slots.
    const victimPort = primaryOf(cluster, cluster.nodes[0]!, slotOf(`key:${keys[0]!.id}`));
    const victim = cluster.nodes.find((node) => node.port === victimPort)!;
    const victimRanges = cluster
      .cli(cluster.nodes[0]!, "CLUSTER", "NODES")
      .split("\n")
      .filter((line) => line.includes(`:${victimPort}@`))
      .flatMap((line) => line.split(" ").slice(8))
      .map((range) => range.split("-").map(Number))
      .map(([from, to]) => [from!, to ?? from!] as const);
    const day = quotaDay(new Date(), 9 * 60).day;
    /** Whether the call's counter is in a slot of the killed primary (a key's `{key:<id>}`, a demo address's whole name). */
    const onVictim = (who: string) => {
      const slot = who.startsWith("key") ? slotOf(`key:${keys[Number(who.slice(3))]!.id}`) : slotOf(`fo:count:${day}:ip:${who}`);
      return victimRanges.some(([from, to]) => slot >= from && slot <= to);
    };
    const results: Result[] = [];
    let demo = 0;
    let stop = false;
    const loop = async (l: number) => {
      for (let i = 0; !stop && i < 5000; i++) {
        const server = servers[(l + i) % servers.length]!;
        if (i % 2 === 0) {
          const k = (l + i) % KEYS;
          results.push({ status: await call(server, "/idiom", { "X-API-Key": keys[k]!.key }), who: `key${k}`, at: performance.now() });
        } else {
          const address = `203.0.113.${Math.floor(demo++ / DEMO_CALLS_EACH) % 250}`;
          results.push({ status: await call(server, "/idiom", { "X-Forwarded-For": address }), who: address, at: performance.now() });
        }
      }
    };
    const loops = Array.from({ length: 8 }, (_, l) => loop(l));
    while (results.filter((r) => r.status === 200).length < 300) await new Promise((resolve) => setTimeout(resolve, 10));
    const killedAt = performance.now();
    await victim.stop(true);
    // Until the replica has taken over, then until 300 more calls of key 0 (on the promoted replica) are served.
    let promotedAt = 0;
    for (let i = 0; i < 600 && promotedAt === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const seen = cluster.nodes.find((node) => node !== victim)!;
      const now = primaryOf(cluster, seen, slotOf(`key:${keys[0]!.id}`));
      if (now !== 0 && now !== victimPort) promotedAt = performance.now();
    }
    expect(promotedAt, "the replica took over").toBeGreaterThan(0);
    const servedKey0After = () => results.filter((r) => r.who === "key0" && r.status === 200 && r.at > promotedAt).length;
    for (let i = 0; i < 600 && servedKey0After() < 100; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    stop = true;
    await Promise.all(loops);
    const timeline: Record<string, Record<number, number>> = {};
    for (const r of results.filter((r) => r.who === "key0" || r.status !== 200)) {
      const second = Math.floor((r.at - killedAt) / 1000);
      const row = (timeline[`${r.who === "key0" ? "key0" : r.who.startsWith("key") ? "keys" : "demo"} ${second}s`] ??= {});
      row[r.status] = (row[r.status] ?? 0) + 1;
    }
    console.log(JSON.stringify({ promotedAfterMs: Math.round(promotedAt - killedAt), timeline }));
    expect(servedKey0After()).toBeGreaterThanOrEqual(100);

    expect(new Set(results.map((r) => r.status))).toEqual(new Set([200, 503]));
    const unavailable = results.filter((r) => r.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    // Only the killed primary's slots meet the switch: every call counted on another primary is answered 200.
    const elsewhere = results.filter((r) => !onVictim(r.who));
    expect(elsewhere.length).toBeGreaterThan(0);
    expect(elsewhere.filter((r) => r.status !== 200).length, "calls on the other primaries' slots not answered 200").toBe(0);
    // Exact counts: each key's count is its 200s, each demo address's too (read through the API).
    const served = (who: string) => results.filter((r) => r.who === who && r.status === 200).length;
    for (const [k, { key }] of keys.entries()) {
      const me = await fetch(`${servers[k % 4]!.url}${Q}/me`, { headers: { "X-API-Key": key } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { key: { used_today: number } }).key.used_today, `key ${k}`).toBe(served(`key${k}`));
    }
    const addresses = [...new Set(results.filter((r) => r.who.startsWith("203.")).map((r) => r.who))];
    for (const address of addresses) {
      const response = await fetch(`${servers[0]!.url}${Q}/idiom`, { headers: { "X-Forwarded-For": address } });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      expect(30 - 1 - Number(response.headers.get("x-ratelimit-remaining")), address).toBe(served(address));
    }
    const firstUnavailable = Math.min(...unavailable.map((r) => r.at));
    const lastUnavailable = Math.max(...unavailable.map((r) => r.at));
    // The instances find the promoted replica within about a second of its election (the client's default: 5 s after the kill).
    expect(lastUnavailable - promotedAt, "503s after the replica took over (ms)").toBeLessThan(2000);
    console.log(
      JSON.stringify({
        failover: {
          calls: results.length,
          served: results.filter((r) => r.status === 200).length,
          unavailable: unavailable.length,
          unavailableKeyed: unavailable.filter((r) => r.who.startsWith("key")).length,
          servedElsewhere: elsewhere.length,
          promotedAfterMs: Math.round(promotedAt - killedAt),
          firstUnavailableAfterMs: Math.round(firstUnavailable - killedAt),
          lastUnavailableAfterMs: Math.round(lastUnavailable - killedAt),
          keysCounted: keys.length,
          demoAddressesCounted: addresses.length,
        },
      }),
    );
  });
});
