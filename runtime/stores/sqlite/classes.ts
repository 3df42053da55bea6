/**
 * The SQLite store's class quizzes (migration 5): `classes`, one row per class quiz with its record
 * as JSON, and `class_submissions`, one row per student. Each change is one statement, so SQLite's
 * write lock makes the limits (class quizzes per key, students per class quiz) and the first
 * submission under a name exact across processes.
 */
import type { ClassRecord, ClassStore, ClassSubmission, ClassSummary, StudentLookup, SubmitOutcome } from "../../core/classes/classStore.ts";
import { classSummary } from "../../core/classes/classStore.ts";
import type { SqlDriver, SqlStatement } from "./sqlDriver.ts";
import { rollbackAfter, unavailableOr } from "./failures.ts";

export class SqliteClasses implements ClassStore {
  private readonly statements: Record<
    "insert" | "byCode" | "ofKey" | "student" | "students" | "submit" | "submissions" | "dueCodes" | "pruneSubmissions" | "pruneClass",
    SqlStatement
  >;

  constructor(
    private readonly db: SqlDriver,
    private readonly path: string,
  ) {
    this.statements = {
      // One statement: the count of the key's kept class quizzes and the insert run under one write lock.
      insert: db.prepare(
        `INSERT INTO classes (code, key_id, created_at, closes_at, keep_until, students_max, record)
         SELECT ?, ?, ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM classes WHERE key_id = ? AND keep_until > ?) < ?`,
      ),
      byCode: db.prepare("SELECT record FROM classes WHERE code = ?"),
      ofKey: db.prepare(
        `SELECT record, (SELECT count(*) FROM class_submissions s WHERE s.code = c.code) AS students
         FROM classes c WHERE key_id = ? AND keep_until > ? ORDER BY created_at DESC, code DESC`,
      ),
      student: db.prepare("SELECT submission FROM class_submissions WHERE code = ? AND name_key = ?"),
      students: db.prepare("SELECT count(*) FROM class_submissions WHERE code = ?"),
      // One statement: open, not full and the name not yet taken, checked and written under one write lock.
      submit: db.prepare(
        `INSERT INTO class_submissions (code, name_key, submission)
         SELECT ?, ?, ? WHERE EXISTS (
           SELECT 1 FROM classes c WHERE c.code = ? AND c.keep_until > ? AND c.closes_at > ?
             AND (SELECT count(*) FROM class_submissions s WHERE s.code = c.code) < c.students_max)
         ON CONFLICT (code, name_key) DO NOTHING`,
      ),
      submissions: db.prepare("SELECT submission FROM class_submissions WHERE code = ? ORDER BY seq"),
      dueCodes: db.prepare("SELECT code FROM classes WHERE keep_until <= ? ORDER BY keep_until LIMIT ?"),
      pruneSubmissions: db.prepare("DELETE FROM class_submissions WHERE code = ?"),
      pruneClass: db.prepare("DELETE FROM classes WHERE code = ?"),
    };
  }

  insertClass(record: ClassRecord, maxKept: number): boolean {
    const { code, key_id, created_at, closes_at, keep_until, students_max } = record;
    return this.guarded(
      () =>
        this.statements.insert.run(code, key_id, created_at, closes_at, keep_until, students_max, JSON.stringify(record), key_id, created_at, maxKept).changes >
        0,
    );
  }

  classByCode(code: string): ClassRecord | null {
    const json = this.guarded(() => this.statements.byCode.first(code));
    return typeof json === "string" ? (JSON.parse(json) as ClassRecord) : null;
  }

  classesOfKey(keyId: string, now: string): ClassSummary[] {
    return this.guarded(() => this.statements.ofKey.all(keyId, now)).map((row) =>
      classSummary(JSON.parse(String(row.record)) as ClassRecord, Number(row.students)),
    );
  }

  studentOf(code: string, nameKey: string): StudentLookup {
    return this.guarded(() => {
      const json = this.statements.student.first(code, nameKey);
      return {
        submission: typeof json === "string" ? (JSON.parse(json) as ClassSubmission) : null,
        students: Number(this.statements.students.first(code) ?? 0),
      };
    });
  }

  submitToClass(code: string, submission: ClassSubmission, now: string): SubmitOutcome {
    const stored = this.guarded(() => this.statements.submit.run(code, submission.name_key, JSON.stringify(submission), code, now, now).changes > 0);
    if (stored) return "stored";
    // Not stored: why, as read now (a submission that lost a race to the same name reads "taken").
    const record = this.classByCode(code);
    if (record === null || record.keep_until <= now) return "missing";
    if (record.closes_at <= now) return "closed";
    const { submission: first, students } = this.studentOf(code, submission.name_key);
    if (first !== null) return "taken";
    return students >= record.students_max ? "full" : "taken";
  }

  classSubmissions(code: string): ClassSubmission[] {
    return this.guarded(() => this.statements.submissions.all(code)).map((row) => JSON.parse(String(row.submission)) as ClassSubmission);
  }

  /** Each due class quiz goes with its submissions in one transaction. */
  pruneClasses(now: string, limit: number): number {
    const codes = this.guarded(() => this.statements.dueCodes.all(now, limit)).map((row) => String(row.code));
    return this.guarded(() => {
      this.db.exec("BEGIN IMMEDIATE");
      try {
        for (const code of codes) {
          this.statements.pruneSubmissions.run(code);
          this.statements.pruneClass.run(code);
        }
        this.db.exec("COMMIT");
      } catch (error) {
        throw rollbackAfter(this.db, error);
      }
      return codes.length;
    });
  }

  /** `run`, a locked or full database answered as the store contract has it (`StoreUnavailableError`). */
  private guarded<T>(run: () => T): T {
    try {
      return run();
    } catch (error) {
      throw unavailableOr(error, this.path);
    }
  }
}
