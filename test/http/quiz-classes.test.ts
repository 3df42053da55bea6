/**
 * Class quizzes end to end on the memory store (docs/api.md "Class quizzes"): a teacher's key makes
 * one, students open it and submit, the teacher reads the results; what is metered on whom; the
 * limits; and every refusal, with its status, code and the field it names.
 */
import { describe, expect, it } from "vitest";
import type { App } from "../../runtime/core/app.ts";
import { MemoryQuotaStore } from "../../runtime/core/quota/memoryStore.ts";
import { getJson, testApp } from "../helpers/app.ts";
import { Q, expectProblem, me, newKey, testClock } from "./quiz-helpers.ts";

const JSON_TYPE = { "Content-Type": "application/json" };

function make(app: App, key: string | null, body: unknown, clientAddress = "198.51.100.1") {
  return getJson(app, `${Q}/classes`, {
    method: "POST",
    headers: { ...JSON_TYPE, ...(key === null ? {} : { "X-API-Key": key }) },
    body: JSON.stringify(body),
    clientAddress,
  });
}

function open(app: App, code: string, clientAddress = "203.0.113.7") {
  return getJson(app, `${Q}/classes/${code}`, { clientAddress });
}

function submit(app: App, code: string, body: unknown, clientAddress = "203.0.113.7") {
  return getJson(app, `${Q}/classes/${code}/submissions`, { method: "POST", headers: JSON_TYPE, body: JSON.stringify(body), clientAddress });
}

function results(app: App, code: string, key: string) {
  return getJson(app, `${Q}/classes/${code}/results`, { headers: { "X-API-Key": key } });
}

async function setUp(options: Parameters<typeof testApp>[0] = {}) {
  const clock = testClock("2026-03-02T00:30:00Z");
  const store = new MemoryQuotaStore();
  const app = testApp({ store, now: clock.now, ...options });
  const teacher = await newKey(app, "teacher");
  return { app, clock, store, teacher };
}

describe("class quizzes", () => {
  it("a teacher makes one with the key (one call), students answer without their answers ever sent, the teacher reads each score and each question's share right", async () => {
    const { app, teacher } = await setUp();
    const made = await make(app, teacher.key, { type: "hunum_to_hanja,hanja_to_reading", count: 5, title: "3-1 쪽지 시험", open_hours: 24, students_max: 30 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { code, link } = made.body.class;
    expect(code).toMatch(/^cq_[0-9A-Za-z]{22}$/);
    expect(link).toBe(`/?class=${code}`);
    expect(made.body.class).toMatchObject({
      title: "3-1 쪽지 시험",
      count: 5,
      students_max: 30,
      students: 0,
      closes_at: "2026-03-03T00:30:00.000Z",
      results_until: "2026-04-02T00:30:00.000Z",
    });
    expect(made.body.settings).toMatchObject({ type: ["hunum_to_hanja", "hanja_to_reading"], count: 5, answer_format: "choices" });
    expect(made.body.quota).toEqual({ plan: "free", remaining: 99 });

    const shown = await open(app, code);
    expect(shown.status).toBe(200);
    const questions = shown.body.class.questions;
    expect(questions.map((q: { number: number }) => q.number)).toEqual([1, 2, 3, 4, 5]);
    // Nothing a student is sent reads the answer out: no answer fields, no id to grade apart, no option's hangul.
    const text = JSON.stringify(shown.body);
    for (const field of ["answer", "accepted", "answer_idiom", "answer_character", "quiz_id", "hangul", "claims", "key_id"])
      expect(text).not.toContain(`"${field}"`);

    // Three students: one all right (the answers learnt from a first submission), one all "1", one blank.
    const first = await submit(app, code, { name: "김민준", answers: ["1", "1", "1", "1", "1"] });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const right = first.body.result.answers.map((a: { answer: string }) => a.answer);
    expect(first.body.result.score).toBe(right.filter((a: string) => a === "1").length);
    const best = await submit(app, code, { name: "이서연", answers: right });
    expect(best.body.result).toMatchObject({ name: "이서연", score: 5, total: 5 });
    expect(best.body.result.answers[0]).toMatchObject({ number: 1, given: right[0], correct: true });
    expect(best.body.result.answers[0].answer_character.character).toMatch(/^.$/u);
    const blank = await submit(app, code, { name: "박도윤", answers: ["", "", "", "", ""] });
    expect(blank.body.result.score).toBe(0);

    const read = await results(app, code, teacher.key);
    expect(read.status).toBe(200);
    expect(read.body.class.students).toBe(3);
    expect(read.body.students.map((s: { name: string; score: number }) => [s.name, s.score])).toEqual([
      ["김민준", first.body.result.score],
      ["이서연", 5],
      ["박도윤", 0],
    ]);
    expect(read.body.students[1].answers[0]).toEqual({ given: right[0], correct: true });
    read.body.questions.forEach((q: { number: number; right: number; answered: number; share_right: number; answer: string }, i: number) => {
      const expected = 1 + (right[i] === "1" ? 1 : 0);
      expect(q).toMatchObject({ number: i + 1, right: expected, answered: 3, share_right: Math.round((100 * expected) / 3) });
      expect(q.answer.startsWith(`${right[i]} `)).toBe(true);
    });

    // Metered: the class once and each student once, all on the teacher's key; the students' address is not charged.
    expect((await me(app, { key: teacher.key })).used_today).toBe(4);
    expect((await me(app, { clientAddress: "203.0.113.7" })).used_today).toBe(0);
    // The list shows it with its students.
    const list = await getJson(app, `${Q}/classes`, { headers: { "X-API-Key": teacher.key } });
    expect(list.body.classes.map((c: { code: string; students: number }) => [c.code, c.students])).toEqual([[code, 3]]);
  });

  it("typed answers: each question says to type and has no choices; a typed answer in another normalisation form is right", async () => {
    const { app, teacher } = await setUp();
    const made = await make(app, teacher.key, { type: ["hanja_to_reading"], answer_format: "typed", count: 3, lang: "en" });
    expect(made.status).toBe(201);
    const shown = await open(app, made.body.class.code);
    expect(shown.body.class).toMatchObject({ answer_format: "typed", lang: "en" });
    for (const q of shown.body.class.questions) {
      expect(q.choices).toEqual([]);
      expect(q.answer_format).toBe("typed");
      expect(q.question).toMatch(/^Type/);
    }
    const probe = await submit(app, made.body.class.code, { name: "probe", answers: ["", "", ""] });
    const readings: string[] = probe.body.result.answers.map((a: { answer: string }) => a.answer);
    // Decomposed Hangul (as macOS types it) is graded as the syllables it spells.
    const result = await submit(app, made.body.class.code, { name: "learner", answers: readings.map((r) => ` ${r.normalize("NFD")} `) });
    expect(result.body.result.score).toBe(3);
  });

  it("the first submission under a name stands: the same answers again get that result (not counted), others 409; names compare in NFKC, case and spacing aside", async () => {
    const { app, teacher } = await setUp();
    const { code } = (await make(app, teacher.key, { type: "hunum_to_hanja", count: 2 })).body.class;
    expect((await submit(app, code, { name: "Kim  Minjun", answers: ["1", "2"] })).status).toBe(201);
    const again = await submit(app, code, { name: "ｋｉｍ minjun", answers: ["1", "2"] });
    expect(again.status).toBe(200);
    expect(again.body.repeated).toBe(true);
    expect(again.body.result.name).toBe("Kim Minjun");
    expectProblem(await submit(app, code, { name: "KIM MINJUN", answers: ["2", "2"] }), 409, "conflict", "name");
    expect((await me(app, { key: teacher.key })).used_today).toBe(2);
  });

  it("the teacher's key pays: past its daily calls a student gets 429 naming the teacher's quota, nothing stored, and the address is not charged", async () => {
    const { app, teacher, clock } = await setUp();
    const { code } = (await make(app, teacher.key, { type: "hunum_to_hanja", count: 1, students_max: 200 })).body.class;
    // A free key has 100 calls a day: the class took one, 99 students take the rest.
    for (let i = 0; i < 99; i++) expect((await submit(app, code, { name: `s${i}`, answers: ["1"] })).status).toBe(201);
    const refused = await submit(app, code, { name: "late", answers: ["1"] });
    expectProblem(refused, 429, "quota_exceeded");
    expect(refused.body.detail).toMatch(/teacher's key has no calls left today/);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.headers.get("x-ratelimit-limit")).toBeNull();
    expect((await results(app, code, teacher.key)).body.students.length).toBe(99);
    // The next metering day, the same student is taken.
    clock.advance(24 * 3_600_000);
    expect((await submit(app, code, { name: "late", answers: ["1"] })).status).toBe(201);
  });

  it("students_max: past it 429 class_full, uncounted; 1,000 students at once on one code: exactly the limit stored and counted, the others 429", async () => {
    const { app, teacher, store } = await setUp({ classStudentsMax: 50 });
    const { code } = (await make(app, teacher.key, { type: "hunum_to_hanja", count: 1, students_max: 50 })).body.class;
    const outcomes = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => submit(app, code, { name: `student ${i}`, answers: ["1"] }, `203.0.113.${i % 250}`)),
    );
    expect(outcomes.filter((o) => o.status === 201).length).toBe(50);
    // Past the submissions waiting their turn (256), at once too_many_requests with Retry-After; the others, once the 50 are in, class_full.
    expect(outcomes.filter((o) => o.status === 429).length).toBe(950);
    const full = outcomes.filter((o) => o.body.code === "class_full");
    const busy = outcomes.filter((o) => o.body.code === "too_many_requests");
    expect(full.length).toBe(256 - 50);
    expect(busy.length).toBe(1000 - 256);
    expectProblem(full[0] as (typeof outcomes)[number], 429, "class_full", "code");
    expect((busy[0] as (typeof outcomes)[number]).headers.get("retry-after")).toBe("1");
    expect((await submit(app, code, { name: "one more", answers: ["1"] })).body.code).toBe("class_full");
    expect((await store.classSubmissions(code)).length).toBe(50);
    expect((await me(app, { key: teacher.key })).used_today).toBe(51);
    // A teacher may not ask for more students than the server allows.
    expectProblem(await make(app, teacher.key, { students_max: 51 }), 400, "invalid_parameter", "students_max");
  });

  it("a key keeps at most CLASS_QUIZZES_PER_KEY class quizzes: past it 429 class_limit, not counted; room comes back once results are erased", async () => {
    const { app, teacher, clock } = await setUp({ classQuizzesPerKey: 2, classResultsDays: 1 });
    for (let i = 0; i < 2; i++) expect((await make(app, teacher.key, { count: 1, open_hours: 1 })).status).toBe(201);
    const refused = await make(app, teacher.key, { count: 1 });
    expectProblem(refused, 429, "class_limit", "X-API-Key");
    expect((await me(app, { key: teacher.key })).used_today).toBe(2);
    clock.advance(25 * 3_600_000 + 1000);
    expect((await make(app, teacher.key, { count: 1 })).status).toBe(201);
  });

  it("a class quiz closes after open_hours (410 to students, results still read), and is erased with its names and answers by the sweep CLASS_RESULTS_DAYS later (404)", async () => {
    const { app, teacher, clock, store } = await setUp({ classResultsDays: 2 });
    const { code } = (await make(app, teacher.key, { count: 1, open_hours: 1 })).body.class;
    expect((await submit(app, code, { name: "지우", answers: ["1"] })).status).toBe(201);
    clock.advance(3_600_000);
    expectProblem(await open(app, code), 410, "class_closed", "code");
    expectProblem(await submit(app, code, { name: "하준", answers: ["1"] }), 410, "class_closed", "code");
    expect((await results(app, code, teacher.key)).body.students.map((s: { name: string }) => s.name)).toEqual(["지우"]);
    clock.advance(2 * 86_400_000);
    expect(await app.erasePersonalData()).toMatchObject({ prunedClasses: 1 });
    expect(await store.classByCode(code)).toBeNull();
    expect(await store.classSubmissions(code)).toEqual([]);
    expectProblem(await results(app, code, teacher.key), 404, "not_found", "code");
    expectProblem(await open(app, code), 404, "not_found", "code");
  });

  it("refusals: no key, a forged, foreign or malformed code, another key's results, bad bodies, each with its status and the field it names", async () => {
    const { app, teacher } = await setUp();
    const other = await newKey(app, "other");
    const { code } = (await make(app, teacher.key, { count: 2 })).body.class;
    expectProblem(await make(app, null, { count: 2 }), 401, "invalid_key", "X-API-Key");
    expectProblem(await make(app, "hj_00000000000000000000000000000000", { count: 2 }), 401, "invalid_key", "X-API-Key");
    expectProblem(await getJson(app, `${Q}/classes`), 401, "invalid_key", "X-API-Key");
    // Forged (the right shape, never made) and malformed codes.
    expectProblem(await open(app, `cq_${"A".repeat(22)}`), 404, "not_found", "code");
    expectProblem(await open(app, "cq_short"), 400, "invalid_parameter", "code");
    expectProblem(await submit(app, `cq_${"B".repeat(22)}`, { name: "a", answers: ["1", "2"] }), 404, "not_found", "code");
    expectProblem(await results(app, code, other.key), 403, "forbidden", "X-API-Key");
    // A code of another server (another store) is unknown here.
    const elsewhere = await setUp();
    const foreign = (await make(elsewhere.app, elsewhere.teacher.key, { count: 1 })).body.class.code;
    expectProblem(await open(app, foreign), 404, "not_found", "code");
    // Bodies.
    expectProblem(await make(app, teacher.key, { count: 21 }), 400, "invalid_parameter", "count");
    expectProblem(await make(app, teacher.key, { count: "ten" }), 400, "invalid_parameter", "count");
    expectProblem(await make(app, teacher.key, { count: 1.5 }), 400, "invalid_parameter", "count");
    expectProblem(await make(app, teacher.key, { type: "nope" }), 400, "invalid_parameter", "type");
    expectProblem(await make(app, teacher.key, { type: [1] }), 400, "invalid_parameter", "type");
    expectProblem(await make(app, teacher.key, { typ: "hunum_to_hanja" }), 400, "invalid_parameter", "typ");
    expectProblem(await make(app, teacher.key, { open_hours: 0 }), 400, "invalid_parameter", "open_hours");
    expectProblem(await make(app, teacher.key, { title: "x".repeat(61) }), 400, "invalid_parameter", "title");
    expectProblem(await make(app, teacher.key, { title: "a\u202eb" }), 400, "invalid_parameter", "title");
    expectProblem(await make(app, teacher.key, { answer_format: "typed", type: "idiom_to_meaning" }), 400, "invalid_parameter", "answer_format");
    expectProblem(await make(app, teacher.key, [1, 2]), 400, "invalid_parameter", "body");
    expectProblem(await submit(app, code, { name: "", answers: ["1", "2"] }), 400, "invalid_parameter", "name");
    expectProblem(await submit(app, code, { name: "x".repeat(31), answers: ["1", "2"] }), 400, "invalid_parameter", "name");
    expectProblem(await submit(app, code, { name: "!!!", answers: ["1", "2"] }), 400, "invalid_parameter", "name");
    expectProblem(await submit(app, code, { name: "a", answers: ["1"] }), 400, "invalid_parameter", "answers");
    expectProblem(await submit(app, code, { name: "a", answers: ["1", 2] }), 400, "invalid_parameter", "answers");
    expectProblem(await submit(app, code, { name: "a", answers: ["1", "x".repeat(101)] }), 400, "invalid_parameter", "answers");
    expectProblem(await submit(app, code, { name: "a", answers: ["1", "2"], email: "a@b.c" }), 400, "invalid_parameter", "email");
    // None of these was counted on the teacher's key (it made one class quiz).
    expect((await me(app, { key: teacher.key })).used_today).toBe(1);
  });

  it("a class quiz of a key revoked since takes no submission (403), and its teacher still reads the results", async () => {
    const { app, teacher, store } = await setUp();
    const { code } = (await make(app, teacher.key, { count: 1 })).body.class;
    await store.updateKey(teacher.id, { status: "revoked", revoked_at: "2026-03-02T01:00:00.000Z" });
    expectProblem(await submit(app, code, { name: "a", answers: ["1"] }), 403, "forbidden", "code");
    expect((await results(app, code, teacher.key)).status).toBe(200);
  });
});
