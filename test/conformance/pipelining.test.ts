/**
 * Clients that pipeline thousands of requests for large answers and never read cannot exhaust a
 * server's memory or starve other clients, on each runtime: 400 connections each send 2,000 GETs
 * of the OpenAPI document, 50-row searches and 20-question quizzes at once and read nothing. The
 * server's resident memory stays under a bound (Node's is the one README gives; Bun's and Deno's are
 * about twice what was measured), another client is answered within a second while they hold on,
 * and the server lives. Before node:http was made to stop reading such connections, Node grew past
 * 2 GB here and answered no one else.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { flood, probeLatency, rssOf } from "../helpers/pipelining.ts";
import { spawnServer } from "../helpers/server.ts";
import { environment, sourceCommand } from "./servers.ts";

const CONNECTIONS = 400;
const PIPELINED = 2_000;
/**
 * How long after the flood starts the probes begin: node:http accepts one connection per turn of
 * its event loop, so a client arriving with the flood waits behind its connections, and Deno
 * writes answers until every connection's socket buffers are full.
 */
const SETTLE_MS: Record<string, number> = { node: 3_000, bun: 2_000, deno: 12_000 };
const PROBES = 6;
/** Peak resident memory allowed, in MiB. */
const RSS_BOUND_MB: Record<string, number> = { node: 400, bun: 200, deno: 400 };

const dir = mkdtempSync(join(tmpdir(), "hanja-pipelining-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("pipelining clients that never read", () => {
  for (const runtime of ["node", "bun", "deno"] as const) {
    it(`${runtime}: ${CONNECTIONS} × ${PIPELINED} pipelined GETs: RSS under ${RSS_BOUND_MB[runtime]} MB, another client answered within a second, the server lives`, async () => {
      const env = environment({ QUOTA_DB: join(dir, `${runtime}.sqlite`) });
      const server = await spawnServer({ ...sourceCommand(runtime, env), env });
      let peakKb = 0;
      const sampler = setInterval(() => (peakKb = Math.max(peakKb, rssOf(server.pid))), 100);
      const held = flood(Number(new URL(server.url).port), CONNECTIONS, PIPELINED);
      try {
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS[runtime]));
        const latencies: number[] = [];
        for (let i = 0; i < PROBES; i++) {
          latencies.push(Math.round(await probeLatency(server.url, 5_000)));
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        const peakMb = Math.round(peakKb / 1024);
        console.log(`${runtime}: peak RSS ${peakMb} MB, probes ${latencies.join(", ")} ms, ${held.closedByServer()} flood connections closed by the server`);
        expect(rssOf(server.pid), server.stderr()).toBeGreaterThan(0);
        expect(peakMb).toBeLessThan(RSS_BOUND_MB[runtime] as number);
        for (const latency of latencies) expect(latency).toBeLessThan(1_000);
      } finally {
        clearInterval(sampler);
        held.release();
        expect(await server.stop()).toBe(0);
      }
    }, 60_000);
  }
});
