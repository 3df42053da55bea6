/**
 * `hanja_to_reading`: a character is shown; the options are readings (음), or the reading is typed.
 * It asks for the character's representative reading (`reading`: 北 북, not 배); any of its readings
 * is accepted when typed, and none of them is offered as a wrong choice.
 */
import { gradingForm, lookalikesOf } from "../characterBank.ts";
import type { Asked, CharacterBank } from "../characterBank.ts";
import { initialSoundForms } from "../../../format/hangul.ts";
import { quizType } from "./quizType.ts";

/**
 * The reading of the character at `position` offered as a wrong choice: its representative reading,
 * else its first reading, that is not a right answer to `asked` (no reading of the asked character).
 */
function wrongReading(bank: CharacterBank, asked: Asked, position: number): string | undefined {
  const right = new Set(asked.accepted.map(gradingForm));
  const own = bank.reading(position);
  return [...(own === undefined ? [] : [own]), ...bank.readings(position)].find((reading) => !right.has(gradingForm(reading)));
}

export const hanjaToReading = quizType({
  name: "hanja_to_reading",
  over: "characters",
  subject: "character",
  published: false,
  typed: true,
  question: { ko: "다음 한자의 음(독음)으로 알맞은 것을 고르세요.", en: "Choose the reading of this character." },
  typedQuestion: { ko: "다음 한자의 음(독음)을 입력하세요.", en: "Type the reading of this character." },
  shows: { prompt: "hanja", options: "hangul" },
  hardPool: "characters",
  docs: { prompt: "a character", text: "a reading", hangul: "the same reading" },
  labels: { ko: "한자 → 음", en: "Character → reading" },
  ask(bank, subject) {
    const readings = bank.readings(subject.position);
    const first = bank.reading(subject.position) ?? readings[0];
    if (first === undefined) return null;
    // Every reading (樂: 락, 악, 요) and every 음 of its 훈음, each also in its initial-sound form (낙).
    const all = [...readings, ...bank.hunum(subject.position).map((h) => h.eum)];
    const accepted = [...new Set(all.flatMap(initialSoundForms))];
    return { subject, prompt: bank.character(subject.position), right: { text: first, hangul: first }, accepted, character: subject.position };
  },
  option(bank, asked, position) {
    const reading = wrongReading(bank, asked, position);
    return reading === undefined ? null : { text: reading, hangul: reading };
  },
  alsoRight: (bank, asked, position) => position === asked.character || wrongReading(bank, asked, position) === undefined,
  lookalikes: (bank, asked) => lookalikesOf(bank, asked.character),
  sameEumOption: false,
});
