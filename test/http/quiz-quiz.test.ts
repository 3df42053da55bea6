/** GET /quiz (docs/rules.md "Interface B"): the three types, choices, count, exclude, and every bad parameter. */
import { describe, expect, it } from "vitest";
import type { IdiomRecord } from "../../runtime/format/records.ts";
import { seededRandom } from "../../runtime/core/util/random.ts";
import { DIST_FILES } from "../../runtime/format/dist.ts";
import { call, distWithFirstIdioms, getJson, testApp } from "../helpers/app.ts";
import { Q, expectProblem, ipFor, me } from "./quiz-helpers.ts";
import { englishOf } from "./hanja-expect.ts";

const TYPES = ["meaning_to_idiom", "idiom_to_meaning", "hangul_to_hanja"] as const;
type QuizType = (typeof TYPES)[number];

const app = testApp({ random: seededRandom(11) });
const idioms = app.data.idioms.idioms;
const byIdx = new Map(idioms.map((i) => [i.idx, i]));
const LITERALS = new Set(idioms.flatMap((i) => (i.literal === null ? [] : [i.literal])));
// Each call from its own address, so the demo quota of 30 never gets in the way.
let calls = 0;
const quiz = (query = "") => getJson(app, `${Q}/quiz${query}`, { clientAddress: ipFor(++calls) });

/** What docs/rules.md "Interface B" says each type shows as the prompt and as a choice's text. */
const VIEW: Record<QuizType, { prompt: (i: IdiomRecord) => string; text: (i: IdiomRecord) => string }> = {
  meaning_to_idiom: { prompt: (i) => i.meaning, text: (i) => i.hanja },
  idiom_to_meaning: { prompt: (i) => i.hanja, text: (i) => i.meaning },
  hangul_to_hanja: { prompt: (i) => i.hangul, text: (i) => i.hanja },
};

/** Checks one quiz object against the loaded data; returns its answer idiom. */
function checkQuiz(q: any, type: QuizType | undefined, choices: number): IdiomRecord {
  expect(Object.keys(q).sort()).toEqual(["answer", "answer_idiom", "choices", "prompt", "question", "quiz_id", "type"]);
  if (type) expect(q.type).toBe(type);
  expect(TYPES).toContain(q.type);
  const view = VIEW[q.type as QuizType];
  expect(typeof q.quiz_id).toBe("string");
  expect(q.quiz_id.length).toBeGreaterThan(0);
  expect(typeof q.question).toBe("string");
  expect(q.question).toMatch(/[가-힣]/);

  const answerIdiom = byIdx.get(q.answer_idiom.idx) as IdiomRecord;
  expect(answerIdiom, `answer_idiom.idx ${q.answer_idiom.idx} is loaded`).toBeDefined();
  expect(Number.isInteger(q.answer_idiom.idx)).toBe(true);
  expect(q.answer_idiom).toEqual({
    idx: answerIdiom.idx,
    hanja: answerIdiom.hanja,
    hangul: answerIdiom.hangul,
    chosung: answerIdiom.chosung,
    literal: answerIdiom.literal,
    meaning: answerIdiom.meaning,
    meaning_en: englishOf(answerIdiom.idx),
  });
  expect(q.prompt).toBe(view.prompt(answerIdiom));
  // The literal reading would read the answer out: it is never a prompt or a choice.
  expect(LITERALS.has(q.prompt)).toBe(false);
  for (const choice of q.choices) expect(LITERALS.has(choice.text), choice.text).toBe(false);

  expect(q.choices).toHaveLength(choices);
  expect(q.choices.map((c: any) => c.key)).toEqual(Array.from({ length: choices }, (_, i) => String(i + 1)));
  const correct = q.choices.filter((c: any) => c.text === view.text(answerIdiom));
  expect(correct).toHaveLength(1);
  expect(q.answer).toBe(correct[0].key);
  expect(new Set(q.choices.map((c: any) => c.text)).size).toBe(choices);
  for (const choice of q.choices) {
    expect(Object.keys(choice).sort()).toEqual(["hangul", "key", "text"]);
    // The idiom the choice stands for: its text is that idiom's hanja or meaning.
    const owners = idioms.filter((i) => view.text(i) === choice.text);
    expect(owners.length, `choice ${JSON.stringify(choice.text)} belongs to a loaded idiom`).toBeGreaterThan(0);
    expect(owners.map((i) => i.hangul)).toContain(choice.hangul);
    if (choice.key === q.answer) expect(choice.hangul).toBe(answerIdiom.hangul);
  }
  return answerIdiom;
}

describe("GET /quiz", () => {
  for (const type of TYPES) {
    it(`${type}: prompt, choice texts and readings, one correct answer`, async () => {
      for (let n = 0; n < 10; n++) {
        const { status, body, headers } = await quiz(`?type=${type}`);
        expect(status).toBe(200);
        expect(headers.get("content-type")).toBe("application/json; charset=utf-8");
        expect(headers.get("cache-control")).toBe("no-store");
        expect(body.success).toBe(true);
        expect(body.quota).toEqual({ plan: "demo", remaining: 29 });
        expect(body.quizzes).toBeUndefined();
        checkQuiz(body.quiz, type, 4);
      }
    });
  }

  it("the body is canonical JSON: it reads back to the same text, key order included", async () => {
    for (const query of ["", "?count=20", "?type=idiom_to_meaning&choices=6", "?type=hangul_to_hanja&count=5&choices=2"]) {
      const response = await call(app, `${Q}/quiz${query}`, { clientAddress: ipFor(++calls) });
      const text = await response.text();
      expect(JSON.stringify(JSON.parse(text))).toBe(text);
      const body = JSON.parse(text);
      for (const q of body.quizzes ?? [body.quiz]) {
        expect(Object.keys(q)).toEqual(["quiz_id", "type", "question", "prompt", "choices", "answer", "answer_idiom"]);
        expect(Object.keys(q.answer_idiom)).toEqual(["idx", "hanja", "hangul", "chosung", "literal", "meaning", "meaning_en"]);
        checkQuiz(q, undefined, q.choices.length);
      }
    }
  });

  it("each type has its own Korean question", async () => {
    const questions = new Map<string, string>();
    for (const type of TYPES) questions.set(type, (await quiz(`?type=${type}`)).body.quiz.question);
    expect(new Set(questions.values()).size).toBe(3);
    for (const type of TYPES) expect((await quiz(`?type=${type}`)).body.quiz.question).toBe(questions.get(type));
  });

  it("choices=2 and choices=6 give that many choices; the default is 4", async () => {
    for (const type of TYPES) {
      checkQuiz((await quiz(`?type=${type}&choices=2`)).body.quiz, type, 2);
      checkQuiz((await quiz(`?type=${type}&choices=6`)).body.quiz, type, 6);
      checkQuiz((await quiz(`?type=${type}`)).body.quiz, type, 4);
    }
    checkQuiz((await quiz("?choices=4")).body.quiz, undefined, 4);
  });

  it("count=20 gives `quizzes`: 20 quizzes with distinct answers", async () => {
    for (const type of [...TYPES, undefined]) {
      const { status, body } = await quiz(`?count=20&choices=3${type ? `&type=${type}` : ""}`);
      expect(status).toBe(200);
      expect(body.quiz).toBeUndefined();
      expect(body.quizzes).toHaveLength(20);
      expect(body.quota).toEqual({ plan: "demo", remaining: 29 });
      const answers = body.quizzes.map((q: any) => checkQuiz(q, type, 3).idx);
      expect(new Set(answers).size).toBe(20);
    }
  });

  it("count=1 gives `quiz`, count=2 gives `quizzes`", async () => {
    const one = await quiz("?count=1");
    expect(one.body.quiz).toBeDefined();
    expect(one.body.quizzes).toBeUndefined();
    const two = await quiz("?count=2");
    expect(two.body.quiz).toBeUndefined();
    expect(two.body.quizzes).toHaveLength(2);
  });

  it("picks a random type when none is given: all three appear", async () => {
    const seen = new Map<string, number>();
    for (let n = 0; n < 15; n++) {
      const { body } = await quiz("?count=20&choices=2");
      for (const q of body.quizzes) {
        checkQuiz(q, undefined, 2);
        seen.set(q.type, (seen.get(q.type) ?? 0) + 1);
      }
    }
    expect([...seen.keys()].sort()).toEqual([...TYPES].sort());
    // 300 quizzes: each type far from absent (expected 100 each).
    for (const type of TYPES) expect(seen.get(type)).toBeGreaterThan(50);
  });

  it("type given several times (type=a&type=b, as openapi-fetch sends an array) draws among them as type=a,b does", async () => {
    for (const query of ["?count=20&type=meaning_to_idiom&type=hangul_to_hanja", "?count=20&type=meaning_to_idiom,hangul_to_hanja"]) {
      const seen = new Set<string>();
      for (let n = 0; n < 3; n++) {
        const { status, body } = await quiz(query);
        expect(status, JSON.stringify(body)).toBe(200);
        for (const q of body.quizzes) seen.add(checkQuiz(q, undefined, 4) && q.type);
      }
      expect([...seen].sort(), query).toEqual(["hangul_to_hanja", "meaning_to_idiom"]);
    }
  });

  it("quiz_id is unique over many quizzes", async () => {
    const ids = new Set<string>();
    for (let n = 0; n < 50; n++) for (const q of (await quiz("?count=20&choices=2")).body.quizzes) ids.add(q.quiz_id);
    expect(ids.size).toBe(1000);
  });

  it("quiz_id is unique with the platform CSPRNG too", async () => {
    const csprng = testApp();
    const ids = new Set<string>();
    for (let n = 0; n < 25; n++) {
      const { body } = await getJson(csprng, `${Q}/quiz?count=20&choices=2`, { clientAddress: ipFor(n) });
      for (const q of body.quizzes) ids.add(q.quiz_id);
    }
    expect(ids.size).toBe(500);
  });
});

describe("GET /quiz?exclude=", () => {
  it("keeps excluded idioms out of the answers", async () => {
    // Exclude every other idiom (at most 200 of them).
    const excluded = idioms
      .filter((_, i) => i % 2 === 0)
      .slice(0, 200)
      .map((i) => i.idx);
    const ex = new Set(excluded);
    for (let n = 0; n < 30; n++) {
      const { status, body } = await quiz(`?count=10&exclude=${excluded.join(",")}`);
      expect(status).toBe(200);
      for (const q of body.quizzes) expect(ex.has(checkQuiz(q, undefined, 4).idx)).toBe(false);
    }
  });

  it("accepts 200 values; leaving exactly `count` idioms asks about exactly those", async () => {
    // All idx but the last five (up to 200 of them), padded with idx values no idiom has.
    const keep = idioms.slice(-5).map((i) => i.idx);
    const excluded = idioms
      .slice(0, -5)
      .map((i) => i.idx)
      .slice(0, 200);
    const maxIdx = Math.max(...idioms.map((i) => i.idx));
    for (let extra = 1; excluded.length < 200; extra++) excluded.push(maxIdx + extra);
    expect(excluded).toHaveLength(200);
    const { status, body } = await quiz(`?count=5&exclude=${excluded.join(",")}`);
    expect(status).toBe(200);
    const answers: number[] = body.quizzes.map((q: any) => checkQuiz(q, undefined, 4).idx);
    expect(answers.some((a) => excluded.includes(a))).toBe(false);
    if (idioms.length <= 205) expect(answers.sort((a, b) => a - b)).toEqual(keep.sort((a, b) => a - b));
  });

  it("an empty exclude= excludes nothing (a client joining an empty list); a repeated value counts once", async () => {
    const { status, body } = await quiz("?count=20&exclude=");
    expect(status).toBe(200);
    expect(body.quizzes).toHaveLength(20);
    const first = idioms[0]!.idx;
    for (let n = 0; n < 10; n++) {
      const repeated = await quiz(`?count=20&exclude=${first},${first},${first}`);
      expect(repeated.status).toBe(200);
      for (const q of repeated.body.quizzes) expect(checkQuiz(q, undefined, 4).idx).not.toBe(first);
    }
  });

  it("given several times (exclude=1&exclude=2, as openapi-fetch sends an array) is read as the comma list, mixed forms too", async () => {
    const files = distWithFirstIdioms(10);
    const ten = (JSON.parse(files[DIST_FILES.idioms] as string) as IdiomRecord[]).map((i) => i.idx);
    const small = testApp({ dist: files });
    const left = async (query: string) => {
      const { status, body } = await getJson(small, `${Q}/quiz?count=2${query}`, { clientAddress: ipFor(++calls) });
      expect(status, JSON.stringify(body)).toBe(200);
      return body.quizzes.map((q: any) => q.answer_idiom.idx).sort((a: number, b: number) => a - b);
    };
    const eight = ten.slice(0, 8);
    expect(await left(eight.map((idx) => `&exclude=${idx}`).join(""))).toEqual(ten.slice(8));
    expect(await left(`&exclude=${eight.slice(0, 4).join(",")}&exclude=${eight.slice(4).join(",")}`)).toEqual(ten.slice(8));
    // Past 200 values in all, as in one list: 400.
    const many = Array.from({ length: 201 }, (_, i) => `&exclude=${i + 1}`).join("");
    expectProblem(await getJson(small, `${Q}/quiz?count=1${many}`), 400, "invalid_parameter", "exclude");
  });

  it("201 values → 400 naming exclude", async () => {
    const excluded = Array.from({ length: 201 }, (_, i) => i + 1);
    expectProblem(await quiz(`?exclude=${excluded.join(",")}`), 400, "invalid_parameter", "exclude");
  });

  it("a value that is not a positive integer → 400 naming exclude", async () => {
    for (const bad of ["abc", "1,x", "0", "-1", "1.5", "1,,2"]) expectProblem(await quiz(`?exclude=${bad}`), 400, "invalid_parameter", "exclude");
  });

  it("exclude leaving fewer idioms than count → 400 naming exclude, not metered", async () => {
    // Ten idioms, so that 200 exclusions can leave fewer than `count` whatever the real data's size.
    const files = distWithFirstIdioms(10);
    const ten = JSON.parse(files[DIST_FILES.idioms] as string) as IdiomRecord[];
    const small = testApp({ dist: files });
    const excluded = ten.slice(0, -1).map((i) => i.idx);
    const path = `${Q}/quiz?count=2&exclude=${excluded.join(",")}`;
    expectProblem(await getJson(small, path), 400, "invalid_parameter", "exclude");
    expect((await me(small)).used_today).toBe(0);
    const one = await getJson(small, `${Q}/quiz?count=1&exclude=${excluded.join(",")}`);
    expect(one.status).toBe(200);
    expect(one.body.quiz.answer_idiom.idx).toBe(ten[9]!.idx);
    expectProblem(await getJson(small, `${Q}/quiz?exclude=${ten.map((i) => i.idx).join(",")}`), 400, "invalid_parameter", "exclude");
    expect((await me(small)).used_today).toBe(1);
  });
});

describe("GET /quiz with bad parameters", () => {
  const cases: [string, string][] = [
    ["?type=bogus", "type"],
    ["?type=", "type"],
    ["?type=MEANING_TO_IDIOM", "type"],
    ["?choices=1", "choices"],
    ["?choices=7", "choices"],
    ["?choices=abc", "choices"],
    ["?choices=1.5", "choices"],
    ["?choices=", "choices"],
    ["?choices=-4", "choices"],
    ["?choices=%204", "choices"],
    ["?count=0", "count"],
    ["?count=21", "count"],
    ["?count=1e1", "count"],
    // A list given several times is read as its comma list: a value listed twice, or one outside the list, is still a 400.
    ["?type=hangul_to_hanja&type=hangul_to_hanja", "type"],
    ["?type=hangul_to_hanja,meaning_to_idiom&type=hangul_to_hanja", "type"],
    ["?type=hangul_to_hanja&type=bogus", "type"],
    ["?type=hangul_to_hanja&type=", "type"],
    ["?exclude=1&exclude=x", "exclude"],
    // A single-valued parameter given twice is a 400, whatever the values.
    ["?choices=2&choices=3", "choices"],
    ["?count=2&count=2", "count"],
    ["?difficulty=hard&difficulty=hard", "difficulty"],
  ];
  for (const [query, param] of cases) {
    it(`${query} → 400 naming ${param}, not metered`, async () => {
      const ip = ipFor(60_000 + cases.findIndex(([q]) => q === query));
      const before = await me(app, { clientAddress: ip });
      expectProblem(await getJson(app, `${Q}/quiz${query}`, { clientAddress: ip }), 400, "invalid_parameter", param);
      const after = await me(app, { clientAddress: ip });
      expect(after.used_today).toBe(before.used_today);
      expect(after.remaining).toBe(30);
    });
  }

  it("a rejected request carries no rate-limit headers and leaves the next call at 29", async () => {
    const ip = ipFor(61_000);
    const bad = await getJson(app, `${Q}/quiz?choices=9`, { clientAddress: ip });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("ratelimit")).toBeNull();
    const good = await getJson(app, `${Q}/quiz`, { clientAddress: ip });
    expect(good.headers.get("x-ratelimit-remaining")).toBe("29");
  });
});
