// What a metered call costs in process, this checkout's app against another checkout's
// (BEFORE=<its root>), on the memory and SQLite stores, in one process and interleaved rounds:
// `GET /quiz/v1/idiom/1` with a key, `app.handle` (no HTTP), BATCH calls a turn, CPU µs per call.
// Medians. Written for the usage history and the outage watch on the store's writes.
//   BEFORE=/path/to/old/checkout ROUNDS=9 SECONDS=1 npx tsx test/bench/probes/metered-cost.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { distFiles } from "../../helpers/app.ts";

const BEFORE = process.env["BEFORE"];
if (BEFORE === undefined) throw new Error("BEFORE=<root of the checkout to compare with> is required");
const ROUNDS = Number(process.env["ROUNDS"] ?? 9);
const SECONDS = Number(process.env["SECONDS"] ?? 1);
const BATCH = Number(process.env["BATCH"] ?? 20);
const AFTER = join(import.meta.dirname, "../../..");

type Core = typeof import("../../../runtime/core/index.ts");
type Sqlite = typeof import("../../../runtime/stores/sqlite/sqliteStore.ts");
type App = ReturnType<Core["createApp"]>;

const dir = mkdtempSync(join(tmpdir(), "metered-cost-"));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** Keys per app: each has 10,000 calls a day (annual), and every round must stay under them. */
const KEYS = 40;

/** An app of the checkout at `root` over a new store of `kind`, and KEYS annual keys issued by it. */
async function setUp(root: string, kind: "memory" | "sqlite", tag: string): Promise<{ app: App; keys: string[] }> {
  const core = (await import(join(root, "runtime/core/index.ts"))) as Core;
  const { openSqliteStore } = (await import(join(root, "runtime/stores/sqlite/sqliteStore.ts"))) as Sqlite;
  const store = kind === "memory" ? new core.MemoryQuotaStore() : await openSqliteStore(join(dir, `${tag}.sqlite`));
  const app = core.createApp({ dist: distFiles(), store, onError: () => {} });
  const keys: string[] = [];
  for (let i = 0; i < KEYS; i++) {
    const answer = await app.fetch(
      new Request("http://localhost/quiz/v1/subscribe", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: "Bench", email: `${tag}-${i}@example.com` }),
      }),
      // At most 5 applications an address a day.
      { clientAddress: `192.0.2.${i}` },
    );
    const { api_key, key } = (await answer.json()) as { api_key: string; key: { id: string } };
    await store.updateKey(key.id, { plan: "annual", status: "active", confirmed_at: new Date().toISOString(), expires_at: "2099-01-01T00:00:00.000Z" });
    keys.push(api_key);
  }
  return { app, keys };
}

/** Calls for `SECONDS` (at most `limit`), BATCH a turn, the keys in turn; CPU µs per call. */
async function round(app: App, keys: string[], limit: number): Promise<{ calls: number; us: number }> {
  const request = (i: number) => new Request("http://localhost/quiz/v1/idiom/1", { headers: { "X-API-Key": keys[i % keys.length] as string } });
  const cpu = process.cpuUsage();
  const until = performance.now() + SECONDS * 1000;
  let calls = 0;
  while (performance.now() < until && calls + BATCH <= limit) {
    const replies = await Promise.all(Array.from({ length: BATCH }, (_, i) => app.handle(request(calls + i), { clientAddress: "192.0.2.1" })));
    if (replies.some((reply) => reply.status !== 200)) throw new Error(`status ${replies.find((r) => r.status !== 200)?.status}`);
    calls += BATCH;
  }
  const used = process.cpuUsage(cpu);
  return { calls, us: (used.user + used.system) / calls };
}

try {
  const kinds = ["memory", "sqlite"] as const;
  const apps = new Map<string, { app: App; keys: string[] }>();
  for (const kind of kinds)
    for (const [side, root] of [
      ["before", BEFORE],
      ["after", AFTER],
    ] as const)
      apps.set(`${kind} ${side}`, await setUp(root, kind, `${kind}-${side}`));
  const samples = new Map<string, number[]>();
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, entry] of apps) {
      const { us } = await round(entry.app, entry.keys, Math.floor((KEYS * 9_000) / ROUNDS));
      samples.set(name, [...(samples.get(name) ?? []), us]);
    }
  }
  console.log(`A metered call in process (GET /quiz/v1/idiom/1 with a key, ${BATCH} a turn): ${ROUNDS} interleaved rounds, medians\n`);
  console.log(`${"store".padEnd(8)} ${"CPU µs/call before".padStart(20)} ${"after".padStart(8)}`);
  for (const kind of kinds) {
    const before = median(samples.get(`${kind} before`) ?? []);
    const after = median(samples.get(`${kind} after`) ?? []);
    console.log(`${kind.padEnd(8)} ${before.toFixed(1).padStart(20)} ${after.toFixed(1).padStart(8)}  (${((after / before - 1) * 100).toFixed(1)} %)`);
  }
  for (const { app } of apps.values()) await app.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
