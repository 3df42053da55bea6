/**
 * Slow: a Node, a Bun and a Deno server on one Redis that sleeps 3 s (`DEBUG SLEEP`) while
 * applicants, keyed calls and demo calls are under way (slowRedis.ts). Every call answered 503
 * ran in Redis when it woke, and was undone: the demo address still has every call it was not
 * served, each key's count equals the calls it was served, and every applicant answered 503 can
 * apply again (README "Failure contract"). No timing is asserted: only what clients got and what
 * counted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bunSource, denoSource, nodeSource } from "../conformance/servers.ts";
import { awayFromRollover } from "../conformance/client.ts";
import { stopAllServers } from "../helpers/server.ts";
import { type TestRedis, removeAllRedis, skipRedis, startRedis } from "../helpers/redisServer.ts";
import { slowSpell, slowSpellEnv } from "./slowRedis.ts";

const ADMIN_TOKEN = "slow-spell-admin-token";

describe.skipIf(skipRedis)("Node, Bun and Deno servers on a Redis that sleeps 3 s", () => {
  let redis: TestRedis;
  let urls: string[] = [];

  beforeAll(async () => {
    redis = await startRedis(["--enable-debug-command", "local"]);
    const env = slowSpellEnv(redis.url, ADMIN_TOKEN);
    urls = (await Promise.all([nodeSource(env), bunSource(env), denoSource(env)])).map((server) => server.url);
  }, 180_000);
  afterAll(async () => {
    await stopAllServers();
    await removeAllRedis();
  });

  it("no call answered 503 is counted, no application answered 503 is kept", { timeout: 120_000 }, async () => {
    await awayFromRollover(60_000);
    const figures = await slowSpell(urls, redis.url, ADMIN_TOKEN);
    console.log(JSON.stringify(figures));
    expect(figures.unexpected).toEqual([]);
    // The demo address made calls only during the spell: its count is the calls served, and it
    // still has the rest of its 30.
    expect(figures.demo.unavailable).toBeGreaterThan(0);
    expect(figures.demo.usedAfter).toBe(figures.demo.served);
    expect(figures.demo.servedAfterOf31).toBe(30 - figures.demo.served);
    for (const key of figures.keys) {
      expect(key.unavailable).toBeGreaterThan(0);
      expect(key.usedAfter).toBe(key.served);
    }
    expect(figures.applicants.unavailable).toBeGreaterThan(0);
    expect(figures.applicants).toMatchObject({ againCreated: figures.applicants.unavailable, againRefused409: 0, againOther: 0 });
  });
});
