/**
 * The SQLite quota store: counts and keys in one database file that several server processes
 * (and the operator's CLI) may share. Every change is a single statement, so SQLite's write
 * lock makes it atomic across processes; WAL lets readers go on while one process writes.
 */
import {
  DuplicateApplicationError,
  DuplicateReferenceError,
  StoreUnavailableError,
  type ConsumeResult,
  type DailyUsage,
  type KeyPage,
  type KeyPageQuery,
  type KeyPatch,
  type KeyRecord,
  type QuotaStore,
  type StoredKeyStatus,
  keyBucket,
} from "../../core/quota/store.ts";
import { openDriver } from "./driver.ts";
import type { DriverName, SqlDriver, SqlRow, SqlStatement, SqlValue } from "./sqlDriver.ts";
import { isBusy, isFull, rollbackAfter, unavailableOr } from "./failures.ts";
import { SCHEMA_VERSION, checkOwnDatabase, migrate } from "./migrations.ts";
import { nextTurn } from "../../core/util/nextTurn.ts";
import { KeyLookups } from "../../core/util/keyLookups.ts";
import { SqlitePages } from "./pages.ts";
import { SqliteClasses } from "./classes.ts";
import type { ClassRecord, ClassSubmission, ClassSummary, StudentLookup, SubmitOutcome } from "../../core/classes/classStore.ts";

const KEY_COLUMNS = "id, hash, plan, status, created_at, confirmed_at, expires_at, revoked_at, name, email, phone, depositor, erased_at";

/** The columns `updateKey` may change, in a fixed order (statements are cached per set). */
const PATCHABLE = ["plan", "status", "confirmed_at", "expires_at", "revoked_at"] as const satisfies readonly (keyof KeyPatch)[];

/** A `keys` row as the schema stores it. */
interface KeyRow {
  id: string;
  hash: string;
  plan: KeyRecord["plan"];
  status: StoredKeyStatus;
  created_at: string;
  confirmed_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  name: string;
  email: string;
  phone: string | null;
  depositor: string | null;
  erased_at: string | null;
}

/** A row as a key record, frozen: a record may be handed to several requests. */
function toKeyRecord(row: SqlRow): KeyRecord {
  const { name, email, phone, depositor, erased_at, ...key } = row as unknown as KeyRow;
  return Object.freeze({ ...key, ...(erased_at === null ? {} : { erased_at }), applicant: Object.freeze({ name, email, phone, depositor }) });
}

/**
 * How long a serving connection lets SQLite wait for a lock held by another connection before it
 * gives the event loop back: the drivers are synchronous, so this wait stops the whole process,
 * interface A included. A commit of another server takes well under a millisecond.
 */
export const SERVING_BUSY_MS = 10;
/** Between two tries of a batch of counts while another connection holds the lock. */
const RETRY_MS = 25;
/** How long a count waits for a locked database in all before it is answered 503 (not counted). */
const STORE_WAIT_MS = 1_000;

/** A queued `consume` call. */
interface PendingConsume {
  bucket: string;
  day: string;
  limit: number;
  resolve: (result: ConsumeResult) => void;
  reject: (error: unknown) => void;
  /** When it was asked (Date.now()): past STORE_WAIT_MS of a locked database it fails. */
  since: number;
}

/** A `QuotaStore` over one SQLite database; open it with `openSqliteStore`. */
export class SqliteQuotaStore implements QuotaStore {
  /** The library that talks to SQLite on this runtime. */
  readonly driverName: DriverName;
  private readonly statements: {
    consume: SqlStatement;
    used: SqlStatement;
    insertKey: SqlStatement;
    eraseApplicant: SqlStatement;
    keyByHash: SqlStatement;
    keyById: SqlStatement;
    dataVersion: SqlStatement;
  };
  private readonly updates = new Map<string, SqlStatement>();
  private readonly pages: SqlitePages;
  private readonly classes: SqliteClasses;
  /** Keys by hash (null: no such key) as of `seenVersion`, the records started over past `KEY_RECORD_BYTES` (`KeyLookups`); see `keyByHash`. */
  private readonly keysByHash = new KeyLookups();
  private seenVersion: unknown = undefined;
  private versionChecked = false;
  private cacheKeys = false;
  private pending: PendingConsume[] = [];
  /** Set while a batch waits for another connection's lock to go (no other flush is scheduled then). */
  private retry: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(
    private readonly db: SqlDriver,
    /** The file, for messages. */
    private readonly path = "the quota database",
  ) {
    this.driverName = db.name;
    this.pages = new SqlitePages(db, KEY_COLUMNS, toKeyRecord, path);
    this.classes = new SqliteClasses(db, path);
    this.statements = {
      // One statement counts or refuses: the write lock it runs under makes the count exact. The
      // count is read back by `used` in the same transaction rather than with RETURNING, for which
      // SQLite builds a temporary table on every call; in a micro-benchmark on better-sqlite3 that
      // often left glibc growing and trimming its heap twice per call, a slow mode several times the
      // usual cost (see RESULTS.md, "Interface B on Node", and its history).
      consume: db.prepare(
        `INSERT INTO counters (bucket, day, used) VALUES (?, ?, 1)
         ON CONFLICT (bucket, day) DO UPDATE SET used = used + 1 WHERE used < ?`,
      ),
      used: db.prepare("SELECT used FROM counters WHERE bucket = ? AND day = ?"),
      // One statement, so that no other process can take the same payment reference in between
      // (the reference is HJ + the id's characters 5 to 10, upper-cased: paymentReference).
      insertKey: db.prepare(
        `INSERT INTO keys (${KEY_COLUMNS}) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
         WHERE NOT EXISTS (SELECT 1 FROM keys WHERE status = 'pending_deposit' AND upper(substr(id, 5, 6)) = upper(substr(?, 5, 6)))`,
      ),
      eraseApplicant: db.prepare(
        "UPDATE keys SET name = '', email = '', phone = NULL, depositor = NULL, erased_at = ? WHERE id = ? AND status = ? AND erased_at IS NULL",
      ),
      keyByHash: db.prepare(`SELECT ${KEY_COLUMNS} FROM keys WHERE hash = ?`),
      keyById: db.prepare(`SELECT ${KEY_COLUMNS} FROM keys WHERE id = ?`),
      // Changes whenever another connection (another server process, the CLI) commits.
      dataVersion: db.prepare("PRAGMA data_version"),
    };
  }

  /**
   * Counts one call. Calls that arrive in the same turn of the event loop are committed together
   * (group commit): one `BEGIN IMMEDIATE … COMMIT` around their statements, so a busy server pays
   * for one commit per turn instead of one per call. Each statement checks the limit against the
   * latest count under SQLite's write lock, so the count stays exact across processes, and the
   * count each call reports is read under the same lock.
   */
  consume(bucket: string, day: string, limit: number): Promise<ConsumeResult> {
    if (this.closed) return Promise.reject(new Error("quota store: closed"));
    return new Promise((resolve, reject) => {
      this.pending.push({ bucket, day, limit, resolve, reject, since: Date.now() });
      if (this.pending.length === 1 && this.retry === undefined) nextTurn(() => this.flush());
    });
  }

  /**
   * Runs the queued calls in one write transaction. When another connection holds the lock past
   * `SERVING_BUSY_MS`, nothing was counted: the batch is tried again `RETRY_MS` later with the calls
   * queued meanwhile, the event loop free in between, and a call still uncounted after
   * `STORE_WAIT_MS` fails with `StoreUnavailableError` (503). A full disk fails the batch at once.
   */
  private flush(final = false): void {
    this.retry = undefined;
    const now = Date.now();
    const batch: PendingConsume[] = [];
    for (const c of this.pending) {
      if (now - c.since < STORE_WAIT_MS) batch.push(c);
      else
        c.reject(
          new StoreUnavailableError(
            `quota store: ${this.path} stayed locked by another connection for over ${STORE_WAIT_MS / 1000} s (SQLITE_BUSY); the call was not counted`,
          ),
        );
    }
    this.pending = [];
    if (batch.length === 0) return;
    let results: ConsumeResult[];
    try {
      this.db.exec("BEGIN IMMEDIATE");
      try {
        results = batch.map((c) => this.consumeNow(c.bucket, c.day, c.limit));
        this.db.exec("COMMIT");
      } catch (error) {
        throw rollbackAfter(this.db, error);
      }
    } catch (error) {
      if (isBusy(error) && !final) {
        this.pending = [...batch, ...this.pending];
        this.retry = setTimeout(() => this.flush(), RETRY_MS);
        return;
      }
      const failure = unavailableOr(error, this.path);
      for (const c of batch) c.reject(failure);
      return;
    }
    batch.forEach((c, i) => c.resolve(results[i] as ConsumeResult));
  }

  /** Counts one call; runs inside the batch's write transaction (old counters are pruned apart, in steps: `pruneCounters`). */
  private consumeNow(bucket: string, day: string, limit: number): ConsumeResult {
    // With no row yet the INSERT would count a call even against a limit of 0.
    const allowed = limit > 0 && this.statements.consume.run(bucket, day, limit).changes > 0;
    return { allowed, used: this.used(bucket, day) };
  }

  used(bucket: string, day: string): number {
    return Number(this.statements.used.first(bucket, day) ?? 0);
  }

  insertKey(record: KeyRecord): void {
    this.keysByHash.clear();
    const { applicant: a } = record;
    let changes: number;
    try {
      changes = this.statements.insertKey.run(
        record.id,
        record.hash,
        record.plan,
        record.status,
        record.created_at,
        record.confirmed_at,
        record.expires_at,
        record.revoked_at,
        a.name,
        a.email,
        a.phone,
        a.depositor,
        record.erased_at ?? null,
        record.id,
      ).changes;
    } catch (error) {
      // The drivers' error classes differ; the index name in SQLite's message does not.
      if (error instanceof Error && error.message.includes("keys_pending_email")) throw new DuplicateApplicationError();
      throw unavailableOr(error, this.path);
    }
    if (changes === 0) throw new DuplicateReferenceError();
  }

  eraseApplicant(id: string, status: StoredKeyStatus, at: string): boolean {
    this.keysByHash.clear();
    try {
      return this.statements.eraseApplicant.run(at, id, status).changes > 0;
    } catch (error) {
      throw unavailableOr(error, this.path);
    }
  }

  /**
   * The key with this hash. Every metered call asks, so lookups are kept in memory while the
   * database is unchanged: once per turn of the event loop, `PRAGMA data_version` (far cheaper
   * than the query) tells whether another connection has committed since, and this connection's
   * own changes clear the cache at once. A key confirmed or revoked by the CLI or another server
   * process is therefore seen from the next turn: by every request read after the change.
   */
  keyByHash(hash: string): KeyRecord | null {
    if (!this.versionChecked) this.checkVersion();
    let key = this.keysByHash.get(hash);
    if (key === undefined) {
      const row = this.statements.keyByHash.get(hash);
      key = row === undefined ? null : toKeyRecord(row);
      if (this.cacheKeys) this.keysByHash.set(hash, key);
    }
    return key;
  }

  /** Starts the key cache over when another connection has committed (at most once per turn). */
  private checkVersion(): void {
    this.versionChecked = true;
    nextTurn(() => (this.versionChecked = false));
    const version = this.statements.dataVersion.first();
    // A driver that did not report the version would never show other connections' changes: no cache then.
    this.cacheKeys = version !== undefined;
    if (version !== this.seenVersion || this.keysByHash.full) {
      this.keysByHash.clear();
      this.seenVersion = version;
    }
  }

  keyById(id: string): KeyRecord | null {
    const row = this.statements.keyById.get(id);
    return row === undefined ? null : toKeyRecord(row);
  }

  keyPage(query: KeyPageQuery): KeyPage {
    return this.pages.keyPage(query);
  }

  erasablePage(until: string, after: string | null, limit: number): KeyPage {
    return this.pages.erasablePage(until, after, limit);
  }

  acquireLease(name: string, holder: string, ttlMs: number): boolean {
    return this.pages.acquireLease(name, holder, ttlMs);
  }

  releaseLease(name: string, holder: string): void {
    this.pages.releaseLease(name, holder);
  }

  pruneCounters(beforeDay: string, limit: number): number {
    return this.pages.prune(false, beforeDay, limit);
  }

  /** A key's daily counters are its history (one row, changed by the count itself): read along the primary key. */
  usage(id: string, fromDay: string, toDay: string): DailyUsage[] {
    return this.pages.usage(keyBucket(id), fromDay, toDay);
  }

  pruneUsage(beforeDay: string, limit: number): number {
    return this.pages.prune(true, beforeDay, limit);
  }

  updateKey(id: string, patch: KeyPatch): KeyRecord | null {
    const columns = PATCHABLE.filter((column) => patch[column] !== undefined);
    if (columns.length === 0) return this.keyById(id);
    const signature = columns.join(",");
    let statement = this.updates.get(signature);
    if (statement === undefined) {
      const assignments = columns.map((column) => `${column} = ?`).join(", ");
      // A revoked key is final: the condition makes that hold against another process's revoke.
      statement = this.db.prepare(`UPDATE keys SET ${assignments} WHERE id = ? AND status <> 'revoked' RETURNING ${KEY_COLUMNS}`);
      this.updates.set(signature, statement);
    }
    this.keysByHash.clear();
    const values: SqlValue[] = columns.map((column) => patch[column] ?? null);
    let row: SqlRow | undefined;
    try {
      row = statement.get(...values, id);
    } catch (error) {
      throw unavailableOr(error, this.path);
    }
    return row === undefined ? this.keyById(id) : toKeyRecord(row);
  }

  insertClass(record: ClassRecord, maxKept: number): boolean {
    return this.classes.insertClass(record, maxKept);
  }

  classByCode(code: string): ClassRecord | null {
    return this.classes.classByCode(code);
  }

  classesOfKey(keyId: string, now: string): ClassSummary[] {
    return this.classes.classesOfKey(keyId, now);
  }

  studentOf(code: string, nameKey: string): StudentLookup {
    return this.classes.studentOf(code, nameKey);
  }

  submitToClass(code: string, submission: ClassSubmission, now: string): SubmitOutcome {
    return this.classes.submitToClass(code, submission, now);
  }

  classSubmissions(code: string): ClassSubmission[] {
    return this.classes.classSubmissions(code);
  }

  pruneClasses(now: string, limit: number): number {
    return this.classes.pruneClasses(now, limit);
  }

  /** Closes the database; closing again does nothing (node:sqlite would throw). */
  close(): void {
    if (this.closed) return;
    // Calls already queued are counted before the file closes: none is lost on shutdown (a lock
    // held elsewhere fails them, 503, rather than leaving them unanswered).
    clearTimeout(this.retry);
    this.flush(true);
    this.closed = true;
    this.db.close();
  }
}

/**
 * Fails at start-up, not on every metered call after it, when the file can be read but not
 * written (a read-only file: SQLite opens it read-only without saying so). The probe writes the
 * schema version it already holds, in a transaction rolled back.
 */
function assertWritable(db: SqlDriver, path: string): void {
  try {
    db.exec("BEGIN IMMEDIATE");
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  } catch (error) {
    const reason = isFull(error) ? "the disk is full (SQLITE_FULL)" : error instanceof Error ? error.message : String(error);
    throw new Error(`quota store: cannot write ${path}: ${reason}`);
  } finally {
    rollbackAfter(db, undefined);
  }
}

/**
 * Opens the SQLite quota store at `path` (created with its directory when missing) with the
 * runtime's driver, sets WAL mode, and migrates the schema. Unless `readOnlyUse`, a file that
 * cannot be written is refused here rather than failing on the first write.
 */
export async function openSqliteStore(path: string, options: { readOnlyUse?: boolean; busyTimeoutMs?: number } = {}): Promise<SqliteQuotaStore> {
  const db = await openDriver(path);
  try {
    // busy_timeout first: the other pragmas and the migration may wait for another process.
    db.exec("PRAGMA busy_timeout = 5000");
    // Before WAL mode (which writes the file): a database not ours is left as it was.
    checkOwnDatabase(db, path);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    migrate(db, path);
    // A reader (the CLI's list and show) may look at a file it cannot write, a backup say.
    if (!options.readOnlyUse) assertWritable(db, path);
    // Serving, a lock held elsewhere is waited for in short synchronous steps (see flush); the
    // operator's CLI, which blocks nobody, may wait longer.
    db.exec(`PRAGMA busy_timeout = ${options.busyTimeoutMs ?? SERVING_BUSY_MS}`);
    return new SqliteQuotaStore(db, path);
  } catch (error) {
    db.close();
    throw error;
  }
}
