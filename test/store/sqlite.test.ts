/** What only the SQLite store promises: its driver, durability, WAL, no plaintext keys, schema versions. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { confirmKey } from "../../runtime/core/quota/keyActions.ts";
import { MemoryQuotaStore } from "../../runtime/core/quota/memoryStore.ts";
import { openQuotaStore } from "../../runtime/stores/index.ts";
import { detectDriver, openDriver } from "../../runtime/stores/sqlite/driver.ts";
import type { SqlDriver, SqlStatement } from "../../runtime/stores/sqlite/sqlDriver.ts";
import { SCHEMA_VERSION, checkOwnDatabase, migrate } from "../../runtime/stores/sqlite/migrations.ts";
import { SERVING_BUSY_MS, openSqliteStore, SqliteQuotaStore } from "../../runtime/stores/sqlite/sqliteStore.ts";
import { keyRecord, plaintextKey, sha256 } from "./contractCases.ts";
import { SHARED_FILE_CASE, sharedFileCase } from "./sharedFile.ts";
import { allKeys } from "../../runtime/core/quota/keyPages.ts";

const dir = mkdtempSync(join(tmpdir(), "quota-sqlite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshPath = (): string => join(dir, `db-${++files}`, "quota.sqlite");

/** Two connections to one new database file, the first having stored a pending key. */
async function twoConnectionsWithKey() {
  const path = freshPath();
  const first = await openSqliteStore(path);
  const second = await openSqliteStore(path);
  const key = keyRecord();
  first.insertKey(key);
  return { path, first, second, key };
}

describe("SqliteQuotaStore", () => {
  it("uses better-sqlite3 on Node 20", async () => {
    expect(process.versions.node.startsWith("20.")).toBe(true);
    expect(detectDriver()).toBe("better-sqlite3");
    const store = await openSqliteStore(freshPath());
    expect(store.driverName).toBe("better-sqlite3");
    store.close();
  });

  it("migrates a version 1 database with keys to version 2 (erased_at, references), keeping every key", async () => {
    const path = freshPath();
    const old = await openDriver(path);
    old.exec("PRAGMA journal_mode = WAL");
    // Version 1 exactly as it shipped.
    old.exec(`CREATE TABLE counters (bucket TEXT NOT NULL, day TEXT NOT NULL, used INTEGER NOT NULL, PRIMARY KEY (bucket, day)) WITHOUT ROWID;
      CREATE TABLE keys (id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, plan TEXT NOT NULL CHECK (plan IN ('free', 'annual')),
        status TEXT NOT NULL CHECK (status IN ('pending_deposit', 'active', 'revoked')), created_at TEXT NOT NULL, confirmed_at TEXT,
        expires_at TEXT, revoked_at TEXT, name TEXT NOT NULL, email TEXT NOT NULL, phone TEXT, depositor TEXT);
      CREATE UNIQUE INDEX keys_pending_email ON keys (lower(email)) WHERE status = 'pending_deposit';
      CREATE INDEX keys_created ON keys (created_at);
      PRAGMA user_version = 1;`);
    const key = keyRecord({ email: "v1@example.com" });
    old
      .prepare("INSERT INTO keys VALUES (?, ?, 'free', 'pending_deposit', ?, NULL, NULL, NULL, 'V1', ?, NULL, NULL)")
      .run(key.id, key.hash, key.created_at, "v1@example.com");
    old.close();
    const store = await openSqliteStore(path);
    try {
      expect(store.keyById(key.id)).toMatchObject({ id: key.id, applicant: { name: "V1", email: "v1@example.com" } });
      expect(store.keyById(key.id)?.erased_at).toBeUndefined();
      expect(store.eraseApplicant(key.id, "pending_deposit", "2025-04-01T00:00:00.000Z")).toBe(true);
      expect(store.keyById(key.id)?.erased_at).toBe("2025-04-01T00:00:00.000Z");
    } finally {
      store.close();
    }
  });

  it("creates the parent directory and sets WAL, busy_timeout and the schema version", async () => {
    const path = freshPath();
    (await openSqliteStore(path)).close();
    expect(existsSync(path)).toBe(true);
    const db = await openDriver(path);
    try {
      expect(db.prepare("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
      expect(db.prepare("PRAGMA user_version").get()).toEqual({ user_version: SCHEMA_VERSION });
    } finally {
      db.close();
    }
    const store = await openSqliteStore(path);
    // Per-connection settings, so read them through the store's own connection.
    const internal = (store as unknown as { db: Awaited<ReturnType<typeof openDriver>> }).db;
    // Serving waits for another connection's lock only briefly, the event loop free in between (storeLock.test.ts).
    expect(internal.prepare("PRAGMA busy_timeout").get()).toEqual({ timeout: SERVING_BUSY_MS });
    expect(internal.prepare("PRAGMA synchronous").get()).toEqual({ synchronous: 1 });
    store.close();
    const cli = await openSqliteStore(path, { busyTimeoutMs: 5_000 });
    expect((cli as unknown as { db: Awaited<ReturnType<typeof openDriver>> }).db.prepare("PRAGMA busy_timeout").get()).toEqual({ timeout: 5000 });
    cli.close();
  });

  it("keeps keys and counts across close and reopen", async () => {
    const path = freshPath();
    const key = keyRecord({ email: "durable@example.com" });
    const first = await openSqliteStore(path);
    first.insertKey(key);
    for (let i = 0; i < 7; i++) await first.consume("ip:1", "2025-03-01", 10);
    first.close();
    const second = await openSqliteStore(path);
    expect(second.keyByHash(key.hash)).toEqual(key);
    expect(second.used("ip:1", "2025-03-01")).toBe(7);
    expect(await second.consume("ip:1", "2025-03-01", 10)).toEqual({ allowed: true, used: 8 });
    expect(() => second.insertKey(keyRecord({ email: "DURABLE@example.com" }))).toThrow("already awaiting");
    second.close();
  });

  it(SHARED_FILE_CASE, async () => {
    const path = freshPath();
    await sharedFileCase(() => openSqliteStore(path));
  });

  it("answers repeated key lookups from memory until the database changes", async () => {
    const { first: store, second: other, key } = await twoConnectionsWithKey();
    // Count the queries that reach the keys table.
    const statements = (store as unknown as { statements: { keyByHash: { get: (...a: unknown[]) => unknown } } }).statements;
    const query = statements.keyByHash.get.bind(statements.keyByHash);
    let queries = 0;
    statements.keyByHash.get = (...args) => (queries++, query(...args));
    for (let i = 0; i < 5; i++) expect(store.keyByHash(key.hash)).toEqual(key);
    expect(queries).toBe(1);
    // Counting calls (this connection's writes) does not invalidate the keys…
    await store.consume("key:x", "2025-03-01", 10);
    store.keyByHash(key.hash);
    expect(queries).toBe(1);
    // …a commit by another connection does, from the next turn, even one that touches only counters.
    await other.consume("key:y", "2025-03-01", 10);
    await new Promise((done) => setImmediate(done));
    store.keyByHash(key.hash);
    expect(queries).toBe(2);
    store.keyByHash(key.hash);
    expect(queries).toBe(2);
    // Records handed out are frozen: one request cannot change what another reads.
    expect(Object.isFrozen(store.keyByHash(key.hash))).toBe(true);
    store.close();
    other.close();
  });

  it("commits calls of one turn together, exactly, and counts queued calls before closing", async () => {
    const path = freshPath();
    const store = await openSqliteStore(path);
    const results = await Promise.all(Array.from({ length: 100 }, () => store.consume("batch", "2025-03-01", 40)));
    expect(results.filter((r) => r.allowed)).toHaveLength(40);
    expect(results.filter((r) => r.allowed).map((r) => r.used)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(results.filter((r) => !r.allowed).every((r) => r.used === 40)).toBe(true);
    // Queued but not yet flushed when close() runs: still counted, and its promise settles.
    const queued = store.consume("batch", "2025-03-02", 5);
    store.close();
    expect(await queued).toEqual({ allowed: true, used: 1 });
    const reopened = await openSqliteStore(path);
    expect(reopened.used("batch", "2025-03-02")).toBe(1);
    await expect(store.consume("batch", "2025-03-02", 5)).rejects.toThrow(/closed/);
    reopened.close();
  });

  it("never writes the plaintext key: no file of the database contains it, WAL included", async () => {
    const path = freshPath();
    const plaintext = plaintextKey();
    const key = keyRecord({ hash: sha256(plaintext) });
    const store = await openSqliteStore(path);
    store.insertKey(key);
    await store.consume(`key:${key.id}`, "2025-03-01", 100);
    const scan = (): string[] => {
      const names = readdirSync(join(path, "..")).filter((name) => name.startsWith("quota.sqlite"));
      const bytes = names.map((name) => readFileSync(join(path, "..", name)));
      for (const content of bytes) expect(content.includes(plaintext)).toBe(false);
      // The scan can see what is stored: the hash is there.
      expect(bytes.some((content) => content.includes(key.hash))).toBe(true);
      return names;
    };
    expect(scan()).toEqual(expect.arrayContaining(["quota.sqlite", "quota.sqlite-wal"]));
    store.close();
    scan();
  });

  it("refuses a database from a newer schema, naming the file", async () => {
    const path = freshPath();
    (await openSqliteStore(path)).close();
    const db = await openDriver(path);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    await expect(openSqliteStore(path)).rejects.toThrow(
      `quota store: ${path} has schema version ${SCHEMA_VERSION + 1}, newer than this program understands (${SCHEMA_VERSION})`,
    );
  });

  it("a confirm that read the key before another connection revoked it leaves it revoked (409), never active", async () => {
    const { first: server, second: cli, key } = await twoConnectionsWithKey();
    // The server's confirm has read the pending key and checked it; the CLI revokes now.
    expect(server.keyById(key.id)?.status).toBe("pending_deposit");
    cli.updateKey(key.id, { status: "revoked", revoked_at: "2025-03-05T12:00:00.000Z" });
    const written = server.updateKey(key.id, {
      plan: "annual",
      status: "active",
      confirmed_at: "2025-03-05T12:00:01.000Z",
      expires_at: "2026-03-05T12:00:01.000Z",
    });
    expect(written).toMatchObject({ status: "revoked", plan: "free", expires_at: null });
    expect(await confirmKey(server, key.id, new Date("2025-03-05T12:00:02.000Z"))).toEqual({ ok: false, reason: "revoked" });
    expect(cli.keyById(key.id)).toMatchObject({ status: "revoked", plan: "free" });
    server.close();
    cli.close();
  });

  it("refuses another program's database and leaves it untouched (no tables added, not switched to WAL)", async () => {
    const path = freshPath();
    const db = await openDriver(path);
    db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('keep')");
    db.close();
    const before = readFileSync(path);
    await expect(openSqliteStore(path)).rejects.toThrow(
      `quota store: ${path} is another program's database (it holds notes and no quota schema); point QUOTA_DB at a new file or at this service's own database`,
    );
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it("does not take a database another server creates between its two reads for another program's", async () => {
    const path = freshPath();
    const starting = await openDriver(path);
    const creator = await openDriver(path);
    // The other server commits the whole schema right after the first statement this one runs.
    let created = false;
    const createAfter = <T>(result: T): T => {
      if (!created) {
        created = true;
        migrate(creator, path);
      }
      return result;
    };
    const racing: SqlDriver = {
      name: starting.name,
      exec: (sql) => starting.exec(sql),
      close: () => starting.close(),
      prepare(sql): SqlStatement {
        const statement = starting.prepare(sql);
        return {
          run: (...params) => createAfter(statement.run(...params)),
          get: (...params) => createAfter(statement.get(...params)),
          first: (...params) => createAfter(statement.first(...params)),
          all: (...params) => createAfter(statement.all(...params)),
        };
      },
    };
    expect(() => checkOwnDatabase(racing, path)).not.toThrow();
    expect(created).toBe(true);
    migrate(racing, path);
    expect(Number(starting.prepare("PRAGMA user_version").get()?.["user_version"])).toBe(SCHEMA_VERSION);
    starting.close();
    creator.close();
  });

  it("migrates an empty database to the current version", async () => {
    const path = freshPath();
    const db = await openDriver(path);
    db.exec("PRAGMA user_version = 0");
    db.close();
    const store = await openSqliteStore(path);
    expect(await allKeys(store)).toEqual([]);
    store.close();
  });
});

describe("openQuotaStore", () => {
  it("opens the store the configuration names", async () => {
    expect(await openQuotaStore({ kind: "memory" })).toBeInstanceOf(MemoryQuotaStore);
    const store = await openQuotaStore({ kind: "sqlite", path: freshPath() });
    expect(store).toBeInstanceOf(SqliteQuotaStore);
    await store.close();
  });
});
