/**
 * The quota store: API keys, their applications and the daily counters (docs/rules.md "Interface B"). The core only
 * talks to this interface; `MemoryQuotaStore`, the SQLite store and the Redis store implement it. Work
 * that grows with the number of keys (listing, export, the retention sweep, pruning counters) is
 * asked for in pages or bounded steps, so no operation's cost grows with the store.
 */

import type { ClassStore } from "../classes/classStore.ts";

export type { Plan } from "./plans.ts";
/** Stored statuses; `expired` is derived from `expires_at` at read time. */
export type StoredKeyStatus = "pending_deposit" | "active" | "revoked";
export type KeyStatus = StoredKeyStatus | "expired";

/** The applicant's personal data: stored, shown only by the admin routes and CLI, never logged. */
export interface Applicant {
  name: string;
  email: string;
  phone: string | null;
  depositor: string | null;
}

/** A key as stored: never the key itself, only its SHA-256 and a public id. */
export interface KeyRecord {
  /** Public key id (`key_` + 12 base62 characters), safe to show and log. */
  id: string;
  /** SHA-256 of the full key, hex. */
  hash: string;
  plan: "free" | "annual";
  status: StoredKeyStatus;
  /** ISO 8601 instants. */
  created_at: string;
  confirmed_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  /**
   * When the applicant's personal data was erased (retention.ts); absent or null while it is
   * kept. An erased key keeps its id, status and payment reference; its applicant is empty.
   */
  erased_at?: string | null;
  applicant: Applicant;
}

/** Result of one metering attempt. */
export interface ConsumeResult {
  /** True when the call was counted (the count was below the limit). */
  allowed: boolean;
  /** The count after this attempt (unchanged when not allowed). */
  used: number;
}

/** One day of a key's usage history. */
export interface DailyUsage {
  /** The metering day, `YYYY-MM-DD`. */
  date: string;
  /** The calls counted on that day (429s and calls answered 503 are not counted). */
  calls: number;
}

/** The counter bucket of a key's calls; a caller without a key counts in `ip:<address>`. */
export function keyBucket(id: string): string {
  return `${KEY_BUCKET}${id}`;
}

/** Whether `bucket` counts a key's calls. */
export function isKeyBucket(bucket: string): boolean {
  return bucket.startsWith(KEY_BUCKET);
}

const KEY_BUCKET = "key:";

/** What `keyPage` is asked for. */
export interface KeyPageQuery {
  /** Only keys with this stored status (the page may then hold fewer than `limit` keys without being the last). */
  status?: StoredKeyStatus;
  /** The previous page's `next`; absent or null for the first page. */
  after?: string | null;
  /** At most this many keys (positive). */
  limit: number;
  oldestFirst?: boolean;
}

/** A page of keys; `next` is where the following page starts, null after the last one. */
export interface KeyPage {
  keys: KeyRecord[];
  next: string | null;
}

/** A change to a key (confirm, renew, revoke). */
export type KeyPatch = Partial<Pick<KeyRecord, "plan" | "status" | "confirmed_at" | "expires_at" | "revoked_at">>;

/**
 * The failure contract every store keeps (see `runtime/stores/registry.ts` for the kinds):
 * - an operation may answer at once or with a promise, and settles within the store's time bound;
 * - an operation that cannot be done now (backend down, locked or busy past the bound, disk full)
 *   throws or rejects with `StoreUnavailableError`, and has then changed nothing: a `consume` that
 *   fails has not counted (and an `insertKey` that fails has stored nothing), so the caller's retry
 *   is counted once; a store that gives up on a command already sent undoes it should it complete
 *   later (the Redis store: `redis/undo.ts`). The service answers `503
 *   service_unavailable` with `Retry-After`; it never retries an operation itself;
 * - error messages name the store and the cause, never a key, a hash or an applicant's data
 *   (they are logged).
 * The class quizzes' operations (`ClassStore`) keep the same contract.
 */
export interface QuotaStore extends ClassStore {
  /**
   * Counts one call in `bucket` for `day` if fewer than `limit` were counted, atomically: N
   * concurrent calls against limit L succeed exactly min(N, L) times, across processes too.
   */
  consume(bucket: string, day: string, limit: number): ConsumeResult | Promise<ConsumeResult>;
  /** The count of `bucket` for `day` (0 when none). */
  used(bucket: string, day: string): number | Promise<number>;
  /**
   * The usage history of key `id`: the calls counted on its bucket (`keyBucket(id)`) per day, for
   * the days from `fromDay` to `toDay` (`YYYY-MM-DD`, both included), oldest first, days without a
   * counted call left out. A key's daily count and its history are one value, changed by the same
   * atomic step of `consume` (and of an undo): the history never disagrees with the count. It is
   * kept, past `pruneCounters`, until `pruneUsage` deletes it (at least `USAGE_KEEP_DAYS`: the
   * sweep in `retention.ts`). Only keys have a history: a demo caller's counts, kept by address,
   * go with the counters.
   */
  usage(id: string, fromDay: string, toDay: string): DailyUsage[] | Promise<DailyUsage[]>;
  /**
   * Stores a new key. Fails with `DuplicateApplicationError` when a `pending_deposit` key with the
   * same e-mail (case-insensitive, personal data not erased) exists, and with
   * `DuplicateReferenceError` when one has the same payment reference, atomically.
   */
  insertKey(record: KeyRecord): void | Promise<void>;
  /**
   * Erases the personal data of key `id` (name and e-mail become empty, phone and depositor null,
   * `erased_at` is set to `at`) if its stored status is still `status` and it was not erased yet,
   * atomically; true when it did.
   */
  eraseApplicant(id: string, status: StoredKeyStatus, at: string): boolean | Promise<boolean>;
  /**
   * The key with this SHA-256 hash, or null. With `toCount`, the caller counts a call of this key
   * (`consume` on its bucket) at once, in the same turn of the event loop: a store whose lookups
   * cost a round trip may then answer from memory with a record it has not checked is current,
   * provided that `consume` on the key's bucket checks it and, when any key changed since, counts
   * nothing and throws `KeyChangedError` (the caller then asks again without `toCount`). Without
   * it, the record is current as of this turn: a change made by any process before it is seen.
   */
  keyByHash(hash: string, toCount?: boolean): KeyRecord | null | Promise<KeyRecord | null>;
  keyById(id: string): KeyRecord | null | Promise<KeyRecord | null>;
  /**
   * One page of keys in creation order (`created_at`, then id), newest first unless `oldestFirst`:
   * at most `limit` keys after the position `after` (a page's `next`, opaque), optionally of one
   * stored status. A page costs the store in proportion to `limit`, never to the number of keys,
   * so a caller walks every key in bounded steps (`keyPages.ts`) and in constant memory. A key
   * inserted during the walk may or may not be seen; every key present throughout is seen once.
   */
  keyPage(query: KeyPageQuery): KeyPage | Promise<KeyPage>;
  /**
   * One page of the keys whose personal data is kept and whose retention clock started at or
   * before `until` (ISO 8601): pending applications by `created_at`, revoked keys by `revoked_at`
   * (`retention.ts`), soonest first, then by id; at most `limit` after `after` (a page's `next`).
   * Read from an index of these instants, so the sweep reads only what is due. The instants are
   * compared as text, which is their time order when they share a format (an imported instant
   * without milliseconds may sort up to a second off): the caller asks a second further and checks
   * each key (`retention.ts`).
   */
  erasablePage(until: string, after: string | null, limit: number): KeyPage | Promise<KeyPage>;
  /**
   * Takes or renews the lease `name` for `holder` until `ttlMs` from now, atomically across
   * processes: true when `holder` holds it now (it was free, expired or already this holder's).
   * Work that needs doing once, not by every process (the retention sweep), runs under a lease.
   */
  acquireLease(name: string, holder: string, ttlMs: number): boolean | Promise<boolean>;
  /** Gives the lease up if `holder` still holds it (another holder's is left alone). */
  releaseLease(name: string, holder: string): void | Promise<void>;
  /**
   * Deletes at most `limit` daily counters of days before `beforeDay` (`YYYY-MM-DD`) and answers
   * how many it deleted: old counters go in small steps, apart from the metered calls (a `consume`
   * never prunes). Keys' counts are their usage history and are left to `pruneUsage`. A store whose
   * counters expire by themselves (Redis) answers 0.
   */
  pruneCounters(beforeDay: string, limit: number): number | Promise<number>;
  /**
   * Deletes at most `limit` days of keys' usage history before `beforeDay` and answers how many it
   * deleted, in small steps as `pruneCounters`. A store whose history expires by itself (Redis,
   * after `USAGE_KEEP_DAYS`) answers 0.
   */
  pruneUsage(beforeDay: string, limit: number): number | Promise<number>;
  /**
   * Applies a change, atomically, unless the key is revoked: a revocation is final, so a revoked
   * key comes back unchanged (whatever another process was doing with it at the same moment).
   * Returns the key as it now is, or null when there is no such key.
   */
  updateKey(id: string, patch: KeyPatch): KeyRecord | null | Promise<KeyRecord | null>;
  /** Releases files and handles. */
  close(): void | Promise<void>;
  /**
   * Whether the store can answer now, for `/healthz`: a store that lives apart from the process
   * (Redis) reports its connection; one that cannot be away (memory, SQLite) leaves this out.
   */
  health?(): StoreHealth;
  /**
   * Asks the store to answer now (a round trip, bounded as an operation is); rejects when it cannot.
   * Called while an outage is under way, to end it once the store answers again without waiting
   * for a metered call (`outages.ts`). A store that lives apart from the process (Redis) has one;
   * for the others, the next change that succeeds ends an outage.
   */
  probe?(): Promise<void>;
}

/** A store's connection as `/healthz` reports it. */
export interface StoreHealth {
  ready: boolean;
  /** Why it is not ready (never a secret or personal data). */
  error?: string;
}

/** The quota store cannot answer now (down, busy past its time bound, disk full): the service answers 503 with Retry-After. */
export class StoreUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds = 1,
  ) {
    super(message);
    this.name = "StoreUnavailableError";
  }
}

/**
 * Raised by `consume` of a key's bucket when the key record that `keyByHash(hash, true)` answered
 * from memory may have changed since (some key changed): nothing was counted, and the caller reads
 * the key again and decides on the current record.
 */
export class KeyChangedError extends Error {
  constructor() {
    super("a key changed since its record was read; read it again");
    this.name = "KeyChangedError";
  }
}

/** Raised by `insertKey` when an open application already has the new key's payment reference. */
export class DuplicateReferenceError extends Error {
  constructor() {
    super("an application awaiting its deposit already has this payment reference");
    this.name = "DuplicateReferenceError";
  }
}

/** Raised by `insertKey` for a second pending application with the same e-mail. */
export class DuplicateApplicationError extends Error {
  constructor() {
    super("an application with this e-mail is already awaiting its deposit");
    this.name = "DuplicateApplicationError";
  }
}
