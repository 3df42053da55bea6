/**
 * No client can fill a server's memory through its caches (issue 46, point 1): one client sends
 * distinct targets on every route whose answers are remembered — words, idioms and characters
 * searches that match nothing, details with a junk parameter, pages of searches and of a
 * character's words — over four connections, on each runtime at the default ceiling of the caches
 * (`CACHE_MB`, 32). Each cache counts its entries by their bytes, so the server's resident memory
 * stays bounded: Node's within 250 MB, Bun's within 400 MB, Deno's within 1.5 times its idle size
 * plus the ceiling (idle: half a second after a request of each kind has loaded the data it needs). Before
 * the caches were bounded by bytes, such targets took Node past 250 MB within 30 s, Bun past its
 * bound within 30 s and Deno past 400 MB within 20 s.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_CACHE_MB } from "../../runtime/core/util/cacheBudget.ts";
import { driveDistinct } from "../helpers/distinctTargets.ts";
import { rssOf } from "../helpers/pipelining.ts";
import { spawnServer } from "../helpers/server.ts";
import { environment, sourceCommand } from "./servers.ts";

/**
 * Distinct targets sent, at most, and for how long at most: Node and Bun longer, as before the
 * caches counted bytes their RSS took that long to pass their bounds.
 */
const TARGETS = 200_000;
const SECONDS = { node: 30, bun: 30, deno: 20 };
/**
 * Fixed bounds, in MB: Node's as README gives it; Bun's 2.5 times its idle size plus the ceiling.
 * Bun gives back what loading the data took a few seconds later, so its idle size read after
 * loading ranges from 370 MB down to about 150 MB, too loose a base for a bound; and under any
 * stream of distinct requests it holds about twice its idle size, whatever the ceiling (with 8 MB
 * of caches as with 32): Bun's allocator and collector, not the caches. Deno's bound is 1.5 times
 * its idle size plus the ceiling.
 */
const FIXED_BOUND_MB: Record<string, number> = { node: 250, bun: 400 };
const dir = mkdtempSync(join(tmpdir(), "hanja-cache-memory-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const mb = (kb: number) => Math.round(kb / 1024);

describe("distinct targets from one client: memory stays within the caches' ceiling", () => {
  for (const runtime of ["node", "bun", "deno"] as const) {
    it(`${runtime}: up to ${TARGETS} distinct targets in ${SECONDS[runtime]} s`, { timeout: 60_000 }, async () => {
      const env = environment({ QUOTA_STORE: "memory", QUOTA_DB: join(dir, `${runtime}.sqlite`) });
      const server = await spawnServer({ ...sourceCommand(runtime, env), env });
      let peakKb = 0;
      let sampler: ReturnType<typeof setInterval> | undefined;
      try {
        // One request of each kind first (far from the driven ones): the data they need is loaded.
        const warm = await driveDistinct(server.url, { seconds: 20, count: 16, connections: 1, from: 1_000_000_000 });
        expect(warm.statuses, server.stderr()).toEqual({ "2xx": 16 });
        await new Promise((resolve) => setTimeout(resolve, 500));
        const idleMb = mb(rssOf(server.pid));
        sampler = setInterval(() => (peakKb = Math.max(peakKb, rssOf(server.pid))), 100);
        const driven = await driveDistinct(server.url, { seconds: SECONDS[runtime], count: TARGETS, connections: 4 });
        clearInterval(sampler);
        peakKb = Math.max(peakKb, rssOf(server.pid));
        const bound = FIXED_BOUND_MB[runtime] ?? Math.round(1.5 * idleMb + DEFAULT_CACHE_MB);
        console.log(
          `${runtime}: idle ${idleMb} MB, peak ${mb(peakKb)} MB (bound ${bound} MB) over ${driven.requests} distinct targets in ${Math.round(driven.ms)} ms`,
        );
        // Every target was answered (a search without match is 200 with empty data).
        expect(driven.failures).toBe(0);
        expect(driven.statuses).toEqual({ "2xx": driven.requests });
        expect(driven.requests).toBeGreaterThan(0);
        expect(mb(peakKb)).toBeLessThanOrEqual(bound);
      } finally {
        clearInterval(sampler);
        expect(await server.stop(), server.stderr()).toBe(0);
      }
    });
  }
});
