/** `hunum_to_hanja`: a 훈음 is shown (`물 수`); the options are characters. */
import { hunumText, lookalikesOf, sameHunum } from "../characterBank.ts";
import { quizType } from "./quizType.ts";

export const hunumToHanja = quizType({
  name: "hunum_to_hanja",
  over: "characters",
  subject: "character",
  published: false,
  typed: false,
  question: { ko: "다음 훈음에 알맞은 한자를 고르세요.", en: "Choose the character with this meaning and reading (훈음)." },
  shows: { prompt: "hunum", options: "hanja" },
  hardPool: "characters",
  docs: { prompt: "a character's first 훈음 (`물 수`)", text: "a character", hangul: "its 음" },
  labels: { ko: "훈음 → 한자", en: "훈음 → character" },
  ask(bank, subject) {
    const first = bank.hunum(subject.position)[0];
    if (first === undefined) return null;
    const character = bank.character(subject.position);
    return { subject, prompt: hunumText(first), right: { text: character, hangul: first.eum }, accepted: [character], character: subject.position };
  },
  option: (bank, _asked, position) => ({ text: bank.character(position), hangul: bank.hunum(position)[0]?.eum ?? "" }),
  // A variant (歎/嘆) or any character with the prompt's 훈음 (or its initial-sound form) answers it too.
  alsoRight(bank, asked, position) {
    const prompt = bank.hunum(asked.character)[0];
    return (
      position === asked.character ||
      bank.variants(asked.character).has(position) ||
      (prompt !== undefined && bank.hunum(position).some((h) => sameHunum(h, prompt)))
    );
  },
  lookalikes: (bank, asked) => lookalikesOf(bank, asked.character),
  sameEumOption: true,
});
