/**
 * Runs the QuotaStore contract (the scale cases included) against the Redis store on whatever runtime executes this file
 * (Bun, Deno, Node), each case under a prefix of its own, and prints one JSON line:
 * `{ runtime, passed: [names], failed: [{ name, error }] }`. Exit code 1 on any failure.
 *
 *   bun test/store/redisSmoke.ts redis://127.0.0.1:<port>/0
 *   deno run --allow-net=127.0.0.1:<port> --allow-env=… test/store/redisSmoke.ts redis://127.0.0.1:<port>/0
 */
import { openRedisStore } from "../../runtime/stores/redis/redisStore.ts";
import { contractCases, runCases } from "./contractCases.ts";
import { scaleCases } from "./scaleCases.ts";
import { usageCases } from "./usageCases.ts";
import { classCases } from "./classCases.ts";

const url = process.argv[2];
if (url === undefined) throw new Error("usage: redisSmoke.ts <redis-url>");

const runtime = typeof Bun !== "undefined" ? "bun" : typeof (globalThis as { Deno?: unknown }).Deno !== "undefined" ? "deno" : "node";
const run = `${runtime}-${Date.now().toString(36)}`;
const { passed, failed } = await runCases([...contractCases, ...usageCases, ...classCases, ...scaleCases], (i) =>
  openRedisStore({ url, prefix: `${run}-${i}:`, log: () => {} }),
);
console.log(JSON.stringify({ runtime, passed, failed }));
if (failed.length > 0) process.exitCode = 1;
