/**
 * Hidden answers and grading on the server: `reveal=0`, `answer_format=typed`, and `POST /grade`
 * (stateless, encrypted quiz ids: tampered, expired, future-dated, old-format, unknown or foreign
 * ids are a 400 naming `quiz_id`; every standard typed answer in any normalisation form is right;
 * not metered).
 */
import { describe, expect, it } from "vitest";
import type { App } from "../../runtime/core/app.ts";
import { AppOptionError } from "../../runtime/core/appOptions.ts";
import { QUIZ_ID_SKEW_SECONDS, QUIZ_ID_TTL_SECONDS, type QuizClaims, createQuizIds } from "../../runtime/core/quiz/quizId.ts";
import { QUIZ_TYPES, QUIZ_TYPE_BY_NAME, TYPED_TYPES } from "../../runtime/core/quiz/types/index.ts";
import { call, getJson, testApp } from "../helpers/app.ts";
import { firstFormatQuizId } from "../helpers/firstFormatQuizId.ts";
import { Q, expectProblem, ipFor, testClock } from "./quiz-helpers.ts";

const SECRET = "grade-test-secret-0123456789";
const clock = testClock("2026-09-01T00:00:00Z");
const app = testApp({ quizSecret: SECRET, now: clock.now });
let ips = 0;

const quiz = async (target: App, query: string) => (await getJson(target, `${Q}/quiz?${query}`, { clientAddress: ipFor(ips++) })).body;
const grade = (target: App, body: unknown) =>
  getJson(target, `${Q}/grade`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), clientAddress: ipFor(ips++) });

/** An id for a question the test chooses, signed as the app signs. */
async function idFor(claims: QuizClaims, secret = SECRET, now = clock.now): Promise<string> {
  const ids = createQuizIds({ secrets: [secret], now, dataHash: app.data.manifest.data_hash });
  return (await ids.sign([claims]))[0] as string;
}
const position = (character: string) => app.data.characters.position(character) as number;

describe("reveal=0", () => {
  it.each(QUIZ_TYPES)("%s: leaves out answer, accepted, answer_idiom, answer_character and the choices' hangul", async (type) => {
    const hidden = await quiz(app, `type=${type}&seed=5&count=3&reveal=0`);
    for (const q of hidden.quizzes) {
      for (const field of ["answer", "accepted", "answer_idiom", "answer_character"]) expect(q).not.toHaveProperty(field);
      for (const choice of q.choices) expect(Object.keys(choice)).toEqual(["key", "text"]);
    }
    expect(Object.keys((await quiz(app, `type=${type}&seed=5&count=3`)).quizzes[0])).toContain("answer");
  });

  it("with a seed, draws a class the same hidden quizzes on every instance with the secret, which the seed drawn revealed does not give away", async () => {
    const asked = (body: { quizzes: { prompt: string; choices: { text: string }[] }[] }) => body.quizzes.map((q) => [q.prompt, q.choices.map((c) => c.text)]);
    const query = "type=hanja_to_hunum,meaning_to_idiom&count=10&seed=20260901";
    const hidden = asked(await quiz(app, `${query}&reveal=0`));
    expect(asked(await quiz(app, `${query}&reveal=0`))).toEqual(hidden);
    expect(asked(await quiz(testApp({ quizSecret: SECRET, now: clock.now }), `${query}&reveal=0`))).toEqual(hidden);
    // The seed alone, drawn revealed or under another secret, draws other quizzes.
    const revealed = asked(await quiz(app, query));
    expect(revealed.filter(([prompt], i) => prompt === hidden[i]?.[0]).length).toBeLessThan(3);
    const other = asked(await quiz(testApp({ quizSecret: `${SECRET}-other`, now: clock.now }), `${query}&reveal=0`));
    expect(other.filter(([prompt], i) => prompt === hidden[i]?.[0]).length).toBeLessThan(3);
  });

  it("reveal=1 is the default and another value is a 400 naming reveal", async () => {
    expect((await quiz(app, "")).quiz).toHaveProperty("answer_idiom");
    expectProblem(await getJson(app, `${Q}/quiz?reveal=2`), 400, "invalid_parameter", "reveal");
  });
});

describe("POST /grade", () => {
  it("grades each type's multiple-choice quiz drawn with reveal=0: exactly one key is correct, and every grade names it and what it stands for", async () => {
    for (const type of QUIZ_TYPES) {
      const hidden = (await quiz(app, `type=${type}&seed=9&reveal=0`)).quiz;
      const results: Record<string, unknown>[] = [];
      for (const choice of hidden.choices) {
        const { status, body } = await grade(app, { quiz_id: hidden.quiz_id, answer: choice.key });
        expect(status).toBe(200);
        expect(body.result).toMatchObject({ quiz_id: hidden.quiz_id, type, correct: choice.key === body.result.answer });
        results.push(body.result);
      }
      expect(results.filter((r) => r.correct)).toHaveLength(1);
      expect(new Set(results.map((r) => r.answer)).size).toBe(1);
      for (const result of results) expect(result.answer_idiom ?? result.answer_character).toBeTruthy();
      expect(new Set(results.map((r) => JSON.stringify([r.answer_idiom, r.answer_character]))).size).toBe(1);
    }
  });

  it("typed: every reading and its initial-sound form, in any normalisation form, with spaces around (樂: 락, 낙, 악, 요)", async () => {
    const id = await idFor({ type: "hanja_to_reading", typed: true, key: 0, subject: position("樂"), blank: 0 });
    for (const answer of ["락", "낙", "악", "요", "락".normalize("NFD"), " 낙 ", "ᄅ\u1161\u11A8"]) {
      const { body } = await grade(app, { quiz_id: id, answer });
      expect(body.result.correct, JSON.stringify(answer)).toBe(true);
    }
    for (const answer of ["수", "", "락락"]) expect((await grade(app, { quiz_id: id, answer })).body.result.correct, answer).toBe(false);
    // The answer shown is the representative reading (락), not the first of `readings` (낙).
    const { reading } = JSON.parse(app.data.characters.record(position("樂")));
    expect(reading).toBe("락");
    expect((await grade(app, { quiz_id: id, answer: "수" })).body.result).toMatchObject({ answer: reading, answer_character: { character: "樂" } });
  });

  it("typed: a 훈음 with or without its space, its 음 in the initial-sound form, in any normalisation form", async () => {
    const hunum = app.data.characters.record(position("樂"));
    const first = JSON.parse(hunum).hunum[0] as { hun: string; eum: string };
    const id = await idFor({ type: "hanja_to_hunum", typed: true, key: 0, subject: position("樂"), blank: 0 });
    const forms = [
      `${first.hun} ${first.eum}`,
      `${first.hun}${first.eum}`,
      `${first.hun} 낙`,
      `${first.hun} ${first.eum}`.normalize("NFD"),
      `${first.hun}\u3000${first.eum}`,
    ];
    for (const answer of forms) expect((await grade(app, { quiz_id: id, answer })).body.result.correct, answer).toBe(true);
    expect((await grade(app, { quiz_id: id, answer: `${first.hun} 수` })).body.result.correct).toBe(false);
  });

  it("typed hangul_to_hanja: the idiom in hanja, a CJK compatibility ideograph standing for its character too", async () => {
    const compatibility = new Map<string, string>();
    for (let cp = 0xf900; cp <= 0xfad9; cp++) compatibility.set(String.fromCodePoint(cp).normalize("NFC"), String.fromCodePoint(cp));
    const idioms = app.data.idioms.idioms;
    const at = idioms.findIndex((idiom) => [...idiom.hanja].some((c) => compatibility.has(c)));
    const idiom = idioms[at] as (typeof idioms)[number];
    const id = await idFor({ type: "hangul_to_hanja", typed: true, key: 0, subject: at, blank: 0 });
    const written = [...idiom.hanja].map((c) => compatibility.get(c) ?? c).join("");
    expect(written).not.toBe(idiom.hanja);
    for (const answer of [idiom.hanja, written, ` ${idiom.hanja}`]) expect((await grade(app, { quiz_id: id, answer })).body.result.correct).toBe(true);
    expect((await grade(app, { quiz_id: id, answer: idiom.hangul })).body.result.correct).toBe(false);
  });

  it("a list of up to 20 is graded in order; 0 or 21 is a 400 naming body; a bad item names its place", async () => {
    const drawn = (await quiz(app, "count=3&reveal=0&seed=3")).quizzes;
    const { status, body } = await grade(
      app,
      drawn.map((q: { quiz_id: string }) => ({ quiz_id: q.quiz_id, answer: "1" })),
    );
    expect(status).toBe(200);
    expect(body.results.map((r: { quiz_id: string }) => r.quiz_id)).toEqual(drawn.map((q: { quiz_id: string }) => q.quiz_id));
    const one = { quiz_id: drawn[0].quiz_id, answer: "1" };
    expectProblem(await grade(app, []), 400, "invalid_parameter", "body");
    expectProblem(await grade(app, Array(21).fill(one)), 400, "invalid_parameter", "body");
    const bad = await grade(app, [one, { quiz_id: "qz_nope", answer: "1" }]);
    expectProblem(bad, 400, "invalid_parameter", "quiz_id");
    expect(bad.body.detail).toContain("(answer 2)");
    expectProblem(await grade(app, { quiz_id: drawn[0].quiz_id, answer: 1 }), 400, "invalid_parameter", "answer");
    expectProblem(await grade(app, { quiz_id: drawn[0].quiz_id, answer: "x".repeat(101) }), 400, "invalid_parameter", "answer");
  });

  it("a tampered, unknown, missing or foreign id is a 400 naming quiz_id", async () => {
    const id = (await quiz(app, "reveal=0")).quiz.quiz_id as string;
    const flip = (text: string, at: number) => `${text.slice(0, at)}${text[at] === "A" ? "B" : "A"}${text.slice(at + 1)}`;
    const other = testApp({ quizSecret: "another-secret-0123456789", now: clock.now });
    const foreign = (await quiz(other, "reveal=0")).quiz.quiz_id;
    for (const quizId of [flip(id, 8), flip(id, id.length - 1), "qz_0123456789abcdef", "nope", 42, undefined, foreign]) {
      const result = await grade(app, { quiz_id: quizId, answer: "1" });
      expectProblem(result, 400, "invalid_parameter", "quiz_id");
    }
    // A revealed quiz's id is a plain one: its client grades it.
    const revealed = (await quiz(app, "")).quiz.quiz_id;
    expect(revealed).toMatch(/^qz_[0-9A-Za-z]{16}$/);
    expectProblem(await grade(app, { quiz_id: revealed, answer: "1" }), 400, "invalid_parameter", "quiz_id");
    // An app without a configured secret signs with one of its own: another app cannot grade its ids.
    const unconfigured = testApp({ now: clock.now });
    expectProblem(await grade(unconfigured, { quiz_id: id, answer: "1" }), 400, "invalid_parameter", "quiz_id");
  });

  it("an id of the first format (the answer in the clear, HMAC-signed under the same secret) is a 400 naming quiz_id", async () => {
    const claims: QuizClaims = { type: "hunum_to_hanja", typed: false, key: 2, subject: position("水"), blank: 0 };
    expect((await grade(app, { quiz_id: await idFor(claims), answer: "2" })).body.result.correct).toBe(true);
    const old = await firstFormatQuizId(claims, SECRET, app.data.manifest.data_hash, clock.current);
    const refused = await grade(app, { quiz_id: old, answer: "2" });
    expectProblem(refused, 400, "invalid_parameter", "quiz_id");
    expect(refused.body.detail).toContain("quiz_id is of an older format, no longer graded");
  });

  it(`an id stamped more than ${QUIZ_ID_SKEW_SECONDS} s ahead of the server's clock (another instance's clock running fast) is a 400 naming quiz_id; 59 s ahead is graded`, async () => {
    const claims: QuizClaims = { type: "hunum_to_hanja", typed: false, key: 2, subject: position("水"), blank: 0 };
    const ahead = (seconds: number) => () => new Date(clock.current.getTime() + seconds * 1000);
    expect((await grade(app, { quiz_id: await idFor(claims, SECRET, ahead(59)), answer: "2" })).body.result.correct).toBe(true);
    const refused = await grade(app, { quiz_id: await idFor(claims, SECRET, ahead(61)), answer: "2" });
    expectProblem(refused, 400, "invalid_parameter", "quiz_id");
    expect(refused.body.detail).toContain("quiz_id is dated 61 s ahead of this server's clock");
  });

  it(`expires ${QUIZ_ID_TTL_SECONDS / 3600} hours after it was drawn`, async () => {
    const id = (await quiz(app, "reveal=0")).quiz.quiz_id;
    clock.advance(QUIZ_ID_TTL_SECONDS * 1000);
    expect((await grade(app, { quiz_id: id, answer: "1" })).status).toBe(200);
    clock.advance(1000);
    const expired = await grade(app, { quiz_id: id, answer: "1" });
    expectProblem(expired, 400, "invalid_parameter", "quiz_id");
    expect(expired.body.detail).toContain("expired");
  });

  it("is stateless: another app with the secret grades it; during a rotation (new,old) the old ids still grade", async () => {
    const id = (await quiz(app, "reveal=0&type=hunum_to_hanja")).quiz.quiz_id;
    expect((await grade(testApp({ quizSecret: SECRET, now: clock.now }), { quiz_id: id, answer: "1" })).status).toBe(200);
    const rotated = testApp({ quizSecret: `rotated-secret-0123456789, ${SECRET}`, now: clock.now });
    expect((await grade(rotated, { quiz_id: id, answer: "1" })).status).toBe(200);
    const fresh = (await quiz(rotated, "reveal=0")).quiz.quiz_id;
    expectProblem(await grade(app, { quiz_id: fresh, answer: "1" }), 400, "invalid_parameter", "quiz_id");
    expect(() => testApp({ quizSecret: "short" })).toThrow(AppOptionError);
    expect(() => testApp({ quizSecret: `${SECRET},` })).toThrow(/quizSecret/);
  });

  it("is not metered: no rate-limit headers, the day's count unchanged, no key needed", async () => {
    const ip = "10.99.0.1";
    const id = (await getJson(app, `${Q}/quiz?reveal=0`, { clientAddress: ip })).body.quiz.quiz_id;
    const before = (await getJson(app, `${Q}/me`, { clientAddress: ip })).body.key.used_today;
    const response = await call(app, `${Q}/grade`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ quiz_id: id, answer: "1" }),
      clientAddress: ip,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("RateLimit")).toBeNull();
    expect(response.headers.get("Cache-Control")).toContain("no-store");
    expect((await getJson(app, `${Q}/me`, { clientAddress: ip })).body.key.used_today).toBe(before);
  });
});

describe("answer_format=typed", () => {
  it("gives no choices, the standard answer and every accepted one, for the types that offer it", async () => {
    for (const type of ["hanja_to_reading", "hanja_to_hunum", "hangul_to_hanja"]) {
      for (const q of (await quiz(app, `type=${type}&answer_format=typed&count=5&seed=2`)).quizzes) {
        expect(q).toMatchObject({ type, answer_format: "typed", choices: [] });
        expect(q.accepted).toContain(q.answer);
      }
    }
  });

  it("says to type the answer, in the quiz's language (다음 한자의 음(독음)을 입력하세요.), where a choice quiz of the type says to choose", async () => {
    expect([...TYPED_TYPES].sort()).toEqual(["hangul_to_hanja", "hanja_to_hunum", "hanja_to_reading"]);
    for (const name of TYPED_TYPES) {
      const type = QUIZ_TYPE_BY_NAME[name];
      for (const lang of ["ko", "en"] as const) {
        const said = type.typedQuestion?.[lang];
        expect(said, `${name} ${lang}`).toMatch(/입력하세요|^Type /);
        const typed = await quiz(app, `type=${name}&answer_format=typed&lang=${lang}&count=2&seed=3`);
        expect(typed.quizzes.map((q: { question: string }) => q.question)).toEqual([said, said]);
        const chosen = await quiz(app, `type=${name}&lang=${lang}&count=2&seed=3`);
        expect(chosen.quizzes[0].question).toBe(type.question[lang]);
      }
    }
  });

  it("with type omitted draws hangul_to_hanja; with a type that has no typed answer is a 400 naming answer_format", async () => {
    expect((await quiz(app, "answer_format=typed")).quiz.type).toBe("hangul_to_hanja");
    for (const type of ["meaning_to_idiom", "hunum_to_hanja", "idiom_blank", "hanja_to_reading,idiom_to_meaning"]) {
      expectProblem(await getJson(app, `${Q}/quiz?type=${type}&answer_format=typed`), 400, "invalid_parameter", "answer_format");
    }
    expectProblem(await getJson(app, `${Q}/quiz?answer_format=text`), 400, "invalid_parameter", "answer_format");
  });
});
