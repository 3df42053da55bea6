/** `meaning_to_idiom`: a meaning is shown; the options are idioms in hanja. */
import { meaningIn, quizType } from "./quizType.ts";

export const meaningToIdiom = quizType({
  name: "meaning_to_idiom",
  over: "idioms",
  published: true,
  question: { ko: "다음 뜻을 가진 사자성어를 고르세요.", en: "Choose the four-character idiom with this meaning." },
  prompt: meaningIn,
  text: (idiom) => idiom.hanja,
  shows: { prompt: "meaning", options: "hanja" },
  hardPool: "lookalike",
  docs: { prompt: "a meaning", text: "an idiom in hanja", hangul: "its reading" },
  labels: { ko: "뜻 → 사자성어", en: "Meaning → idiom" },
});
