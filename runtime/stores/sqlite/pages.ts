/**
 * The SQLite store's work that grows with the number of keys, done in bounded steps: keys in pages
 * along the `keys_created` and `keys_status_created` indexes, the keys due for erasure along
 * `keys_erasable` (migration 3), old counters deleted a batch at a time along `counters_day`, and
 * the `leases` table; and keys' usage history, which is their daily counters kept longer. Each page is one short statement (keyset pagination: a page starts after the
 * last row of the one before, found in the index), so no statement holds a lock or a read snapshot
 * across pages and none costs more as the table grows.
 */
import type { DailyUsage, KeyPage, KeyPageQuery, KeyRecord } from "../../core/quota/store.ts";
import type { SqlDriver, SqlRow, SqlStatement } from "./sqlDriver.ts";
import { unavailableOr } from "./failures.ts";

/** Keys' counters (`keyBucket`'s prefix), and the others, as the indexes of migration 4 select them. */
const KEY_COUNTERS = "substr(bucket, 1, 4) = 'key:'";
const OTHER_COUNTERS = "substr(bucket, 1, 4) <> 'key:'";

/**
 * The statement deleting the counters of one kind before a day (`?`), at most `?` of them: its
 * condition is written as the partial index of that kind (migration 4) is, so that SQLite reads
 * along it.
 */
export function pruneSql(keys: boolean): string {
  return `DELETE FROM counters WHERE (bucket, day) IN (SELECT bucket, day FROM counters WHERE day < ? AND ${keys ? KEY_COUNTERS : OTHER_COUNTERS} LIMIT ?)`;
}

/** Above every `created_at` (ISO instants start with a digit): where a newest-first walk starts. */
const PAST_THE_END = "~";

/** A page position, `<instant> <id>` (ids hold no space), as its two parts. */
function position(after: string | null | undefined, start: string): [string, string] {
  if (!after) return [start, ""];
  const space = after.lastIndexOf(" ");
  return [after.slice(0, space), after.slice(space + 1)];
}

/** The pages, leases and pruning of one SQLite connection. */
export class SqlitePages {
  private readonly statements = new Map<string, SqlStatement>();

  constructor(
    private readonly db: SqlDriver,
    private readonly columns: string,
    private readonly toKeyRecord: (row: SqlRow) => KeyRecord,
    /** The file, for messages. */
    private readonly path: string,
  ) {}

  keyPage(query: KeyPageQuery): KeyPage {
    const oldest = query.oldestFirst === true;
    const [created, id] = position(query.after, oldest ? "" : PAST_THE_END);
    const status = query.status === undefined ? "" : "status = ? AND";
    const sql = `SELECT ${this.columns} FROM keys WHERE ${status} (created_at, id) ${oldest ? ">" : "<"} (?, ?)
      ORDER BY created_at ${oldest ? "ASC" : "DESC"}, id ${oldest ? "ASC" : "DESC"} LIMIT ?`;
    const params = [...(query.status === undefined ? [] : [query.status]), created, id, query.limit];
    const rows = this.read(sql, params);
    const last = rows[rows.length - 1];
    return { keys: rows.map(this.toKeyRecord), next: rows.length === query.limit && last ? `${last.created_at} ${last.id}` : null };
  }

  erasablePage(until: string, after: string | null, limit: number): KeyPage {
    const [since, id] = position(after, "");
    const rows = this.read(
      `SELECT ${this.columns}, erasable_since FROM keys
       WHERE erasable_since IS NOT NULL AND erasable_since <= ? AND (erasable_since, id) > (?, ?)
       ORDER BY erasable_since, id LIMIT ?`,
      [until, since, id, limit],
    );
    const last = rows[rows.length - 1];
    return {
      keys: rows.map(({ erasable_since: _, ...row }) => this.toKeyRecord(row)),
      next: rows.length === limit && last ? `${last.erasable_since} ${last.id}` : null,
    };
  }

  acquireLease(name: string, holder: string, ttlMs: number): boolean {
    const now = Date.now();
    // Taken when free, expired, or already this holder's (then renewed); one statement, so atomic.
    return (
      this.write(
        `INSERT INTO leases (name, holder, expires) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires = excluded.expires
         WHERE leases.holder = excluded.holder OR leases.expires <= ?`,
        [name, holder, now + ttlMs, now],
      ) > 0
    );
  }

  releaseLease(name: string, holder: string): void {
    this.write("DELETE FROM leases WHERE name = ? AND holder = ?", [name, holder]);
  }

  /** Deletes counters of buckets without a key (`keys` false) or keys' usage history (`keys` true) before `beforeDay`, at most `limit`. */
  prune(keys: boolean, beforeDay: string, limit: number): number {
    return this.write(pruneSql(keys), [beforeDay, limit]);
  }

  /** The usage history of the key with bucket `bucket` from `fromDay` to `toDay`, along the primary key. */
  usage(bucket: string, fromDay: string, toDay: string): DailyUsage[] {
    const rows = this.read("SELECT day, used FROM counters WHERE bucket = ? AND day >= ? AND day <= ? ORDER BY day", [bucket, fromDay, toDay]);
    return rows.map((row) => ({ date: String(row.day), calls: Number(row.used) }));
  }

  private statement(sql: string): SqlStatement {
    let statement = this.statements.get(sql);
    if (statement === undefined) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  private read(sql: string, params: (string | number)[]): SqlRow[] {
    try {
      return this.statement(sql).all(...params);
    } catch (error) {
      throw unavailableOr(error, this.path);
    }
  }

  private write(sql: string, params: (string | number)[]): number {
    try {
      return this.statement(sql).run(...params).changes;
    } catch (error) {
      throw unavailableOr(error, this.path);
    }
  }
}
