/** `hanja_to_hunum`: a character is shown; the options are 훈음 (`물 수`), or the 훈음 is typed. */
import { gradingForm, hunumText, lookalikesOf, sameEum, sameHunum } from "../characterBank.ts";
import type { CharacterBank, Hunum } from "../characterBank.ts";
import { initialSoundForms } from "../../../format/hangul.ts";
import { quizType } from "./quizType.ts";

/**
 * The 훈음 of the character at `position` that is most like `answer`'s: one with the 음 the answer
 * shows (its first 훈음's) that is none of the answer's 훈음, else one with the same 음 or 훈 as one
 * of them, else its first.
 */
function likest(bank: CharacterBank, answer: readonly Hunum[], position: number): Hunum | undefined {
  const own = bank.hunum(position);
  const shown = answer[0]?.eum;
  return (
    (shown === undefined ? undefined : own.find((h) => sameEum(shown, h.eum) && !answer.some((a) => sameHunum(a, h)))) ??
    own.find((h) => answer.some((a) => sameEum(a.eum, h.eum) || gradingForm(a.hun) === gradingForm(h.hun))) ??
    own[0]
  );
}

export const hanjaToHunum = quizType({
  name: "hanja_to_hunum",
  over: "characters",
  subject: "character",
  published: false,
  typed: true,
  question: { ko: "다음 한자의 훈음으로 알맞은 것을 고르세요.", en: "Choose the meaning and reading (훈음) of this character." },
  typedQuestion: { ko: "다음 한자의 훈음을 입력하세요.", en: "Type the meaning and reading (훈음) of this character." },
  shows: { prompt: "hanja", options: "hunum" },
  hardPool: "characters",
  docs: { prompt: "a character", text: "a 훈음 (`물 수`)", hangul: "its 음" },
  labels: { ko: "한자 → 훈음", en: "Character → 훈음" },
  ask(bank, subject) {
    const hunum = bank.hunum(subject.position);
    const first = hunum[0];
    if (first === undefined) return null;
    // Every 훈음 of the character, each 음 also in its initial-sound form (즐길 락, 즐길 낙).
    const accepted = hunum.flatMap(({ hun, eum }) => initialSoundForms(eum).map((form) => `${hun} ${form}`));
    return { subject, prompt: bank.character(subject.position), right: { text: hunumText(first), hangul: first.eum }, accepted, character: subject.position };
  },
  option(bank, asked, position) {
    const hunum = likest(bank, bank.hunum(asked.character), position);
    return hunum === undefined ? null : { text: hunumText(hunum), hangul: hunum.eum };
  },
  alsoRight(bank, asked, position) {
    const answer = bank.hunum(asked.character);
    const offered = likest(bank, answer, position);
    return position === asked.character || bank.variants(asked.character).has(position) || (offered !== undefined && answer.some((h) => sameHunum(h, offered)));
  },
  lookalikes: (bank, asked) => lookalikesOf(bank, asked.character),
  sameEumOption: true,
});
