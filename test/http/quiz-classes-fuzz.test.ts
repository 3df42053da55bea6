/**
 * Property tests of the class quizzes' bodies and codes: any JSON sent to make a class quiz or to
 * submit to one, and any code, is answered with a documented status (a `400` naming the field at
 * fault), never a failure; whatever was refused stored nothing and counted nothing.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { QUIZ_TYPES } from "../../runtime/core/quiz/types/index.ts";
import { MemoryQuotaStore } from "../../runtime/core/quota/memoryStore.ts";
import { getJson, testApp } from "../helpers/app.ts";
import { Q, me, newKey } from "./quiz-helpers.ts";

const errors: unknown[] = [];
const store = new MemoryQuotaStore();
const app = testApp({ store, onError: (error) => void errors.push(error) });
const JSON_TYPE = { "Content-Type": "application/json" };
const CLASS_FIELDS = ["type", "count", "choices", "level", "difficulty", "lang", "answer_format", "mature", "title", "open_hours", "students_max"];

const text = fc.oneof(
  fc.constantFrom(...QUIZ_TYPES, "typed", "choices", "hard", "en", "education", "all", "", " ", "0", "1", "20", "21", "-1", "1.5", "水", "\u202e", "\u0000"),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: "grapheme", maxLength: 4 }),
);
const anyValue = fc.oneof(
  text,
  fc.integer({ min: -10, max: 2000 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(text, { maxLength: 4 }),
  fc.object({ maxDepth: 1 }),
);

describe("class quizzes, any body", () => {
  test("POST /classes: 201, or a 400 naming a field of the body (or the body), 429 class_limit; never a failure", async () => {
    const teacher = await newKey(app, "fuzz-teacher");
    let made = 0;
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.oneof(fc.constantFrom(...CLASS_FIELDS), fc.string({ maxLength: 6 })), anyValue, { maxKeys: 5 }), async (body) => {
        const { status, body: answer } = await getJson(app, `${Q}/classes`, {
          method: "POST",
          headers: { ...JSON_TYPE, "X-API-Key": teacher.key },
          body: JSON.stringify(body),
        });
        expect([201, 400, 429], JSON.stringify(body)).toContain(status);
        if (status === 400) expect([...Object.keys(body), "body"], JSON.stringify(answer)).toContain(answer.param);
        if (status === 201) made++;
      }),
      { numRuns: 150 },
    );
    // Only the class quizzes made were counted (the 400s were not).
    expect((await me(app, { key: teacher.key })).used_today).toBe(made);
    expect(errors).toEqual([]);
  });

  test("POST /classes/{code}/submissions and GET /classes/{code}: any body and any code get a documented answer; only what is stored is counted", async () => {
    const teacher = await newKey(app, "fuzz-submissions");
    const made = await getJson(app, `${Q}/classes`, {
      method: "POST",
      headers: { ...JSON_TYPE, "X-API-Key": teacher.key },
      body: JSON.stringify({ count: 2, students_max: 200 }),
    });
    const { code } = made.body.class;
    let stored = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({ name: anyValue, answers: fc.oneof(anyValue, fc.array(anyValue, { maxLength: 3 })) }, { requiredKeys: [] }),
          fc.dictionary(fc.string({ maxLength: 6 }), anyValue, { maxKeys: 3 }),
        ),
        async (body) => {
          const { status, body: answer } = await getJson(app, `${Q}/classes/${code}/submissions`, {
            method: "POST",
            headers: JSON_TYPE,
            body: JSON.stringify(body),
          });
          expect([200, 201, 400, 409], JSON.stringify(body)).toContain(status);
          if (status === 400) expect([...Object.keys(body), "name", "answers", "body"], JSON.stringify(answer)).toContain(answer.param);
          if (status === 201) stored++;
        },
      ),
      { numRuns: 150 },
    );
    expect((await store.classSubmissions(code)).length).toBe(stored);
    expect((await me(app, { key: teacher.key })).used_today).toBe(1 + stored);
    await fc.assert(
      fc.asyncProperty(text, async (segment) => {
        const { status, body } = await getJson(app, `${Q}/classes/${encodeURIComponent(segment)}`);
        // An empty segment, or a dot segment that resolves to one, is the list (a trailing slash is ignored), which needs a key.
        expect(segment === "" || segment === "." ? [401] : [200, 400, 404], segment).toContain(status);
        if (status === 400) expect(body.param).toBe("code");
      }),
      { numRuns: 100 },
    );
    expect(errors).toEqual([]);
  });
});
