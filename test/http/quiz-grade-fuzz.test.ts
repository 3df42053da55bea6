/**
 * Property tests of the new parts of GET /quiz and of POST /grade: any value of `type` (lists
 * included), `level`, `answer_format` and `reveal`, and any body sent to be graded, is answered
 * 200 or a 400 naming the parameter or field at fault, never a failure; a well-formed list is
 * graded item by item. An id altered anywhere, of the first format or dated over a minute ahead is
 * always a 400 naming `quiz_id`.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { type QuizClaims, createQuizIds } from "../../runtime/core/quiz/quizId.ts";
import { QUIZ_TYPES } from "../../runtime/core/quiz/types/index.ts";
import { getJson, testApp } from "../helpers/app.ts";
import { firstFormatQuizId } from "../helpers/firstFormatQuizId.ts";
import { Q, ipFor } from "./quiz-helpers.ts";

const errors: unknown[] = [];
const SECRET = "grade-fuzz-secret-0123456789";
const app = testApp({ quizSecret: SECRET, onError: (error) => void errors.push(error) });
let ips = 0;

const piece = fc.oneof(
  fc.constantFrom(...QUIZ_TYPES, "education", "middle", "high", "name", "all", "typed", "choices", "0", "1", "2", ",", "", " ", "%", "%E6%B0", "水", "qz_"),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: "grapheme", maxLength: 4 }),
);
const value = fc.array(piece, { maxLength: 4 }).map((parts) => parts.join(""));
const NEW_PARAMS = ["type", "level", "answer_format", "reveal"];

describe("GET /quiz with the new parameters", () => {
  test("any value of type, level, answer_format or reveal: 200, or 400 naming one of them", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...NEW_PARAMS), value), { minLength: 1, maxLength: 4 }), async (pairs) => {
        const query = pairs.map(([name, v]) => `${name}=${encodeURIComponent(v)}`).join("&");
        const { status, body } = await getJson(app, `${Q}/quiz?${query}&count=2`, { clientAddress: ipFor(ips++) });
        expect([200, 400], query).toContain(status);
        if (status === 400) expect(NEW_PARAMS, query).toContain(body.param);
        else for (const quiz of body.quizzes) expect(QUIZ_TYPES).toContain(quiz.type);
      }),
      { numRuns: 300 },
    );
    expect(errors).toEqual([]);
  });
});

describe("POST /grade with any body", () => {
  const idOf = async () => (await getJson(app, `${Q}/quiz?reveal=0&type=hunum_to_hanja,meaning_to_idiom`, { clientAddress: ipFor(ips++) })).body.quiz.quiz_id;
  const answer = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom("1", "2", "3", "4"),
    fc.integer(),
    fc.constant(null),
    fc.string({ minLength: 95, maxLength: 110 }),
  );

  test("200 with a result per answer, or 400 naming body, quiz_id or answer; never a failure", async () => {
    const ids = await Promise.all(Array.from({ length: 3 }, idOf));
    const quizId = fc.oneof(
      fc.constantFrom(...ids),
      fc.string({ maxLength: 60 }),
      fc.constant(undefined),
      fc.integer(),
      fc.constantFrom(...ids).map((id) => `${id}x`),
    );
    const item = fc.record({ quiz_id: quizId, answer }, { requiredKeys: [] });
    const body = fc.oneof(
      item,
      fc.array(item, { maxLength: 22 }),
      fc.json(),
      fc.anything().map((v) => JSON.stringify(v) ?? "null"),
    );
    await fc.assert(
      fc.asyncProperty(body, async (sent) => {
        const text = typeof sent === "string" ? sent : JSON.stringify(sent);
        const { status, body: answered } = await getJson(app, `${Q}/grade`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: text,
          clientAddress: ipFor(ips++),
        });
        expect([200, 400], text.slice(0, 200)).toContain(status);
        if (status === 400) expect(["body", "quiz_id", "answer"], text.slice(0, 200)).toContain(answered.param);
        else {
          const results = answered.results ?? [answered.result];
          for (const result of results) expect(typeof result.correct).toBe("boolean");
          if (Array.isArray(sent)) expect(results).toHaveLength(sent.length);
        }
      }),
      { numRuns: 400 },
    );
    expect(errors).toEqual([]);
  });
});

describe("POST /grade with an id altered, of the first format, or dated ahead", () => {
  const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const claims = fc.record({
    type: fc.constantFrom(...QUIZ_TYPES),
    typed: fc.constant(false),
    key: fc.integer({ min: 1, max: 6 }),
    subject: fc.integer({ min: 0, max: 300 }),
    blank: fc.integer({ min: 0, max: 3 }),
  });
  const made = (claim: QuizClaims, aheadSeconds = 0) =>
    createQuizIds({ secrets: [SECRET], now: () => new Date(Date.now() + aheadSeconds * 1000), dataHash: app.data.manifest.data_hash }).sign([claim]);
  /** A good id with one character changed, every position and replacement reachable. */
  const altered = fc.tuple(claims, fc.nat(), fc.integer({ min: 1, max: BASE64URL.length - 1 })).map(async ([claim, at, by]) => {
    const [id] = (await made(claim)) as [string];
    const place = 3 + (at % (id.length - 3));
    const next = BASE64URL[(BASE64URL.indexOf(id[place] as string) + by) % BASE64URL.length] as string;
    return `${id.slice(0, place)}${next}${id.slice(place + 1)}`;
  });
  const firstFormat = claims.map((claim) => firstFormatQuizId(claim, SECRET, app.data.manifest.data_hash, new Date()));
  const ahead = fc.tuple(claims, fc.integer({ min: 62, max: 10 * 365 * 86_400 })).map(async ([claim, seconds]) => (await made(claim, seconds))[0] as string);

  test("400 naming quiz_id, never graded", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(altered, firstFormat, ahead), fc.constantFrom("1", "2", "3"), async (id, answer) => {
        const quiz_id = await id;
        const { status, body } = await getJson(app, `${Q}/grade`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ quiz_id, answer }),
          clientAddress: ipFor(ips++),
        });
        expect([status, body.param], quiz_id).toEqual([400, "quiz_id"]);
      }),
      { numRuns: 300 },
    );
    expect(errors).toEqual([]);
  });
});
