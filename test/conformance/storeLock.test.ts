/**
 * The quota store never blocks interface A (the SQLite drivers are synchronous: docs/running.md "Configuration"): while another
 * connection holds the SQLite write lock for 3 s, interface A and /healthz keep answering (slowest
 * answer under 250 ms; before, every answer waited up to the 5 s busy timeout) and metered calls
 * answer within about a second, served or `503 service_unavailable` with `Retry-After`, and a
 * call answered 503 is not counted. On each runtime's entry, against a real process.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { quotaDay } from "../../runtime/core/quota/clock.ts";
import { awayFromRollover, send } from "./client.ts";
import { type StartServer, bunSource, denoSource, nodeSource } from "./servers.ts";

const LOCK_MS = 3_000;
const A_SLOWEST_MS = 250;
const METERED_SLOWEST_MS = 1_500;

const dir = mkdtempSync(join(tmpdir(), "hanja-store-lock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** GETs `path` in a loop until `until()`, one at a time; resolves with each answer's status, time and Retry-After. */
async function loop(url: string, paths: string[], headers: Record<string, string>, until: () => boolean) {
  const answers: { path: string; status: number; ms: number; retryAfter: string | null; code?: string }[] = [];
  for (let i = 0; !until(); i++) {
    const path = paths[i % paths.length] as string;
    const started = performance.now();
    const response = await fetch(url + path, { headers });
    const text = await response.text();
    answers.push({
      path,
      status: response.status,
      ms: performance.now() - started,
      retryAfter: response.headers.get("retry-after"),
      code: response.status === 503 ? JSON.parse(text).code : undefined,
    });
  }
  return answers;
}

const runtimes: [string, StartServer][] = [
  ["node", nodeSource],
  ["bun", bunSource],
  ["deno", denoSource],
];

for (const [name, start] of runtimes) {
  describe(`a locked quota database: ${name}`, () => {
    it(`another connection holding the write lock ${LOCK_MS / 1000} s blocks neither interface A nor /healthz; metered calls answer within about a second, never counted twice`, {
      timeout: 60_000,
    }, async () => {
      const db = join(dir, `${name}.sqlite`);
      const server = await start({ QUOTA_DB: db });
      try {
        const issued = await send(server.url, "/quiz/v1/subscribe", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ name: "Lock", email: `lock-${name}@example.com` }),
        });
        expect(issued.status, issued.text).toBe(201);
        const key = issued.body.api_key as string;
        await awayFromRollover(60_000);
        // Warm both paths (the first full-text search loads an index).
        expect((await send(server.url, "/hanja/v1/hanja?q=water")).status).toBe(200);

        const other = new Database(db, { timeout: 5_000 });
        other.exec("BEGIN IMMEDIATE");
        const lockedAt = Date.now();
        const until = () => Date.now() - lockedAt > LOCK_MS;
        const [a, metered] = await Promise.all([
          loop(server.url, ["/hanja/v1/meta", "/healthz", "/hanja/v1/hanja/%E6%B0%B4", "/hanja/v1/hanja?q=water"], {}, until),
          loop(server.url, ["/quiz/v1/idiom/1"], { "X-API-Key": key }, until),
        ]);
        other.exec("COMMIT");
        other.close();
        const after = await send(server.url, "/quiz/v1/idiom/1", { headers: { "X-API-Key": key } });
        expect(after.status).toBe(200);

        const aSlowest = Math.max(...a.map((x) => x.ms));
        const meteredSlowest = Math.max(...metered.map((x) => x.ms));
        const served = metered.filter((x) => x.status === 200).length;
        const refused = metered.filter((x) => x.status === 503);
        console.log(
          `${name}, lock held ${LOCK_MS} ms: interface A and /healthz ${a.length} answers, slowest ${aSlowest.toFixed(0)} ms; metered ${metered.length} answers (${served} served, ${refused.length} 503), slowest ${meteredSlowest.toFixed(0)} ms`,
        );
        expect(a.every((x) => x.status === 200)).toBe(true);
        expect(aSlowest).toBeLessThan(A_SLOWEST_MS);
        expect(metered.every((x) => x.status === 200 || x.status === 503)).toBe(true);
        expect(refused.length).toBeGreaterThan(0);
        for (const answer of refused) expect(answer).toMatchObject({ code: "service_unavailable", retryAfter: "1" });
        expect(meteredSlowest).toBeLessThan(METERED_SLOWEST_MS);

        // Only the calls served were counted.
        const check = new Database(db, { readonly: true });
        const row = check.prepare("SELECT used FROM counters WHERE bucket LIKE 'key:%' AND day = ?").get(quotaDay(new Date(), 540).day) as { used: number };
        check.close();
        expect(row.used).toBe(served + 1);
      } finally {
        expect(await server.stop(), server.stderr()).toBe(0);
      }
    });
  });
}
