// Work that grows with the number of keys (issue 33, point 3): the retention sweep, the erasures
// listing, the key listing and the export over a store of 100,000 or 1,000,000 keys, on SQLite and
// on Redis. Each operation runs in a process of its own, through the store registry as the server
// and the CLI open it, while a 2 ms ticker runs: it prints the operation's time, the longest gap
// between two ticks (the event loop's longest stall), the process's peak RSS, whether it completed,
// the 99th percentile gap and the number of gaps over 50 ms (an "idle" phase, the ticker alone, gives
// the machine's own noise), and on Redis the longest command Redis ran meanwhile (SLOWLOG: what every other instance waits
// for). The first consume of a new day (which used to prune old SQLite counters in its write) is
// timed too. The store is filled fast: one SQLite transaction, or pipelined HSETs of the records as
// an earlier version wrote them (so the Redis store's one-off indexing is timed as "open").
//   KEYS=100000,1000000 STORES=sqlite,redis npx tsx test/bench/probes/key-sweep.ts
//   npx tsx test/bench/probes/key-sweep.ts --fill sqlite <file> <keys>   (or redis <url> <keys>): only fill
// The same file runs on an older checkout (it only uses functions both have): copy it there.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const NOW = new Date();
const DAY_MS = 86_400_000;
const SPAN_DAYS = 400;
/** Phases in the order they run: `consume` before `sweep`, which prunes the old counters it would otherwise meet. */
const PHASES = ["idle", "open", "consume", "erasures", "list", "list-pending", "export", "sweep", "sweep-again"] as const;
type Phase = (typeof PHASES)[number];

/** Key `i` of `n`: created over 400 days, 10 % pending, 5 % revoked (10 days after), the rest active annual keys. */
function keyOf(i: number, n: number) {
  const created = new Date(NOW.getTime() - SPAN_DAYS * DAY_MS + Math.floor((i * SPAN_DAYS * DAY_MS) / n)).toISOString();
  const kind = i % 20;
  const id = `key_${i.toString(36).padStart(6, "0").slice(-6).toUpperCase()}${(i * 7919).toString(36).padStart(6, "x").slice(-6)}`;
  return {
    id,
    hash: createHash("sha256").update(`key-${i}`).digest("hex"),
    plan: kind < 3 ? "free" : "annual",
    status: kind < 2 ? "pending_deposit" : kind === 2 ? "revoked" : "active",
    created_at: created,
    confirmed_at: kind < 2 ? null : created,
    expires_at: kind < 2 ? null : new Date(Date.parse(created) + 365 * DAY_MS).toISOString(),
    revoked_at: kind === 2 ? new Date(Date.parse(created) + 10 * DAY_MS).toISOString() : null,
    name: `신청자 ${i}`,
    email: `applicant-${i}@example.com`,
    phone: "010-0000-0000",
    depositor: null,
  };
}

async function fillSqlite(path: string, n: number): Promise<void> {
  const { openSqliteStore } = await import("../../../runtime/stores/sqlite/sqliteStore.ts");
  (await openSqliteStore(path)).close();
  const Database = (await import("better-sqlite3")).default;
  const db = new Database(path);
  const insert = db.prepare(
    "INSERT INTO keys (id, hash, plan, status, created_at, confirmed_at, expires_at, revoked_at, name, email, phone, depositor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const counter = db.prepare("INSERT INTO counters (bucket, day, used) VALUES (?, ?, 1)");
  const oldDay = new Date(NOW.getTime() - 30 * DAY_MS).toISOString().slice(0, 10);
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const k = keyOf(i, n);
      insert.run(k.id, k.hash, k.plan, k.status, k.created_at, k.confirmed_at, k.expires_at, k.revoked_at, k.name, k.email, k.phone, k.depositor);
      // As many old counters as keys: what a metered call of a new day used to delete in its write.
      counter.run(`ip:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, oldDay);
    }
  })();
  db.close();
}

async function fillRedis(url: string, n: number): Promise<void> {
  const { createClient } = await import("@redis/client");
  const client = createClient({ url });
  await client.connect();
  const p = "hanja:{keys}:";
  let batch: Promise<unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const k = keyOf(i, n);
    const { name, email, phone, depositor, ...key } = k;
    const email_key = email.toLowerCase();
    batch.push(client.hSet(`${p}records`, k.id, JSON.stringify({ ...key, name, email, phone, depositor, email_key })));
    batch.push(client.hSet(`${p}hashes`, k.hash, k.id));
    if (k.status === "pending_deposit") {
      batch.push(client.hSet(`${p}pending`, email_key, k.id));
      batch.push(client.hSet(`${p}references`, `HJ${k.id.slice(4, 10).toUpperCase()}`, k.id));
    }
    if (batch.length >= 2_000) {
      await Promise.all(batch);
      batch = [];
    }
  }
  await Promise.all(batch);
  await client.set(`${p}version`, "1");
  await client.close();
}

/** What the idle phase opens: nothing. */
const NO_STORE = { close: () => {} } as unknown as import("../../../runtime/core/quota/store.ts").QuotaStore;

/** One phase in this process: its figures as one JSON line on stdout. */
async function child(phase: Phase, kind: "sqlite" | "redis", target: string): Promise<void> {
  const { openStore, storeKind } = await import("../../../runtime/stores/registry.ts");
  const retention = await import("../../../runtime/core/quota/retention.ts");
  const { keysWithStatus } = await import("../../../runtime/core/quota/keyActions.ts");
  const { exportLines } = await import("../../../runtime/core/quota/transfer.ts");
  let slowlog: { reset(): Promise<unknown>; longestMs(): Promise<number>; meanMs(): Promise<number>; close(): Promise<void> } | undefined;
  if (kind === "redis") {
    const { createClient } = await import("@redis/client");
    const client = createClient({ url: target });
    await client.connect();
    await client.configSet("slowlog-log-slower-than", "1000");
    await client.configSet("slowlog-max-len", "10000");
    slowlog = {
      reset: () => Promise.all([client.sendCommand(["SLOWLOG", "RESET"]), client.sendCommand(["CONFIG", "RESETSTAT"])]),
      // The highest mean time per call of any command (INFO commandstats): a command's own cost,
      // which a busy machine's preemption, counted in the slow log, hardly moves.
      meanMs: async () =>
        Math.max(0, ...[...String(await client.sendCommand(["INFO", "commandstats"])).matchAll(/usec_per_call=([\d.]+)/g)].map((m) => Number(m[1]) / 1000)),
      longestMs: async () => Math.max(0, ...((await client.sendCommand(["SLOWLOG", "GET", "10000"])) as [number, number, number][]).map((e) => e[2] / 1000)),
      close: () => client.close(),
    };
    await slowlog.reset();
  }
  const options: Record<string, string> = kind === "sqlite" ? { path: target } : { url: target };
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  const gaps: number[] = [];
  let cpuGap = 0;
  const tick = () => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
    // The CPU this process used between two ticks: the stall without the time other processes
    // of a busy machine held the cores (GC threads count too, so it errs high).
    const cpu = process.cpuUsage(lastCpu);
    cpuGap = Math.max(cpuGap, (cpu.user + cpu.system) / 1000);
    lastCpu = process.cpuUsage();
  };
  const ticker = setInterval(tick, 2);
  const rssBefore = process.memoryUsage().rss;
  let started = performance.now();
  let detail: unknown;
  let ok = true;
  try {
    // The machine's own noise: a process doing nothing but the ticker, for 3 s.
    if (phase === "idle") await new Promise((resolve) => setTimeout(resolve, 3_000));
    // No store for the idle phase (opening one may index it: that is the "open" phase's figure).
    const store = phase === "idle" ? NO_STORE : await openStore(storeKind(kind), options, { oneOff: true, patient: true, existing: true });
    const at = new Date(NOW.getTime());
    if (phase !== "open" && phase !== "idle") {
      // Opening (loading the driver, SQLite's first statements, Redis's one-off indexing) is the
      // "open" phase's figure; the others count from here, with a store that has answered once.
      await store.keyById("key_000000000000");
      await store.used("ip:192.0.2.2", "2000-01-01");
      tick();
      gaps.length = 0;
      cpuGap = 0;
      started = performance.now();
    }
    if (phase === "consume") {
      const t = performance.now();
      await store.consume("ip:192.0.2.1", at.toISOString().slice(0, 10), 30);
      detail = `first consume of the day ${(performance.now() - t).toFixed(1)} ms`;
    } else if (phase === "erasures") {
      let count = 0;
      for await (const _ of await retention.erasuresDue(store, at, 30, 7)) count++;
      detail = `${count} erasures`;
    } else if (phase === "list" || phase === "list-pending") {
      let count = 0;
      for await (const _ of await keysWithStatus(store, phase === "list" ? undefined : "pending_deposit", at)) count++;
      detail = `${count} keys`;
    } else if (phase === "export") {
      let bytes = 0;
      for await (const line of await exportLines(store)) bytes += line.length;
      detail = `${(bytes / 1e6).toFixed(0)} MB`;
    } else if (phase === "sweep" || phase === "sweep-again") {
      const pruneBefore = new Date(at.getTime() - 7 * DAY_MS).toISOString().slice(0, 10);
      const result = (await retention.eraseDue(store, at, 30, () => {}, { pruneBefore })) as unknown;
      detail = Array.isArray(result) ? `${result.length} erased` : JSON.stringify(result);
    }
    await store.close();
  } catch (error) {
    ok = false;
    detail = error instanceof Error ? error.message : String(error);
  }
  // The gap up to now counts too: an operation that never let the ticker run is one long stall.
  tick();
  clearInterval(ticker);
  const ms = performance.now() - started;
  const redisMs = slowlog ? await slowlog.longestMs() : undefined;
  const redisMeanMs = slowlog ? await slowlog.meanMs() : undefined;
  await slowlog?.close();
  gaps.sort((x, y) => y - x);
  const figures = {
    phase,
    ok,
    ms: Math.round(ms),
    stallMs: Math.round(gaps[0] ?? 0),
    p99Ms: Math.round(gaps[Math.floor(gaps.length / 100)] ?? 0),
    over50: gaps.filter((gap) => gap > 50).length,
    cpuGapMs: Math.round(cpuGap),
    rssMB: Math.round(process.resourceUsage().maxRSS / 1024),
  };
  console.log(JSON.stringify({ ...figures, rssBeforeMB: Math.round(rssBefore / 1e6), redisLongestMs: redisMs, redisMeanMs, detail }));
  // A failed operation may leave its store's connection open (it was not closed): done all the same.
  process.exit(0);
}

function runChild(phase: Phase, kind: string, target: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--child", phase, kind, target], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    proc.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    proc.on("error", reject);
    proc.on("close", (code) => {
      const line = out.trim().split("\n").pop() ?? "";
      try {
        resolve(JSON.parse(line));
      } catch {
        resolve({ phase, ok: false, detail: `exit ${code}: ${out.slice(-300)}` });
      }
    });
  });
}

async function main(): Promise<void> {
  const sizes = (process.env["KEYS"] ?? "100000").split(",").map(Number);
  const stores = (process.env["STORES"] ?? "sqlite,redis").split(",");
  const dir = mkdtempSync(join(tmpdir(), "key-sweep-"));
  const { startRedis, removeAllRedis } = await import("../../helpers/redisServer.ts");
  try {
    for (const kind of stores) {
      for (const n of sizes) {
        const started = performance.now();
        let target: string;
        let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
        if (kind === "sqlite") {
          target = join(dir, `keys-${n}.sqlite`);
          await fillSqlite(target, n);
        } else {
          redis = await startRedis(["--appendonly", "yes"]);
          target = redis.url;
          await fillRedis(target, n);
        }
        console.log(`\n${kind}, ${n.toLocaleString("en")} keys (filled in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
        console.log(
          "phase          ok       ms  longest stall ms  p99 gap ms  gaps > 50 ms  most CPU between ticks ms  peak RSS MB  longest Redis command ms  costliest Redis command, mean ms  detail",
        );
        for (const phase of PHASES) {
          const r = await runChild(phase, kind, target);
          const redisMs = r.redisLongestMs === undefined ? "" : Number(r.redisLongestMs).toFixed(1);
          const redisMean = r.redisMeanMs === undefined ? "" : Number(r.redisMeanMs).toFixed(2);
          console.log(
            `${phase.padEnd(14)} ${String(r.ok).padEnd(5)} ${String(r.ms ?? "").padStart(7)}  ${String(r.stallMs ?? "").padStart(16)}  ${String(r.p99Ms ?? "").padStart(10)}  ${String(r.over50 ?? "").padStart(12)}  ${String(r.cpuGapMs ?? "").padStart(25)}  ${String(r.rssMB ?? "").padStart(11)}  ${redisMs.padStart(24)}  ${redisMean.padStart(33)}  ${String(r.detail ?? "").slice(0, 160)}`,
          );
        }
        await redis?.remove();
        if (kind === "sqlite") rmSync(target, { force: true });
      }
    }
  } finally {
    await removeAllRedis();
    rmSync(dir, { recursive: true, force: true });
  }
}

const [mode, a = "", b = "", c = ""] = process.argv.slice(2);
if (mode === "--child") await child(a as Phase, b as "sqlite" | "redis", c);
else if (mode === "--fill") await (a === "sqlite" ? fillSqlite(b, Number(c)) : fillRedis(b, Number(c)));
else await main();
