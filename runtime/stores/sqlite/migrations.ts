/**
 * The quota database schema, versioned with `PRAGMA user_version`: migration n brings a database
 * from version n-1 to n. Append only; never edit a migration that has shipped.
 */
import type { SqlDriver } from "./sqlDriver.ts";
import { rollbackAfter } from "./failures.ts";

const MIGRATIONS: readonly string[] = [
  // 1: counters and keys.
  `CREATE TABLE counters (
     bucket TEXT NOT NULL,
     day    TEXT NOT NULL,
     used   INTEGER NOT NULL,
     PRIMARY KEY (bucket, day)
   ) WITHOUT ROWID;
   CREATE TABLE keys (
     id           TEXT PRIMARY KEY,
     hash         TEXT NOT NULL UNIQUE,
     plan         TEXT NOT NULL CHECK (plan IN ('free', 'annual')),
     status       TEXT NOT NULL CHECK (status IN ('pending_deposit', 'active', 'revoked')),
     created_at   TEXT NOT NULL,
     confirmed_at TEXT,
     expires_at   TEXT,
     revoked_at   TEXT,
     name         TEXT NOT NULL,
     email        TEXT NOT NULL,
     phone        TEXT,
     depositor    TEXT
   );
   CREATE UNIQUE INDEX keys_pending_email ON keys (lower(email)) WHERE status = 'pending_deposit';
   CREATE INDEX keys_created ON keys (created_at);`,
  // 2: personal data erased after its retention period; payment references unique among open applications.
  `ALTER TABLE keys ADD COLUMN erased_at TEXT;
   DROP INDEX keys_pending_email;
   CREATE UNIQUE INDEX keys_pending_email ON keys (lower(email)) WHERE status = 'pending_deposit' AND erased_at IS NULL;
   CREATE INDEX keys_pending_reference ON keys (upper(substr(id, 5, 6))) WHERE status = 'pending_deposit';`,
  // 3: work that grows with the number of keys in bounded steps. When each key's retention clock
  // started while its personal data is kept (a generated column, so every row has it, existing
  // ones included, and no statement can forget it), indexed: the sweep reads only what is due.
  // Keys in creation order, all and per status, for listing in pages; counters by day, pruned in
  // steps; and leases, so that one process sweeps at a time.
  `ALTER TABLE keys ADD COLUMN erasable_since TEXT GENERATED ALWAYS AS (
     CASE WHEN erased_at IS NOT NULL THEN NULL WHEN status = 'pending_deposit' THEN created_at WHEN status = 'revoked' THEN revoked_at END
   ) VIRTUAL;
   CREATE INDEX keys_erasable ON keys (erasable_since, id) WHERE erasable_since IS NOT NULL;
   DROP INDEX keys_created;
   CREATE INDEX keys_created ON keys (created_at, id);
   CREATE INDEX keys_status_created ON keys (status, created_at, id);
   CREATE INDEX counters_day ON counters (day);
   CREATE TABLE leases (
     name    TEXT PRIMARY KEY,
     holder  TEXT NOT NULL,
     expires INTEGER NOT NULL
   ) WITHOUT ROWID;`,
  // 4: a key's daily counts are its usage history, kept 400 days, while the other counters (the
  // demo's, by address) go after 7: each kind pruned along an index of its own days, so that
  // neither prune reads past the rows the other keeps ('key:' is keyBucket's prefix).
  `DROP INDEX counters_day;
   CREATE INDEX counters_day ON counters (day) WHERE substr(bucket, 1, 4) <> 'key:';
   CREATE INDEX counters_key_day ON counters (day) WHERE substr(bucket, 1, 4) = 'key:';`,
  // 5: class quizzes (the record as JSON, the columns the limits and the sweep read) and their
  // students' submissions, in the order stored; both erased together once keep_until has passed.
  `CREATE TABLE classes (
     code         TEXT PRIMARY KEY,
     key_id       TEXT NOT NULL,
     created_at   TEXT NOT NULL,
     closes_at    TEXT NOT NULL,
     keep_until   TEXT NOT NULL,
     students_max INTEGER NOT NULL,
     record       TEXT NOT NULL
   ) WITHOUT ROWID;
   CREATE INDEX classes_key ON classes (key_id, keep_until);
   CREATE INDEX classes_keep ON classes (keep_until);
   CREATE TABLE class_submissions (
     seq        INTEGER PRIMARY KEY,
     code       TEXT NOT NULL,
     name_key   TEXT NOT NULL,
     submission TEXT NOT NULL,
     UNIQUE (code, name_key)
   );`,
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

function userVersion(db: SqlDriver): number {
  return Number(db.prepare("PRAGMA user_version").get()?.user_version ?? 0);
}

/**
 * Refuses, before anything is written, a database this program must not touch: one from a newer
 * program, or another program's (tables but no schema version), which migrating would alter.
 * The tables are read before the version: a server creating the schema beside this one commits
 * both at once, so tables seen here come with their version (read the other way round, a
 * migration committed between the two reads looked like another program's tables).
 */
export function checkOwnDatabase(db: SqlDriver, path: string): void {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
    .all()
    .map((row) => String(row.name));
  const version = userVersion(db);
  if (version > SCHEMA_VERSION) {
    throw new Error(
      `quota store: ${path} has schema version ${version}, newer than this program understands (${SCHEMA_VERSION}); ` +
        `upgrade the program or point QUOTA_DB at another file`,
    );
  }
  if (version === 0 && tables.length > 0) {
    throw new Error(
      `quota store: ${path} is another program's database (it holds ${tables.slice(0, 5).join(", ")}${tables.length > 5 ? ", …" : ""} and no quota schema); ` +
        `point QUOTA_DB at a new file or at this service's own database`,
    );
  }
}

/**
 * Brings the database at `path` up to `SCHEMA_VERSION`. Each step runs in its own write
 * transaction and re-reads the version inside it, so servers starting together migrate once.
 * A database from a newer program is refused rather than misread.
 */
export function migrate(db: SqlDriver, path: string): void {
  for (;;) {
    const version = userVersion(db);
    if (version === SCHEMA_VERSION) return;
    db.exec("BEGIN IMMEDIATE");
    try {
      // Inside the transaction, so that no other program writes between the check and the step.
      checkOwnDatabase(db, path);
      const current = userVersion(db);
      const step = MIGRATIONS[current];
      if (current === version && step !== undefined) {
        db.exec(step);
        db.exec(`PRAGMA user_version = ${current + 1}`);
      }
      db.exec("COMMIT");
    } catch (error) {
      throw rollbackAfter(db, error);
    }
  }
}
