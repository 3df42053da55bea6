/**
 * The Redis quota store: keys, pending applications and daily counters in one Redis (or Valkey)
 * that any number of server processes on any number of machines share. Every operation is one
 * command or one Lua script (`scripts.ts`), so it is atomic in Redis; every operation is bounded
 * in time and fails with `StoreUnavailableError` (503) while Redis cannot answer.
 */
import { createHash, randomBytes } from "node:crypto";
import { paymentReference } from "../../core/quota/keyActions.ts";
import { Deadlines } from "../../core/quota/deadlines.ts";
import {
  DuplicateApplicationError,
  DuplicateReferenceError,
  KeyChangedError,
  StoreUnavailableError,
  type ConsumeResult,
  type DailyUsage,
  type KeyPage,
  type KeyPageQuery,
  type KeyPatch,
  type KeyRecord,
  type QuotaStore,
  type StoredKeyStatus,
  isKeyBucket,
  keyBucket,
} from "../../core/quota/store.ts";
import { type ConnectionState, type RedisConnection, connect, isOutage, persistenceWarning } from "./connection.ts";
import { type RedisTarget, DEFAULT_REDIS_PREFIX, REDIS_TIMEOUT_MS, parseRedisUrl } from "./redisUrl.ts";
import { KeyCounts } from "./keyCounts.ts";
import { INDEX_SCRIPTS, RedisKeyIndexes, indexMembers } from "./keyIndexes.ts";
import { CONSUME, CONSUME_KEYS, ERASE_APPLICANT, INSERT_KEY, KEY_BY_HASH, type LuaScript, type RedisKeys, UPDATE_KEY, redisKeys } from "./scripts.ts";
import { nextTurn } from "../../core/util/nextTurn.ts";
import { KeyLookups } from "../../core/util/keyLookups.ts";
import { DayLife } from "./counterLife.ts";
import { CLASS_SCRIPTS, RedisClasses } from "./classes.ts";
import type { ClassRecord, ClassSubmission, ClassSummary, StudentLookup, SubmitOutcome } from "../../core/classes/classStore.ts";
import { readUsage } from "./usageHistory.ts";
import { type StoredRecord, emailKey, toKeyRecord } from "./records.ts";
import { COUNTED_KEYS, COUNTED_ONE, INSERTED, UNDO_COUNTS, UNDO_INSERT, UNDO_WINDOW_SECONDS, type Undo, Undos, undoable } from "./undo.ts";

/** The counting and inserting scripts, with the marker that lets a call answered 503 be undone (`undo.ts`). */
const COUNT_ONE = undoable(CONSUME, COUNTED_ONE);
const COUNT_KEYS = undoable(CONSUME_KEYS, COUNTED_KEYS);
const INSERT = undoable(INSERT_KEY, INSERTED);
/** How long a count on a cluster waits for its replica's acknowledgement (`replicated`). */
const WAIT_MS = 100;
/** A primary whose replica did not acknowledge is not waited for again for this long. */
const UNREPLICATED_MS = 5000;
/** How long their markers live, as the scripts take it. */
const WINDOW = String(UNDO_WINDOW_SECONDS);

/** A `QuotaStore` over Redis; open it with `openRedisStore`. */
export class RedisQuotaStore implements QuotaStore {
  private readonly keys: RedisKeys;
  private readonly shas = new Map<LuaScript, string>();
  private readonly deadlines: Deadlines;
  /** The turn's counts of keys, sent as one script. */
  private readonly keyCounts: KeyCounts;
  /** Pages, leases and the key indexes. */
  private readonly indexes: RedisKeyIndexes;
  /** The class quizzes (`classes.ts`). */
  private readonly classes: RedisClasses;
  /** Key records by hash (null: no such key) as of `cachedVersion`, the records started over past `KEY_RECORD_BYTES` (`KeyLookups`); see `keyByHash`. */
  private readonly keysByHash = new KeyLookups();
  private cachedVersion: unknown = undefined;
  /**
   * The buckets of keys whose records `keyByHash(hash, true)` answered from memory, with the
   * version they were read at: their counts check it (`CONSUME_KEYS`). Cleared with the records.
   */
  private readonly unchecked = new Map<string, string>();
  /** The lifetimes of the day counted last. */
  private readonly dayLife = new DayLife();
  /** This turn's read of the keys' version, shared by every lookup made in the turn. */
  private turnVersion: Promise<unknown> | undefined;
  private closed = false;
  /** The undos owed for calls answered 503 whose scripts ran (or may have run) after all. */
  readonly undos: Undos;
  /** On a cluster, per primary: the next `WAIT`, not sent yet, that the counts answered since the last one await (`sharedWait`). */
  private readonly waits = new Map<string, Promise<unknown>>();
  /** On a cluster, per primary: the `WAIT` sent and not answered yet. */
  private readonly waitsSent = new Map<string, Promise<unknown>>();
  /** On a cluster, the primaries (by address) whose replica did not acknowledge a count lately, until when (`replicated`). */
  private readonly unreplicated = new Map<string, number>();
  /** Request ids: random per store, then a sequence number, so ids never meet across instances. */
  private readonly requestBase = randomBytes(6).toString("hex");
  private requestCount = 0;

  /** Whether `close` was called (a connection lost after it is no news). */
  get isClosed(): boolean {
    return this.closed;
  }

  constructor(
    private readonly client: RedisConnection,
    prefix: string,
    /** Where Redis is, without a password: for messages. */
    readonly where: string,
    private readonly connectionState: () => ConnectionState,
    private readonly timeoutMs = REDIS_TIMEOUT_MS,
    log: (message: string) => void = () => {},
    /** A Redis Cluster: the keys' counts spread over the slots (`scripts.ts`). */
    private readonly cluster = false,
  ) {
    this.keys = redisKeys(prefix, cluster);
    this.undos = new Undos(client, log);
    this.deadlines = new Deadlines(timeoutMs);
    this.keyCounts = new KeyCounts(
      (bucket) => this.keys.countVersion(bucket),
      (keys, args, bucket) => this.countKeys(keys, args, bucket),
      () => {
        // A key changed after the record was read: nothing was counted; the caller reads it again.
        this.forgetKeys();
        return new KeyChangedError();
      },
    );
    this.indexes = new RedisKeyIndexes(
      this.keys,
      (operation, script, keys, args) => this.script(operation, script, keys, args),
      (operation, args) => this.command(operation, args),
      toKeyRecord,
    );
    this.classes = new RedisClasses(
      prefix,
      (operation, script, keys, args) => this.script(operation, script, keys, args),
      (operation, args) => this.command(operation, args),
    );
    for (const script of [COUNT_ONE, COUNT_KEYS, INSERT, ERASE_APPLICANT, KEY_BY_HASH, UPDATE_KEY, ...INDEX_SCRIPTS, ...CLASS_SCRIPTS])
      this.shas.set(script, createHash("sha1").update(script.lua).digest("hex"));
  }

  /** Whether Redis answers now, and the last error when it does not (for `/healthz`). */
  health(): ConnectionState {
    return this.connectionState();
  }

  /** A `PING` answered within the time limit (during an outage, to end it once Redis answers again). */
  async probe(): Promise<void> {
    await this.command("probe", ["PING"]);
  }

  /**
   * A demo count is one `CONSUME` script of its own; a key's count joins the turn's other counts of
   * keys in one `CONSUME_KEYS` (`KeyCounts`), which also checks the version of a record answered
   * from memory (`keyByHash(hash, true)`).
   */
  consume(bucket: string, day: string, limit: number): Promise<ConsumeResult> {
    const ttl = this.dayLife.ttls(day);
    const counter = this.keys.counter(bucket, day);
    if (!isKeyBucket(bucket)) {
      return this.countOne(counter, limit, ttl.counter).then((reply) => {
        const [allowed, used] = reply as [number, number];
        return { allowed: allowed === 1, used: Number(used) };
      });
    }
    return this.keyCounts.count(bucket, counter, this.keys.usage(bucket, day), day, limit, ttl, this.unchecked.get(bucket));
  }

  async used(bucket: string, day: string): Promise<number> {
    const value = await this.command("used", ["GET", this.keys.counter(bucket, day)]);
    return value === null ? 0 : Number(value);
  }

  usage(id: string, fromDay: string, toDay: string): Promise<DailyUsage[]> {
    return readUsage((month) => this.command("usage", ["HGETALL", this.keys.usage(keyBucket(id), `${month}-01`)]), fromDay, toDay);
  }

  /** Nothing to do: each month of history expires by itself `USAGE_KEEP_DAYS` after its last day (`counterLife.ts`). */
  pruneUsage(): number {
    return 0;
  }

  async insertKey(record: KeyRecord): Promise<void> {
    const { applicant: a, ...key } = record;
    const email = emailKey(a.email);
    const stored: StoredRecord = { ...key, name: a.name, email: a.email, phone: a.phone, depositor: a.depositor, email_key: email };
    const pending = record.status === "pending_deposit" ? "1" : "0";
    this.forgetKeys();
    const outcome = await this.insert(record, JSON.stringify(stored), email, pending);
    this.forgetKeys();
    if (outcome === "duplicate") throw new DuplicateApplicationError();
    if (outcome === "reference") throw new DuplicateReferenceError();
    if (outcome !== "ok") throw new Error(`redis store: a key with id ${record.id} or the same hash exists already`);
  }

  async eraseApplicant(id: string, status: StoredKeyStatus, at: string): Promise<boolean> {
    this.forgetKeys();
    const { records, pending, version, erasable } = this.keys;
    const erased = await this.script("eraseApplicant", ERASE_APPLICANT, [records, pending, version, erasable], [id, status, at]);
    this.forgetKeys();
    return Number(erased) === 1;
  }

  /**
   * The key with this hash. Every metered call asks, so lookups are kept in memory while the keys
   * are unchanged. For a call about to be counted (`toCount`), a record in memory is answered at
   * once and its count checks, in the same script, that the keys' version (which every change
   * increments, in the same script) is still the one it was read at: one round trip per metered
   * call. Otherwise once per turn of the event loop one `GET` of the version tells whether any
   * instance or the CLI has changed a key since; the lookups of the turn wait for it. Either way a
   * key confirmed or revoked anywhere is seen by every request read after the change, as with
   * SQLite; this instance's own changes clear the cache at once.
   */
  keyByHash(hash: string, toCount = false): KeyRecord | null | Promise<KeyRecord | null> {
    // On a cluster a count cannot check the version (another slot): every lookup reads it first.
    if (toCount && !this.cluster && this.cachedVersion !== undefined) {
      const key = this.keysByHash.get(hash);
      if (key !== undefined) {
        if (key !== null) this.unchecked.set(keyBucket(key.id), versionText(this.cachedVersion));
        return key;
      }
    }
    return this.currentKeyByHash(hash);
  }

  /** The key with this hash as of this turn (the version read first), kept in memory at that version. */
  private async currentKeyByHash(hash: string): Promise<KeyRecord | null> {
    const version = await this.keysVersion();
    if (version !== this.cachedVersion || this.keysByHash.full) {
      this.keysByHash.clear();
      this.unchecked.clear();
      this.cachedVersion = version;
    }
    let key = this.keysByHash.get(hash);
    if (key === undefined) {
      const json = await this.script("keyByHash", KEY_BY_HASH, [this.keys.hashes, this.keys.records], [hash]);
      key = json === null ? null : toKeyRecord(String(json));
      // Read at this version or later: kept only while nothing newer has been seen meanwhile.
      if (this.cachedVersion === version) this.keysByHash.set(hash, key);
    }
    return key;
  }

  /** The keys' version for this turn: one read shared by the turn's lookups. */
  private keysVersion(): Promise<unknown> {
    if (this.turnVersion === undefined) {
      this.turnVersion = this.command("keyByHash", ["GET", this.keys.version]);
      nextTurn(() => (this.turnVersion = undefined));
    }
    return this.turnVersion;
  }

  /** Drops the cached key records (this instance is changing a key). */
  private forgetKeys(): void {
    this.keysByHash.clear();
    this.unchecked.clear();
    this.cachedVersion = undefined;
  }

  async keyById(id: string): Promise<KeyRecord | null> {
    const json = await this.command("keyById", ["HGET", this.keys.records, id]);
    return json === null ? null : toKeyRecord(String(json));
  }

  keyPage(query: KeyPageQuery): Promise<KeyPage> {
    return this.indexes.keyPage(query);
  }

  erasablePage(until: string, after: string | null, limit: number): Promise<KeyPage> {
    return this.indexes.erasablePage(until, after, limit);
  }

  acquireLease(name: string, holder: string, ttlMs: number): Promise<boolean> {
    return this.indexes.acquireLease(name, holder, ttlMs);
  }

  releaseLease(name: string, holder: string): Promise<void> {
    return this.indexes.releaseLease(name, holder);
  }

  /** Nothing to do: each counter expires by itself two days after its day began (`consume`). */
  pruneCounters(): number {
    return 0;
  }

  /** Indexes keys stored before the key indexes existed (once per store; see `RedisKeyIndexes.ready`). */
  indexKeys(): Promise<void> {
    return this.indexes.ready(true);
  }

  async updateKey(id: string, patch: KeyPatch): Promise<KeyRecord | null> {
    const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    this.forgetKeys();
    const { records, pending, references, version, erasable } = this.keys;
    const json = await this.script(
      "updateKey",
      UPDATE_KEY,
      [records, pending, references, version, erasable],
      [id, JSON.stringify(changes), paymentReference(id)],
    );
    this.forgetKeys();
    return json === null ? null : toKeyRecord(String(json));
  }

  /** A fresh request id, which names the marker of one undoable script. */
  private requestId(): string {
    return `${this.requestBase}.${(this.requestCount++).toString(36)}`;
  }

  /**
   * One count without a key (`CONSUME`), undone if its caller is answered 503 and it counted after
   * all. The marker sits in the counter's Cluster slot: its hash tag is the counter's whole name.
   */
  private countOne(counter: string, limit: number, ttl: string): Promise<unknown> {
    const marker = `${this.keys.prefix}{${counter}}:undo:${this.requestId()}`;
    const undo = (): Undo => ({ script: UNDO_COUNTS, keys: [marker, counter], args: [WINDOW] });
    return this.replicated(this.script("consume", COUNT_ONE, [counter, marker], [String(limit), ttl, WINDOW], undo), counter, undo);
  }

  /**
   * On a cluster, a count's answer once its primary's replica has it too (`WAIT`, sent after the
   * script's reply, so it covers the script whichever way it went: a script Redis did not have is
   * sent again as text), so that a call answered 200 is still counted after a failover promotes the
   * replica. A `WAIT` that fails (the primary lost, or no answer within what is left of the bound)
   * makes the call a 503 and its count is undone (on the promoted replica, where the marker went
   * with the count, or as a tombstone where it did not). A replica that does not acknowledge within
   * `WAIT_MS` (behind, or absent) does not refuse the call, and its primary is not waited for in the
   * next `UNREPLICATED_MS`: Redis's replication is asynchronous, and such a count may be lost with
   * its primary. On one Redis the answer is the script's.
   */
  private replicated(counted: Promise<unknown>, slotOf: string, undo: () => Undo): Promise<unknown> {
    if (!this.cluster) return counted;
    const started = performance.now();
    const primary = this.client.primaryOf?.(slotOf) ?? slotOf;
    // A primary whose replica did not answer lately (lost, or it was just promoted) is not waited for.
    if ((this.unreplicated.get(primary) ?? 0) > Date.now()) return counted;
    // The count's own failure is the script's to undo (`command`); a lost `WAIT` after it ran is this one's.
    return counted.then((reply) =>
      boundWithin(
        this.sharedWait(primary, slotOf),
        this.timeoutMs - (performance.now() - started),
        () => new StoreUnavailableError(`redis store: consume: no acknowledgement from ${this.where} within ${this.timeoutMs} ms`),
        (error) => error,
      ).then(
        (acknowledged) => {
          if (Number(acknowledged) < 1) this.unreplicated.set(primary, Date.now() + UNREPLICATED_MS);
          return reply;
        },
        (error: unknown) => {
          this.undos.add(undo());
          throw error;
        },
      ),
    );
  }

  /**
   * The `WAIT` on `primary` that covers the counts whose replies have come. At most one is in
   * flight per primary: the counts answered while it is await the next one, sent once it is
   * answered, after the turn (on the connection the counts went by, so it covers every one of
   * them). A busy primary then gets one `WAIT` per round trip of the last, covering the counts of
   * every turn since, not one per turn (each cost the primary about as much as a count). At most
   * two are pending per primary whatever the load: what waits is the calls themselves, each within
   * its time bound (`replicated`), never work queued for later.
   */
  private sharedWait(primary: string, slotOf: string): Promise<unknown> {
    let wait = this.waits.get(primary);
    if (wait === undefined) {
      const inFlight = this.waitsSent.get(primary);
      wait = new Promise((resolve, reject) => {
        const send = () =>
          nextTurn(() => {
            this.waits.delete(primary);
            const answered = this.command("consume", ["WAIT", "1", String(WAIT_MS)], undefined, this.timeoutMs, slotOf);
            this.waitsSent.set(primary, answered);
            const done = () => {
              if (this.waitsSent.get(primary) === answered) this.waitsSent.delete(primary);
            };
            answered.then(done, done);
            answered.then(resolve, reject);
          });
        if (inFlight === undefined) send();
        else inFlight.then(send, send);
      });
      this.waits.set(primary, wait);
    }
    return wait;
  }

  /**
   * A turn's counts of keys (`CONSUME_KEYS`), undone together if their callers are answered 503
   * and they counted after all. `keys` and `args` are made for this call: the marker and the
   * window join them in place.
   */
  private countKeys(keys: string[], args: string[], bucket: string): Promise<unknown> {
    const marker = this.keys.countMarker(bucket, this.requestId());
    const undo = (): Undo => ({ script: UNDO_COUNTS, keys: [marker, ...keys.slice(0, -1)], args: [WINDOW] });
    keys.push(marker);
    args.push(WINDOW);
    return this.replicated(this.script("consume", COUNT_KEYS, keys, args, undo), marker, undo);
  }

  /** `INSERT_KEY`, undone (the key removed) if the applicant is answered 503 and it stored the key after all. */
  private insert(record: KeyRecord, json: string, email: string, pending: string): Promise<unknown> {
    const { records, hashes, pending: pendingKey, references, version, created, erasable } = this.keys;
    const marker = this.keys.undoMarker(this.requestId());
    const reference = paymentReference(record.id);
    const members = indexMembers(record);
    const undo = (): Undo => ({
      script: UNDO_INSERT,
      keys: [marker, records, hashes, pendingKey, references, version, created, erasable],
      args: [WINDOW, record.id, record.hash, email, reference, ...members],
    });
    const keys = [records, hashes, pendingKey, references, version, created, erasable, marker];
    const args = [record.id, record.hash, json, email, reference, pending, record.erased_at ? "1" : "0", ...members, WINDOW];
    return this.script("insertKey", INSERT, keys, args, undo);
  }

  /** Closes the connection after the commands already sent are answered (at most the time bound). */
  insertClass(record: ClassRecord, maxKept: number): Promise<boolean> {
    return this.classes.insertClass(record, maxKept);
  }

  classByCode(code: string): Promise<ClassRecord | null> {
    return this.classes.classByCode(code);
  }

  classesOfKey(keyId: string, now: string): Promise<ClassSummary[]> {
    return this.classes.classesOfKey(keyId, now);
  }

  studentOf(code: string, nameKey: string): Promise<StudentLookup> {
    return this.classes.studentOf(code, nameKey);
  }

  submitToClass(code: string, submission: ClassSubmission, now: string): Promise<SubmitOutcome> {
    return this.classes.submitToClass(code, submission, now);
  }

  classSubmissions(code: string): Promise<ClassSubmission[]> {
    return this.classes.classSubmissions(code);
  }

  pruneClasses(): number {
    return 0;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (!this.client.isOpen) {
      this.undos.stop();
      return;
    }
    // Undos still owed go out first, so the close waits for them with the rest.
    this.undos.flush();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.timeoutMs)));
    await Promise.race([this.client.close().catch(() => {}), late]);
    clearTimeout(timer);
    this.undos.stop();
    if (this.client.isOpen) this.client.destroy();
  }

  /**
   * Runs a script by its SHA-1 and, when Redis does not have it yet (`NOSCRIPT`: it ran nothing),
   * sends its text once. A script whose answer is lost is never sent again: its effect may have
   * happened, and a second send would count a call twice. The text is sent within what is left of
   * the operation's bound, not a bound of its own: after a restart every script goes this way, and
   * two full bounds would outlast the registry's backstop, which would then answer 503 for a call
   * the store goes on to count and, having answered in its own time, would not undo.
   */
  private async script(operation: string, script: LuaScript, keys: string[], args: string[], undo?: () => Undo): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    const started = performance.now();
    try {
      return await this.command(operation, ["EVALSHA", this.shas.get(script) as string, ...tail], undo);
    } catch (error) {
      if (!(error instanceof NoScript)) throw error;
      return this.command(operation, ["EVAL", script.lua, ...tail], undo, this.timeoutMs - (performance.now() - started));
    }
  }

  /**
   * Sends one command, bounded by the time limit; an outage becomes `StoreUnavailableError`. With
   * `undo`, a command that runs after its bound (its caller answered 503) or whose connection is
   * lost is undone.
   */
  private command(operation: string, args: string[], undo?: () => Undo, withinMs = this.timeoutMs, routeBy?: string): Promise<unknown> {
    if (this.closed) return Promise.reject(new StoreUnavailableError(`redis store: ${operation}: the store is closed`));
    if (!this.client.isReady) {
      return Promise.reject(
        new StoreUnavailableError(`redis store: ${operation}: not connected to ${this.where} (${this.connectionState().error ?? "connecting"})`),
      );
    }
    const sent = this.client.sendCommand(args, routeBy);
    let late = false;
    if (undo !== undefined) this.undos.watch(sent, () => late, undo);
    const expire = () => {
      late = true;
      return new StoreUnavailableError(`redis store: ${operation}: no answer from ${this.where} within ${this.timeoutMs} ms`);
    };
    const failed = (error: unknown) => this.failure(operation, error);
    // The shared timer serves every full bound; a shorter one (the rest of an operation's) has its own.
    return withinMs >= this.timeoutMs ? this.deadlines.bound(sent, expire, failed) : boundWithin(sent, withinMs, expire, failed);
  }

  private failure(operation: string, error: unknown): Error {
    const message = error instanceof Error ? error.message : String(error);
    if (message.startsWith("NOSCRIPT")) return new NoScript();
    if (isOutage(error)) return new StoreUnavailableError(`redis store: ${operation}: ${this.where}: ${message}`);
    return new Error(`redis store: ${operation}: ${message}`);
  }
}

/** The keys' version as `GET` gives it (null before the first change), as `CONSUME_KEYS` compares it. */
function versionText(version: unknown): string {
  return version === null || version === undefined ? "" : String(version);
}

/** `promise`, or `late()`'s error when it has not settled within `ms` (at once when `ms` ≤ 0). */
function boundWithin(promise: Promise<unknown>, ms: number, late: () => Error, failed: (error: unknown) => unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(late()), Math.max(0, ms));
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(failed(error));
      },
    );
  });
}

/** Redis has not loaded the script yet; it ran nothing. */
class NoScript extends Error {}

/** Settings of `openRedisStore` (`REDIS_URL`, `REDIS_PREFIX`, `REDIS_CA`). */
export interface RedisStoreOptions {
  url: string;
  prefix?: string;
  caFile?: string;
  /** Where connection changes and the persistence warning are reported; default stderr as JSON lines. */
  log?: (level: "info" | "warn", message: string) => void;
  /** The bound on each operation (tests shorten it). */
  timeoutMs?: number;
  /** Fail when Redis does not answer at open (a one-off command), instead of opening and reconnecting. */
  requireConnection?: boolean;
  /** `url` names a node of a Redis Cluster (`REDIS_CLUSTER=1`). */
  cluster?: boolean;
}

/** Whether the Redis connected to is a node of a Redis Cluster (`INFO cluster`; a Redis that refuses `INFO` is taken as not). */
async function clusterNode(client: RedisConnection): Promise<boolean> {
  try {
    return String(await client.sendCommand(["INFO", "cluster"])).includes("cluster_enabled:1");
  } catch {
    return false;
  }
}

/** Writes a JSON line on stderr, like the server's other messages. */
function logLine(level: "info" | "warn", msg: string): void {
  console.error(JSON.stringify({ level, msg }));
}

/**
 * Opens the Redis store. A malformed URL, Redis refusing its password or database, or an
 * unreadable CA file fails here (the message names the setting, never the password). An
 * unreachable Redis does not: the store opens, answers 503 and reconnects by itself.
 */
export async function openRedisStore(options: RedisStoreOptions): Promise<RedisQuotaStore> {
  const log = options.log ?? logLine;
  let target: RedisTarget;
  try {
    target = parseRedisUrl(options.url, options.cluster === true);
  } catch (error) {
    throw new Error(`REDIS_URL: ${(error as Error).message}`);
  }
  let opened = false;
  let store: RedisQuotaStore | undefined;
  const { client, state } = await connect({
    target,
    caFile: options.caFile,
    onChange: ({ ready, error }) => {
      if (ready) store?.undos.flush();
      // At info: the outage it causes is the app's to report, one warn line when the first call is
      // answered 503 and one when the store answers again (`outages.ts`).
      if (opened && !store?.isClosed)
        log(
          "info",
          ready
            ? `redis store: connected to ${target.safe}`
            : `redis store: lost ${target.safe} (${error ?? "closed"}); metered calls answer 503 until it is back`,
        );
    },
  }).catch((error: Error) => {
    throw new Error(`REDIS_URL: ${error.message}`);
  });
  opened = true;
  if (client.isReady && !target.cluster && (await clusterNode(client))) {
    client.destroy();
    throw new Error(`REDIS_URL: ${target.safe} is a node of a Redis Cluster: set REDIS_CLUSTER=1`);
  }
  if (client.isReady) {
    const warning = await persistenceWarning(client, target.safe);
    if (warning !== undefined) log("warn", warning);
  } else if (options.requireConnection) {
    client.destroy();
    throw new Error(`REDIS_URL: ${target.safe} does not answer (${state().error ?? "no connection"})`);
  } else {
    log("warn", `redis store: ${target.safe} does not answer (${state().error ?? "no answer"}); starting anyway: metered calls answer 503 until it does`);
  }
  store = new RedisQuotaStore(
    client,
    options.prefix ?? DEFAULT_REDIS_PREFIX,
    target.safe,
    state,
    options.timeoutMs,
    (message) => log("warn", message),
    target.cluster,
  );
  // Keys stored before the key indexes existed are indexed before the store is used (once).
  if (client.isReady) await store.indexKeys();
  return store;
}
