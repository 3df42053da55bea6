/** The quiz maker's texts and their UTF-8 lengths, known without measuring. */
import { describe, expect, it } from "vitest";
import { idiomJsonB } from "../../runtime/format/records.ts";
import { createQuizMaker, quizText } from "../../runtime/core/quiz/makeQuiz.ts";
import { PUBLISHED_TYPES, type IdiomTypeName } from "../../runtime/core/quiz/types/index.ts";
import { seededRandom } from "../../runtime/core/util/random.ts";
import { testApp } from "../helpers/app.ts";

const TYPES = PUBLISHED_TYPES as readonly IdiomTypeName[];

describe("createQuizMaker", () => {
  const { idioms, itemsB } = testApp().data.idioms;
  const maker = createQuizMaker(idioms, itemsB);
  const random = seededRandom(5);
  const bytes = (text: string) => new TextEncoder().encode(text).length;

  it("reports each quiz's UTF-8 length exactly: text.length + extraBytes", () => {
    for (let n = 0; n < 600; n++) {
      const type = n % 4 === 3 ? undefined : TYPES[n % 4];
      const quizzes = maker.quizzes({ type, choices: 2 + (n % 5), count: 1 + (n % 20), exclude: new Set() }, random);
      expect(quizzes).not.toBeNull();
      for (const made of quizzes ?? []) {
        const quiz = quizText(made, "qz_AQIAAwAAAPQAawmiO3R7NYk3AgWCbAzsRntQLl80KRV6G93B");
        expect(quiz.text.length + quiz.extraBytes).toBe(bytes(quiz.text));
        expect(JSON.stringify(JSON.parse(quiz.text))).toBe(quiz.text);
      }
    }
  });

  it("counts astral characters (two UTF-16 units, four bytes) right", () => {
    const astral = [
      {
        idx: 1,
        hanja: "𠀀𠀁𠀂𠀃",
        hangul: "가나다라",
        chosung: "ㄱㄴㄷㄹ",
        literal: "글자 𠀀",
        meaning: "뜻 𠀀 하나",
        meaning_en: "One meaning 𠀀 with an astral character",
      },
      { idx: 2, hanja: "一二三四", hangul: "일이삼사", chosung: "ㅇㅇㅅㅅ", literal: null, meaning: "뜻 둘", meaning_en: null },
      { idx: 3, hanja: "五六七八", hangul: "오육칠팔", chosung: "ㅇㅇㅊㅍ", literal: "넷 😀", meaning: "뜻 셋 😀", meaning_en: "Three 😀" },
    ];
    const small = createQuizMaker(astral, astral.map(idiomJsonB));
    for (const type of TYPES) {
      for (const made of small.quizzes({ type, choices: 3, count: 3, exclude: new Set() }, random) ?? []) {
        const quiz = quizText(made, "qz_1");
        expect(quiz.text.length + quiz.extraBytes).toBe(bytes(quiz.text));
      }
    }
  });
});
