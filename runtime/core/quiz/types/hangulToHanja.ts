/** `hangul_to_hanja`: an idiom's hangul reading is shown; the options are idioms in hanja. */
import { quizType } from "./quizType.ts";

export const hangulToHanja = quizType({
  name: "hangul_to_hanja",
  over: "idioms",
  published: true,
  question: { ko: "다음 독음에 알맞은 한자 표기를 고르세요.", en: "Choose the hanja spelling of this reading." },
  typedQuestion: { ko: "다음 독음에 알맞은 한자 표기를 입력하세요.", en: "Type the hanja spelling of this reading." },
  prompt: (idiom) => idiom.hangul,
  text: (idiom) => idiom.hanja,
  shows: { prompt: "hangul", options: "hanja" },
  hardPool: "lookalike",
  docs: { prompt: "hangul", text: "an idiom in hanja", hangul: "its reading" },
  labels: { ko: "독음 → 한자", en: "Reading → hanja" },
  // Typed: the idiom in hanja, or any idiom read the same way (a homophone answers the reading too).
  typedAnswers: (idioms, position) => {
    const hangul = idioms[position]?.hangul;
    return idioms.filter((idiom) => idiom.hangul === hangul).map((idiom) => idiom.hanja);
  },
});
