/**
 * A fuzz test against real server processes on each runtime: random methods, targets, header
 * fields and bodies (fuzzRequests.ts), some with a run of thousands of punctuation characters,
 * a fixed number per runtime, while clients pipelining hundreds of requests (random ones, and GETs
 * of large answers) hold their connections without reading. No answer is a 5xx, a long run is
 * answered within a second, every problem body is JSON, and the server is healthy afterwards. The seed is printed on a failure
 * (fast-check's report); `FUZZ_SEED=<seed>` replays a run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { flood } from "../helpers/pipelining.ts";
import { KNOWN_METHODS, fuzzRequest } from "./fuzzRequests.ts";
import { type StartServer, bunSource, denoSource, nodeSource } from "./servers.ts";

/** Requests per runtime. */
const RUNS = 500;
/** Clients that pipeline and never read, held open through the run: of GETs of large answers, and of random requests. */
const PIPELINING = { large: { connections: 40, requests: 500 }, random: { connections: 10, requests: 200 } };
const SEED = process.env["FUZZ_SEED"] ? Number(process.env["FUZZ_SEED"]) : Date.now() % 2_147_483_647;

const dir = mkdtempSync(join(tmpdir(), "hanja-fuzz-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Sends `request` on a new connection; resolves with what came back when the server closed it (at most 5 s). */
function exchange(port: number, request: Buffer): Promise<{ answer: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(request));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ answer: Buffer.concat(chunks).toString("latin1"), timedOut: true });
    }, 5_000);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ answer: Buffer.concat(chunks).toString("latin1"), timedOut: false });
    });
  });
}

const runtimes: [string, StartServer][] = [
  ["node", nodeSource],
  ["bun", bunSource],
  ["deno", denoSource],
];

for (const [name, start] of runtimes) {
  describe(`fuzz: ${name}`, () => {
    it(`${RUNS} random requests beside pipelining clients that never read: an answer to each, no 5xx, long punctuation runs within a second, problems are JSON, healthy afterwards`, {
      timeout: 120_000,
    }, async () => {
      const server = await start({ QUOTA_DB: join(dir, `${name}.sqlite`), ADMIN_TOKEN: "fuzz-admin-token-0123456789" });
      try {
        const port = Number(new URL(server.url).port);
        // The reader is prepared at a server's first reading (about 1 s of slices, docs/rules.md):
        // done here, so that a long run's time is the request's own.
        expect((await fetch(`${server.url}/hanja/v1/read?text=%E5%AD%B8`)).status).toBe(200);
        const statuses = new Map<number, number>();
        const random = fc.sample(fuzzRequest, { numRuns: PIPELINING.random.requests, seed: SEED }).map(({ bytes }) => bytes);
        const held = [
          flood(port, PIPELINING.large.connections, PIPELINING.large.requests),
          ...Array.from({ length: PIPELINING.random.connections }, () => flood(port, 1, 1, [], Buffer.concat(random))),
        ];
        await fc.assert(
          fc.asyncProperty(fuzzRequest, async ({ method, bytes, longRun }) => {
            const started = performance.now();
            const { answer, timedOut } = await exchange(port, bytes);
            const ms = performance.now() - started;
            const sent = bytes.toString("latin1").slice(0, 300);
            const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            expect(timedOut, `no answer within 5 s to ${sent}`).toBe(false);
            // A long run of punctuation is read in one pass: a second is far more than it needs even on a busy machine.
            if (longRun) expect(ms, `${ms.toFixed(0)} ms to answer ${sent}`).toBeLessThan(1_000);
            // Bun closes the connection on a method token its parser does not know; any other request gets an answer.
            if (KNOWN_METHODS.includes(method)) expect(status, `closed without an answer: ${sent}`).toBeGreaterThan(0);
            expect(status, `${answer.slice(0, 300)}\nto ${sent}`).toBeLessThan(500);
            const body = answer.slice(answer.indexOf("\r\n\r\n") + 4);
            if (/\r\ncontent-type: application\/problem\+json/i.test(answer) && !/\r\ncontent-encoding:/i.test(answer) && body !== "") {
              expect(() => JSON.parse(Buffer.from(body, "latin1").toString("utf8")), `${answer.slice(0, 300)}\nto ${sent}`).not.toThrow();
            }
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
        for (const pipelining of held) pipelining.release();
        console.log(`fuzz ${name}: seed ${SEED}, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
        expect(server.stderr()).not.toMatch(/"level":"error"|unexpected error|Uncaught/);
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
        expect((await fetch(`${server.url}/hanja/v1/meta`)).status).toBe(200);
        expect((await fetch(`${server.url}/quiz/v1/idiom/1`, { headers: { "X-Forwarded-For": "192.0.2.77" } })).status).toBeLessThan(500);
      } finally {
        expect(await server.stop(), server.stderr()).toBe(0);
      }
    });
  });
}
