/** `idiom_to_meaning`: an idiom in hanja is shown; the options are meanings. */
import { meaningIn, quizType } from "./quizType.ts";

export const idiomToMeaning = quizType({
  name: "idiom_to_meaning",
  over: "idioms",
  published: true,
  question: { ko: "다음 사자성어의 뜻으로 알맞은 것을 고르세요.", en: "Choose the meaning of this four-character idiom." },
  prompt: (idiom) => idiom.hanja,
  text: meaningIn,
  shows: { prompt: "hanja", options: "meaning" },
  hardPool: "theme",
  docs: { prompt: "an idiom in hanja", text: "a meaning", hangul: "the reading of the idiom it belongs to" },
  labels: { ko: "사자성어 → 뜻", en: "Idiom → meaning" },
});
