/**
 * Class quizzes as the quota store keeps them (docs/api.md "Class quizzes"): a teacher's key makes
 * one, students submit their answers under a display name, the teacher reads the results. The
 * record holds the questions without their answers (what students are shown) and, apart, what
 * grading needs (`claims`): nothing a student is sent can be turned into the answers or a seed. A
 * class quiz and its submissions are erased together once `keep_until` has passed.
 */
import type { QuizClaims } from "../quiz/quizId.ts";

/** What the teacher chose, as stored and reported. */
export interface ClassSettings {
  type: readonly string[];
  count: number;
  choices: number;
  level: string;
  difficulty: string;
  lang: string;
  answer_format: "choices" | "typed";
  mature: 0 | 1;
}

/** One question: its JSON as students see it (no answers, no gradeable id) and what grading needs. */
export interface ClassQuestion {
  quiz: string;
  claims: QuizClaims;
}

/** A class quiz as stored. */
export interface ClassRecord {
  /** `cq_` and 22 base62 characters, random (about 131 bits): the only way to the class quiz. */
  code: string;
  /** The key that made it: it is charged for each student, and only it reads the results. */
  key_id: string;
  title: string;
  /** ISO 8601 instants: made, closed to submissions, erased with its results. */
  created_at: string;
  closes_at: string;
  keep_until: string;
  /** The most students who may submit. */
  students_max: number;
  /** The data release the questions were drawn from (the first 12 hex digits of its hash): grading needs the same. */
  data: string;
  settings: ClassSettings;
  questions: readonly ClassQuestion[];
}

/** One student's submission, graded when it was made. */
export interface ClassSubmission {
  name: string;
  /** The name as compared for duplicates (`nameKey`): one submission per name key. */
  name_key: string;
  /** The answers given, one per question in order (`""`: left blank). */
  answers: readonly string[];
  correct: readonly boolean[];
  submitted_at: string;
}

/** A class quiz as the teacher's list shows it. */
export interface ClassSummary {
  code: string;
  title: string;
  created_at: string;
  closes_at: string;
  keep_until: string;
  count: number;
  students_max: number;
  students: number;
}

/** What a store knows of a student's name in a class quiz before a submission: the submission under it, if any, and how many have submitted. */
export interface StudentLookup {
  submission: ClassSubmission | null;
  students: number;
}

/** What `submitToClass` did: stored it, or why not (the name is taken, the class quiz is full, closed, or gone). */
export type SubmitOutcome = "stored" | "taken" | "full" | "closed" | "missing";

/**
 * The class-quiz operations every quota store has (memory, SQLite, Redis), under the failure
 * contract of `QuotaStore`: each answers within the store's bound or fails with
 * `StoreUnavailableError` having changed nothing. `now` is an ISO 8601 instant; instants are
 * compared as text (the records' instants all come from `toISOString`).
 */
export interface ClassStore {
  /**
   * Stores a new class quiz unless its key already keeps `maxKept` whose `keep_until` is after
   * `record.created_at`, atomically (N makers racing past the limit: exactly the room left is
   * taken); true when it was stored.
   */
  insertClass(record: ClassRecord, maxKept: number): boolean | Promise<boolean>;
  /** The class quiz with this code, or null (one past `keep_until` may still be there until the sweep: the caller checks). */
  classByCode(code: string): ClassRecord | null | Promise<ClassRecord | null>;
  /** The class quizzes of key `keyId` kept at `now`, newest first (at most the key's limit of them). */
  classesOfKey(keyId: string, now: string): ClassSummary[] | Promise<ClassSummary[]>;
  /** The submission under `nameKey` (a `nameKey` of the display name) and how many students have submitted. */
  studentOf(code: string, nameKey: string): StudentLookup | Promise<StudentLookup>;
  /**
   * Stores a submission under its `name_key`, atomically: not when the class quiz is gone or past
   * `closes_at` at `now`, holds `students_max` submissions already, or has one under that name key
   * (the first submission stands).
   */
  submitToClass(code: string, submission: ClassSubmission, now: string): SubmitOutcome | Promise<SubmitOutcome>;
  /** Every submission of the class quiz, in the order they were stored. */
  classSubmissions(code: string): ClassSubmission[] | Promise<ClassSubmission[]>;
  /**
   * Erases at most `limit` class quizzes whose `keep_until` is at or before `now`, with their
   * submissions, and answers how many: the retention sweep runs it in steps. A store whose records
   * expire by themselves (Redis) answers 0.
   */
  pruneClasses(now: string, limit: number): number | Promise<number>;
}

/** The summary of a record with `students` submissions. */
export function classSummary(record: ClassRecord, students: number): ClassSummary {
  const { code, title, created_at, closes_at, keep_until, students_max } = record;
  return { code, title, created_at, closes_at, keep_until, count: record.questions.length, students_max, students };
}

/** Class quizzes newest first (by `created_at`), as a key's list shows them. */
export function newestFirst(a: ClassSummary, b: ClassSummary): number {
  return a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0;
}
