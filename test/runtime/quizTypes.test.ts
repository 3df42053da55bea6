/**
 * The quiz types are declared once (runtime/core/quiz/types/): what each asks and offers, where its
 * hard options come from, its reference sentences and page labels. The quiz maker, the `type`
 * parameter, the OpenAPI document, `/docs` and the page read that one list.
 */
import { describe, expect, it } from "vitest";
import { quizTypeDocs } from "../../runtime/core/docs/quizTypeDocs.ts";
import { createQuizMaker, quizText } from "../../runtime/core/quiz/makeQuiz.ts";
import { PUBLISHED_TYPES, QUIZ_TYPES, QUIZ_TYPE_BY_NAME, QUIZ_TYPE_LIST, isIdiomType } from "../../runtime/core/quiz/types/index.ts";
import { QUIZ_LANGS, quizType } from "../../runtime/core/quiz/types/quizType.ts";
import { seededRandom } from "../../runtime/core/util/random.ts";
import type { IdiomRecord } from "../../runtime/format/records.ts";
import { PAGE_JS } from "../../web/assets.generated.ts";
import { getJson, testApp } from "../helpers/app.ts";

const app = testApp();

describe("the quiz type registry", () => {
  it("lists each type once, by its name", () => {
    expect(QUIZ_TYPES).toEqual([
      "meaning_to_idiom",
      "idiom_to_meaning",
      "hangul_to_hanja",
      "hunum_to_hanja",
      "hanja_to_hunum",
      "hanja_to_reading",
      "idiom_blank",
    ]);
    expect(PUBLISHED_TYPES).toEqual(["meaning_to_idiom", "idiom_to_meaning", "hangul_to_hanja"]);
    expect(new Set(QUIZ_TYPES).size).toBe(QUIZ_TYPE_LIST.length);
    for (const type of QUIZ_TYPE_LIST) expect(QUIZ_TYPE_BY_NAME[type.name]).toBe(type);
  });

  it.each(QUIZ_LANGS)("is what each quiz is made of, lang=%s: question, prompt and option texts from the type's declaration", (lang) => {
    const { idioms, itemsB } = app.data.idioms;
    const maker = createQuizMaker(idioms, itemsB);
    const byIdx = new Map(idioms.map((idiom) => [idiom.idx, idiom]));
    for (const type of QUIZ_TYPE_LIST) {
      if (!isIdiomType(type)) continue;
      for (const made of maker.quizzes({ type: type.name as "meaning_to_idiom", choices: 4, count: 20, exclude: new Set(), lang }, seededRandom(3)) ?? []) {
        const quiz = JSON.parse(quizText(made, "qz_1").text) as {
          type: string;
          question: string;
          prompt: string;
          choices: { text: string; hangul: string }[];
          answer_idiom: { idx: number };
        };
        const answer = byIdx.get(quiz.answer_idiom.idx) as IdiomRecord;
        expect([quiz.type, quiz.question, quiz.prompt]).toEqual([type.name, type.question[lang], type.prompt(answer, lang)]);
        for (const choice of quiz.choices) {
          const idiom = idioms.find((i) => i.hangul === choice.hangul && type.text(i, lang) === choice.text);
          expect(idiom, `${type.name}: ${choice.text}`).toBeDefined();
        }
      }
    }
  });

  it("gives the `type` parameter its values and the reference its enum, list items and sentences", async () => {
    const { body: openapi } = await getJson(app, "/openapi.json");
    expect(openapi.components.parameters.QuizType.schema.items.enum).toEqual(QUIZ_TYPES);
    expect(openapi.components.schemas.Quiz.properties.type.enum).toEqual(QUIZ_TYPES);
    const description = openapi.paths["/quiz/v1/quiz"].get.description as string;
    for (const type of QUIZ_TYPE_LIST) {
      expect(description).toContain(`- \`${type.name}\`: \`prompt\` is ${type.docs.prompt}; each choice's \`text\` is ${type.docs.text}`);
      expect(openapi.components.schemas.Quiz.properties.prompt.description).toContain(`${type.docs.prompt} (\`${type.name}\`)`);
      expect(openapi.components.parameters.Difficulty.description).toContain(`\`${type.name}\``);
    }
    const invalid = await app.fetch(new Request("http://localhost/quiz/v1/quiz?type=no_such_type"));
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).param).toBe("type");
  });

  it("describes a type added to the list with no other word written: each sentence is derived", () => {
    const added = quizType({
      name: "added_type",
      over: "idioms",
      published: false,
      question: { ko: "?", en: "?" },
      prompt: (idiom) => idiom.hangul,
      text: (idiom) => idiom.meaning,
      shows: { prompt: "hangul", options: "meaning" },
      hardPool: "theme",
      docs: { prompt: "a new prompt", text: "a new text", hangul: "its reading" },
      labels: { ko: "새 유형", en: "New type" },
    });
    const docs = quizTypeDocs([...QUIZ_TYPE_LIST, added]);
    expect(docs.list.at(-1)).toBe("- `added_type`: `prompt` is a new prompt; each choice's `text` is a new text, `hangul` its reading.");
    expect(docs.prompt).toMatch(/ \(`idiom_blank`\) or a new prompt \(`added_type`\); never a `literal`\.$/);
    expect(docs.text).toMatch(/ or a new text \(`added_type`\)\.$/);
    expect(docs.hard).toContain("from the idioms whose meanings are closest to its own (`idiom_to_meaning` and `added_type`)");
    expect(docs.sameEum).toBe(
      "At either difficulty one wrong choice of `hunum_to_hanja` and `hanja_to_hunum` shows the answer's 음 (`hangul`, another 훈) whenever the pool has one, so the 음 alone never gives the answer away.",
    );
  });

  it("gives the page its list of types and their labels in both languages", () => {
    for (const type of QUIZ_TYPE_LIST) {
      expect(PAGE_JS).toContain(JSON.stringify(type.name));
      expect(PAGE_JS).toContain(type.labels.ko);
      expect(PAGE_JS).toContain(type.labels.en);
    }
  });
});

describe("lang=en: the meanings and the instruction in English", () => {
  const get = (query: string) => app.fetch(new Request(`http://localhost/quiz/v1/quiz?${query}`));

  it("meaning_to_idiom asks with the English meaning; idiom_to_meaning offers English meanings; answer_idiom carries both", async () => {
    const prompt = (await (await get("type=meaning_to_idiom&lang=en&seed=7")).json()).quiz;
    expect(prompt.question).toBe("Choose the four-character idiom with this meaning.");
    expect(prompt.prompt).toBe(prompt.answer_idiom.meaning_en);
    expect(prompt.answer_idiom.meaning).toMatch(/[가-힣]/);
    const options = (await (await get("type=idiom_to_meaning&lang=en&seed=7&choices=5")).json()).quiz;
    const right = options.choices.find((c: { key: string }) => c.key === options.answer);
    expect(right.text).toBe(options.answer_idiom.meaning_en);
    for (const choice of options.choices) expect(choice.text).not.toMatch(/[가-힣]/);
  });

  it("draws the same quizzes as lang=ko for a seed, only in the other language; ko is the default", async () => {
    const en = (await (await get("count=5&seed=11&lang=en")).json()).quizzes;
    const ko = (await (await get("count=5&seed=11&lang=ko")).json()).quizzes;
    const plain = (await (await get("count=5&seed=11")).json()).quizzes;
    const shape = (q: { type: string; answer: string; answer_idiom: { idx: number }; choices: { hangul: string }[] }) => [
      q.type,
      q.answer,
      q.answer_idiom.idx,
      q.choices.map((c) => c.hangul),
    ];
    expect(en.map(shape)).toEqual(ko.map(shape));
    expect(plain.map((q: { question: string }) => q.question)).toEqual(ko.map((q: { question: string }) => q.question));
  });

  it("another value is a 400 naming lang, not metered", async () => {
    const response = await get("lang=fr");
    expect(response.status).toBe(400);
    const problem = await response.json();
    expect([problem.code, problem.param]).toEqual(["invalid_parameter", "lang"]);
    expect(response.headers.get("RateLimit")).toBeNull();
  });
});
