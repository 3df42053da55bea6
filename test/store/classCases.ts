/**
 * The class-quiz part of the QuotaStore contract (`ClassStore`), run with the other contract cases
 * on every store kind and runtime: the limits (class quizzes per key, students per class quiz) and
 * the first submission under a name hold under concurrent calls; a class quiz closes, then goes with
 * its submissions.
 */
import assert from "node:assert/strict";
import type { ClassRecord, ClassSubmission } from "../../runtime/core/classes/classStore.ts";
import type { ContractCase } from "./contractCases.ts";

const MADE = "2025-03-01T03:00:00.000Z";
const CLOSES = "2025-03-02T03:00:00.000Z";
const KEEP = "2025-04-01T03:00:00.000Z";
let made = 0;

/** A class quiz of key `keyId`, made at `createdAt`. */
export function classRecord(keyId = "key_teacher00001", overrides: Partial<ClassRecord> = {}): ClassRecord {
  const code = `cq_${String(++made).padStart(4, "0")}${Math.random().toString(36).slice(2, 12).padEnd(10, "0")}abcdefgh`.slice(0, 25);
  return {
    code,
    key_id: keyId,
    title: "3-1 한자",
    created_at: MADE,
    closes_at: CLOSES,
    keep_until: KEEP,
    students_max: 30,
    data: "0123456789ab",
    settings: { type: ["hunum_to_hanja"], count: 2, choices: 4, level: "education", difficulty: "normal", lang: "ko", answer_format: "choices", mature: 0 },
    questions: [
      { quiz: '{"number":1,"type":"hunum_to_hanja"}', claims: { type: "hunum_to_hanja", typed: false, key: 2, subject: 10, blank: 0 } },
      { quiz: '{"number":2,"type":"hunum_to_hanja"}', claims: { type: "hunum_to_hanja", typed: false, key: 4, subject: 11, blank: 0 } },
    ],
    ...overrides,
  };
}

/** A submission by `name` (its name key the same). */
export function submission(name: string, at = "2025-03-01T04:00:00.000Z"): ClassSubmission {
  return { name, name_key: name, answers: ["2", "1"], correct: [true, false], submitted_at: at };
}

const DURING = "2025-03-01T05:00:00.000Z";

export const classCases: ContractCase[] = [
  {
    name: "a class quiz is stored as made, found by its code, listed for its key newest first with its students; unknown codes and other keys find nothing",
    async run(store) {
      const first = classRecord();
      const second = classRecord(undefined, { created_at: "2025-03-01T03:30:00.000Z", title: "second" });
      assert.equal(await store.insertClass(first, 10), true);
      assert.equal(await store.insertClass(second, 10), true);
      assert.deepEqual(await store.classByCode(first.code), first);
      assert.equal(await store.classByCode("cq_nosuchclass0000000000"), null);
      assert.equal(await store.submitToClass(first.code, submission("민준"), DURING), "stored");
      const listed = await store.classesOfKey(first.key_id, DURING);
      assert.deepEqual(
        listed.map((c) => [c.code, c.title, c.students, c.count, c.students_max]),
        [
          [second.code, "second", 0, 2, 30],
          [first.code, "3-1 한자", 1, 2, 30],
        ],
      );
      assert.deepEqual(await store.classesOfKey("key_someoneelse1", DURING), []);
      // Past keep_until a class quiz is no longer listed.
      assert.deepEqual(await store.classesOfKey(first.key_id, KEEP), []);
    },
  },
  {
    name: "40 concurrent class quizzes of one key against a limit of 25: exactly 25 are stored; one no longer kept leaves room",
    async run(store) {
      const records = Array.from({ length: 40 }, () => classRecord("key_limited00001"));
      const stored = await Promise.all(records.map((r) => store.insertClass(r, 25)));
      assert.equal(stored.filter(Boolean).length, 25);
      assert.equal((await store.classesOfKey("key_limited00001", DURING)).length, 25);
      // Made after the others' keep_until: they no longer count.
      const later = classRecord("key_limited00001", { created_at: KEEP, closes_at: "2025-04-02T03:00:00.000Z", keep_until: "2025-05-01T03:00:00.000Z" });
      assert.equal(await store.insertClass(later, 25), true);
    },
  },
  {
    name: "the first submission under a name stands; 60 students racing for 30 places: exactly 30 stored, the others full; submissions in the order stored",
    async run(store) {
      const record = classRecord();
      await store.insertClass(record, 10);
      assert.equal(await store.submitToClass(record.code, submission("지우"), DURING), "stored");
      const again = { ...submission("지우"), answers: ["3", "3"] };
      assert.equal(await store.submitToClass(record.code, again, DURING), "taken");
      const lookup = await store.studentOf(record.code, "지우");
      assert.deepEqual(lookup, { submission: submission("지우"), students: 1 });
      assert.deepEqual(await store.studentOf(record.code, "nobody"), { submission: null, students: 1 });
      const outcomes = await Promise.all(Array.from({ length: 60 }, (_, i) => store.submitToClass(record.code, submission(`student ${i}`), DURING)));
      assert.equal(outcomes.filter((o) => o === "stored").length, 29);
      assert.equal(outcomes.filter((o) => o === "full").length, 31);
      const all = await store.classSubmissions(record.code);
      assert.equal(all.length, 30);
      assert.deepEqual(all[0], submission("지우"));
      assert.equal(new Set(all.map((s) => s.name_key)).size, 30);
    },
  },
  {
    name: "a closed class quiz takes no submission, an unknown one is missing; both keep what they had",
    async run(store) {
      const record = classRecord();
      await store.insertClass(record, 10);
      await store.submitToClass(record.code, submission("서연"), DURING);
      assert.equal(await store.submitToClass(record.code, submission("하준"), CLOSES), "closed");
      assert.equal(await store.submitToClass("cq_nosuchclass0000000000", submission("하준"), DURING), "missing");
      assert.deepEqual(
        (await store.classSubmissions(record.code)).map((s) => s.name),
        ["서연"],
      );
      assert.deepEqual(await store.classSubmissions("cq_nosuchclass0000000000"), []);
    },
  },
  {
    name: "past keep_until a class quiz is missing to submissions; the sweep erases it with its submissions, in steps, and leaves the others",
    async run(store) {
      const old = [classRecord(), classRecord(), classRecord()];
      const kept = classRecord(undefined, { keep_until: "2025-06-01T03:00:00.000Z" });
      for (const record of [...old, kept]) await store.insertClass(record, 10);
      for (const record of [...old, kept]) await store.submitToClass(record.code, submission("도윤"), DURING);
      assert.equal(await store.submitToClass(kept.code, submission("late"), KEEP), "closed");
      assert.equal(await store.submitToClass((old[0] as ClassRecord).code, submission("late"), KEEP), "missing");
      const first = await store.pruneClasses(KEEP, 2);
      const rest = await store.pruneClasses(KEEP, 2);
      // Redis lets them expire by themselves (it answers 0): either way none is found once kept no longer.
      assert.ok((first === 2 && rest === 1) || (first === 0 && rest === 0), `pruned ${first}, then ${rest}`);
      if (first === 2) {
        for (const record of old) {
          assert.equal(await store.classByCode(record.code), null);
          assert.deepEqual(await store.classSubmissions(record.code), []);
        }
      }
      assert.deepEqual(await store.classByCode(kept.code), kept);
      assert.equal((await store.classSubmissions(kept.code)).length, 1);
    },
  },
];
