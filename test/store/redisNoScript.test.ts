/**
 * After a Redis restart every script is sent twice (`EVALSHA`, `NOSCRIPT`, then `EVAL`). The second
 * send gets only what is left of the operation's bound, so the store decides within its own bound
 * and undoes a count that runs after it: otherwise two full bounds outlast the registry's backstop,
 * which answers 503 for a call the store then counts without undoing it.
 */
import { describe, expect, it } from "vitest";
import { StoreUnavailableError } from "../../runtime/core/quota/store.ts";
import type { RedisConnection } from "../../runtime/stores/redis/connection.ts";
import { RedisQuotaStore } from "../../runtime/stores/redis/redisStore.ts";

const BOUND_MS = 1000;
const DELAY_MS = 600;

/** A connection whose Redis has no script loaded and answers every command after `DELAY_MS`. */
function slowRedisWithoutScripts(): RedisConnection & { sent: string[][] } {
  const sent: string[][] = [];
  return {
    sent,
    isOpen: true,
    isReady: true,
    sendCommand(args: string[]) {
      sent.push(args);
      return new Promise((resolve, reject) =>
        setTimeout(() => (args[0] === "EVALSHA" ? reject(new Error("NOSCRIPT No matching script.")) : resolve(args[0] === "EVAL" ? [1, 1] : "OK")), DELAY_MS),
      );
    },
    close: async () => {},
    destroy: () => {},
  };
}

describe("a script sent again after NOSCRIPT", () => {
  it("is bounded by what is left of the operation's bound, and a count it makes after that is undone", async () => {
    const client = slowRedisWithoutScripts();
    const store = new RedisQuotaStore(client, "t:", "redis://test", () => ({ ready: true }), BOUND_MS);
    const started = performance.now();
    const error = await store.consume("ip:192.0.2.1", "2026-11-27", 30).then(
      () => undefined,
      (e: unknown) => e,
    );
    const took = performance.now() - started;
    // Answered unavailable within the store's one bound (not after EVALSHA's 600 ms plus a full bound for EVAL).
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(took).toBeLessThan(BOUND_MS + DELAY_MS);
    expect(client.sent.slice(0, 2).map((args) => args[0])).toEqual(["EVALSHA", "EVAL"]);
    // The EVAL may still count (at 1,200 ms), after the caller was answered: an undo of its
    // marker follows it on the connection, so what it counts is taken back.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 2 * DELAY_MS + 200 - took)));
    const undo = client.sent.slice(2);
    expect(undo.length).toBeGreaterThan(0);
    expect(undo.every((args) => args.some((arg) => arg.includes(":undo:")))).toBe(true);
    await store.close();
  });
});
