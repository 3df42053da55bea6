/** `idiom_blank`: an idiom with one character left out is shown (`背水之□`); the options are characters. */
import { lookalikesOf } from "../characterBank.ts";
import type { CharacterBank } from "../characterBank.ts";
import { quizType } from "./quizType.ts";

/** What stands for the character left out. */
export const BLANK = "□";

/** The idiom's characters with the one at `blank` replaced by `character`. */
function filled(bank: CharacterBank, idiom: number, blank: number, character: string): string {
  const characters = [...(bank.idioms[idiom]?.hanja ?? "")];
  characters[blank] = character;
  return characters.join("");
}

export const idiomBlank = quizType({
  name: "idiom_blank",
  over: "characters",
  subject: "idiom",
  published: false,
  typed: false,
  question: { ko: "빈칸에 들어갈 한자를 고르세요.", en: "Choose the character that completes this idiom." },
  shows: { prompt: "hanja", options: "hanja" },
  hardPool: "characters",
  docs: { prompt: `an idiom in hanja with one character of the pool left out (\`背水之${BLANK}\`)`, text: "a character", hangul: "its first reading" },
  labels: { ko: "빈칸 채우기", en: "Fill the blank" },
  ask(bank, subject) {
    if (subject.kind !== "idiom") return null;
    const idiom = bank.idioms[subject.position];
    const character = idiom === undefined ? undefined : [...idiom.hanja][subject.blank];
    const position = character === undefined ? undefined : bank.position(character);
    if (idiom === undefined || character === undefined || position === undefined) return null;
    return {
      subject,
      prompt: filled(bank, subject.position, subject.blank, BLANK),
      right: { text: character, hangul: [...idiom.hangul][subject.blank] ?? "" },
      accepted: [character],
      character: position,
    };
  },
  option: (bank, _asked, position) => ({ text: bank.character(position), hangul: bank.readings(position)[0] ?? "" }),
  // A variant of the missing character, or one that completes another of the idioms, answers it too.
  alsoRight(bank, asked, position) {
    if (asked.subject.kind !== "idiom") return true;
    return (
      position === asked.character ||
      bank.variants(asked.character).has(position) ||
      bank.idiomHanja.has(filled(bank, asked.subject.position, asked.subject.blank, bank.character(position)))
    );
  },
  lookalikes: (bank, asked) => lookalikesOf(bank, asked.character),
  sameEumOption: false,
});
