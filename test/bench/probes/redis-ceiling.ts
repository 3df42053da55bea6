// The ceiling of a Redis-backed metered call on this machine (issue 25's "Redis ≥ 80 % of SQLite"):
// minimal node:http servers answering fixed bytes, each request making (a) no store call (answered
// after the turn, as the service writes), (b) one count on an annual key's bucket in the project's
// SQLite store, (c) the same on the project's Redis store (a turn's counts of keys as one script),
// (d) one raw EVALSHA of a trivial script through @redis/client (the floor of any Redis-backed
// call), (e) what the quiz with a key asks the Redis store: the key "to count" (from memory) and its
// count, checked by the script, and (f) the same on SQLite. Loaded with wrk in interleaved rounds;
// medians. The Redis is a private redis-server (AOF everysec, as the quiz benchmark) on a free
// loopback port.
//   ROUNDS=5 SECONDS=4 npx tsx test/bench/probes/redis-ceiling.ts
// Started with MODE=<case> (and REDIS_URL, QUOTA_DB) this file is the server of one case.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

const BODY = '{"success":true,"idiom":{"idx":5,"hanja":"角者無齒","hangul":"각자무치"},"quota":{"plan":"annual","remaining":9876}}';
const HEADERS = { "Content-Type": "application/json; charset=utf-8", "Content-Length": String(Buffer.byteLength(BODY)) };
const BUCKETS = 40;
const DAY = new Date().toISOString().slice(0, 10);
const LIMIT = 1_000_000_000;

async function serve(mode: string): Promise<void> {
  // (a) answers after the turn, together with the turn's other requests, as the service's Node
  // listener writes the replies ready at once.
  const turn: (() => void)[] = [];
  const endOfTurn = () => {
    for (const resolve of turn.splice(0)) resolve();
  };
  let call: (i: number) => Promise<unknown> = () =>
    new Promise<void>((resolve) => {
      if (turn.push(resolve) === 1) setImmediate(endOfTurn);
    });
  if (mode !== "none" && mode !== "evalsha") {
    const { keyBucket } = await import("../../../runtime/core/quota/store.ts");
    const { keyRecord } = await import("../../store/contractCases.ts");
    const store = mode.startsWith("sqlite")
      ? await (await import("../../../runtime/stores/sqlite/sqliteStore.ts")).openSqliteStore(process.env["QUOTA_DB"] as string)
      : await (await import("../../../runtime/stores/redis/redisStore.ts")).openRedisStore({
          url: process.env["REDIS_URL"] as string,
          prefix: `probe-${process.pid}:`,
          log: () => {},
        });
    // Annual keys, as the quiz benchmark's: a count on a key's bucket joins the turn's counts of keys.
    const keys = Array.from({ length: BUCKETS }, () => keyRecord({ plan: "annual", status: "active" }));
    for (const key of keys) await store.insertKey(key);
    const key = (i: number) => keys[i % BUCKETS] as (typeof keys)[number];
    call = mode.endsWith("-key")
      ? (i) => Promise.resolve(store.keyByHash(key(i).hash, true)).then(() => store.consume(keyBucket(key(i).id), DAY, LIMIT))
      : (i) => Promise.resolve(store.consume(keyBucket(key(i).id), DAY, LIMIT));
  } else if (mode === "evalsha") {
    const { createClient } = await import("@redis/client");
    const client = createClient({ url: process.env["REDIS_URL"] as string, disableOfflineQueue: true, commandOptions: { timeout: 0 } });
    await client.connect();
    const sha = String(await client.sendCommand(["SCRIPT", "LOAD", "return 1"]));
    call = () => client.sendCommand(["EVALSHA", sha, "0"]);
  }
  let n = 0;
  const server = createServer((_req, res) => {
    call(n++).then(
      () => res.writeHead(200, HEADERS).end(BODY),
      (error: Error) => res.writeHead(500).end(error.message),
    );
  });
  server.listen(0, "127.0.0.1", () => {
    const address = server.address();
    console.error(JSON.stringify({ msg: `redis-ceiling ${mode}`, url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` }));
  });
  process.on("SIGTERM", () => process.exit(0));
}

async function measure(): Promise<void> {
  const { ROOT, cpuMs, load, median, startServer, table } = await import("../lib.ts");
  const { startRedis } = await import("../../helpers/redisServer.ts");
  const rounds = Number(process.env["ROUNDS"] ?? 5);
  const seconds = Number(process.env["SECONDS"] ?? 4);
  const dir = mkdtempSync(join(tmpdir(), "hanja-redis-ceiling-"));
  const redis = await startRedis(["--appendonly", "yes", "--appendfsync", "everysec"]);
  const cases = [
    ["none", "(a) no store call"],
    ["sqlite", "(b) SQLite store consume"],
    ["redis", "(c) Redis store consume"],
    ["evalsha", "(d) raw EVALSHA 'return 1'"],
    ["redis-key", "(e) Redis keyByHash + consume (quiz path)"],
    ["sqlite-key", "(f) SQLite keyByHash + consume (quiz path)"],
  ] as const;
  const servers = new Map<string, Awaited<ReturnType<typeof startServer>>>();
  const samples = new Map<string, { rps: number[]; cpu: number[]; redisCpu: number[] }>(cases.map(([mode]) => [mode, { rps: [], cpu: [], redisCpu: [] }]));
  // A failed run still stops its Redis (not a child the exit handler of ../lib.ts knows) and removes its folders.
  try {
    // One process per case, all started once (through tsx's loader, in the same process so /proc sees its CPU).
    for (const [mode] of cases) {
      const env = { MODE: mode, REDIS_URL: redis.url, QUOTA_DB: join(dir, "quota.sqlite") };
      servers.set(mode, await startServer("node", ["--import", "tsx", join(ROOT, "test/bench/probes/redis-ceiling.ts")], env, "/"));
    }
    for (let round = 1; round <= rounds; round++) {
      // Rotated order each round, so no case always follows the same one.
      for (let k = 0; k < cases.length; k++) {
        const [mode] = cases[(k + round) % cases.length] as (typeof cases)[number];
        const server = servers.get(mode) as Awaited<ReturnType<typeof startServer>>;
        await load(server.url, ["/"], { seconds: 1 });
        const redisBefore = cpuMs(redis.pid);
        const r = await load(server.url, ["/"], { seconds, server: server.proc });
        if (r.non2xx > 0) throw new Error(`${mode}: ${r.non2xx} non-2xx responses`);
        const s = samples.get(mode) as { rps: number[]; cpu: number[]; redisCpu: number[] };
        s.rps.push(r.rps);
        s.cpu.push(r.cpuUs ?? Number.NaN);
        s.redisCpu.push(((cpuMs(redis.pid) - redisBefore) * 1000) / r.requests);
      }
      console.error(`round ${round}/${rounds} done`);
    }
  } finally {
    for (const server of servers.values()) await server.stop();
    await redis.remove();
    rmSync(dir, { recursive: true, force: true });
  }
  const sqlite = samples.get("sqlite") as { rps: number[] };
  const rows: (string | number)[][] = [
    ["case", "req/s (median)", "÷ (b) SQLite", "÷ (b) per round (median)", "server CPU µs/req", "redis-server CPU µs/req", "server + redis µs/req"],
  ];
  for (const [mode, name] of cases) {
    const s = samples.get(mode) as { rps: number[]; cpu: number[]; redisCpu: number[] };
    const perRound = median(s.rps.map((rps, i) => rps / (sqlite.rps[i] ?? Number.NaN)));
    rows.push([
      name,
      Math.round(median(s.rps)),
      `${((median(s.rps) / median(sqlite.rps)) * 100).toFixed(0)} %`,
      `${(perRound * 100).toFixed(0)} %`,
      median(s.cpu).toFixed(1),
      median(s.redisCpu).toFixed(1),
      median(s.cpu.map((c, i) => c + (s.redisCpu[i] ?? 0))).toFixed(1),
    ]);
  }
  console.log(`\nRedis ceiling on Node ${process.version}, wrk -t1 -c50, ${seconds} s per case, median of ${rounds} interleaved rounds\n`);
  console.log(table(rows));
  console.log(`\nreq/s per round:\n${cases.map(([mode]) => `${mode}: ${(samples.get(mode)?.rps ?? []).map((v) => Math.round(v)).join(", ")}`).join("\n")}`);
}

const mode = process.env["MODE"];
await (mode === undefined ? measure() : serve(mode));
