/**
 * An account of the character quizzes written apart from the product: which options of a quiz
 * would also be right (rules of the issue, read from the published records), and which wrong
 * options look like the answer. The tests and the benchmark probe hold the quizzes against it.
 */
import type { App } from "../../runtime/core/app.ts";
import { initialSoundForms } from "../../runtime/format/hangul.ts";

/** What the oracle reads of a character: its published record's fields. */
export interface CharacterFacts {
  readings: string[];
  hunum: { hun: string; eum: string }[];
  variants: string[];
  radical: number;
  strokes: number;
  education: boolean;
  /** `school_level`: `middle`, `high` or null. */
  school: string | null;
  name: boolean;
}

/** A quiz as `GET /quiz` answers it (the fields the oracle reads). */
export interface CharacterQuiz {
  type: string;
  prompt: string;
  choices: { key: string; text: string; hangul?: string }[];
  answer: string;
  answer_character: { character: string; reading?: string; readings: string[]; hunum: string[] };
}

const same = (a: string, b: string) => a.replace(/\s+/g, "") === b.replace(/\s+/g, "");
const sameEum = (a: string, b: string) => a === b || initialSoundForms(a).includes(b) || initialSoundForms(b).includes(a);
const split = (hunum: string) => ({ hun: hunum.slice(0, hunum.lastIndexOf(" ")), eum: hunum.slice(hunum.lastIndexOf(" ") + 1) });

/** The oracle over an app's data. */
export function characterOracle(app: App) {
  const chars = app.data.characters;
  const facts = new Map<string, CharacterFacts>();
  const byReading = new Map<string, string[]>();
  const byHunum = new Map<string, string[]>();
  chars.characters.forEach((character, position) => {
    const record = JSON.parse(chars.record(position));
    facts.set(character, {
      readings: record.readings,
      hunum: record.hunum,
      variants: record.variants === "" ? [] : record.variants.split(" "),
      radical: record.radical_number,
      strokes: record.strokes,
      education: record.education_hanja,
      school: record.school_level,
      name: record.name_hanja,
    });
    for (const reading of record.readings) byReading.set(reading, [...(byReading.get(reading) ?? []), character]);
    for (const { hun, eum } of record.hunum) byHunum.set(`${hun} ${eum}`, [...(byHunum.get(`${hun} ${eum}`) ?? []), character]);
  });
  const idiomHanja = new Set(app.data.idioms.idioms.map((idiom) => idiom.hanja));
  /** Characters with 훈음 by the 음 of any of their 훈음, each 음 under each of its initial-sound forms. */
  const byEum = new Map<string, string[]>();
  for (const [character, f] of facts) {
    for (const { eum } of f.hunum) for (const form of initialSoundForms(eum)) byEum.set(form, [...new Set([...(byEum.get(form) ?? []), character])]);
  }
  const of = (character: string) => facts.get(character) as CharacterFacts;
  const variantsLinked = (a: string, b: string) => of(a).variants.includes(b) || of(b).variants.includes(a);
  const shapeAlike = (a: string, b: string) => of(a).radical === of(b).radical && Math.abs(of(a).strokes - of(b).strokes) <= 2;

  /** Whether a wrong option's text would also answer the quiz. */
  function alsoRight(quiz: CharacterQuiz, text: string): boolean {
    const answer = quiz.answer_character.character;
    switch (quiz.type) {
      case "hunum_to_hanja": {
        const prompt = split(quiz.prompt);
        return text === answer || variantsLinked(answer, text) || of(text).hunum.some((h) => same(h.hun, prompt.hun) && sameEum(h.eum, prompt.eum));
      }
      case "hanja_to_hunum": {
        const offered = split(text);
        return of(answer).hunum.some((h) => same(h.hun, offered.hun) && sameEum(h.eum, offered.eum));
      }
      case "hanja_to_reading": {
        // Each reading and 음, or its initial-sound form (樂 락 → 낙); not the other way (泳 영 is never 령).
        const right = [...of(answer).readings, ...of(answer).hunum.map((h) => h.eum)];
        return right.some((reading) => initialSoundForms(reading).includes(text));
      }
      case "idiom_blank":
        return text === answer || variantsLinked(answer, text) || idiomHanja.has(quiz.prompt.replace("□", text));
      default:
        throw new Error(`not a character type: ${quiz.type}`);
    }
  }

  /**
   * Whether a wrong option looks like the answer: a character of the same radical and a close
   * stroke count, or sharing a 음 or a 훈; a 훈음 sharing its 음 or 훈 or of such a character; a
   * reading of a character written alike or of the same 훈.
   */
  function resembles(quiz: CharacterQuiz, text: string): boolean {
    const answer = quiz.answer_character.character;
    const mine = of(answer).hunum;
    const sharesHunum = (other: { hun: string; eum: string }[]) => other.some((h) => mine.some((m) => sameEum(m.eum, h.eum) || same(m.hun, h.hun)));
    switch (quiz.type) {
      case "hunum_to_hanja":
      case "idiom_blank":
        return shapeAlike(answer, text) || sharesHunum(of(text).hunum);
      case "hanja_to_hunum":
        return sharesHunum([split(text)]) || (byHunum.get(text) ?? []).some((other) => shapeAlike(answer, other));
      case "hanja_to_reading":
        // The reading of a character a learner may take for this one: written alike, or of the same 훈.
        return (byReading.get(text) ?? []).some(
          (other) => other !== answer && (shapeAlike(answer, other) || of(other).hunum.some((h) => mine.some((m) => same(m.hun, h.hun)))),
        );
      default:
        throw new Error(`not a character type: ${quiz.type}`);
    }
  }

  /** The wrong options of a quiz that would also be right, and how many of its wrong options resemble the answer. */
  function judge(quiz: CharacterQuiz): { secondRight: string[]; wrong: number; resembling: number } {
    const wrong = quiz.choices.filter((choice) => choice.key !== quiz.answer).map((choice) => choice.text);
    return {
      secondRight: wrong.filter((text) => alsoRight(quiz, text)),
      wrong: wrong.length,
      resembling: wrong.filter((text) => resembles(quiz, text)).length,
    };
  }

  /** Whether a character is in a `level` pool of the character quizzes (education, middle, high, name, all: with 훈음). */
  const inPool = (character: string, level: string) => {
    const f = of(character);
    if (level === "middle" || level === "high") return f.hunum.length > 0 && f.school === level;
    return f.hunum.length > 0 && (level === "education" ? f.education : level === "name" ? f.name : true);
  };

  /**
   * For a 훈음 quiz (`hunum_to_hanja`, `hanja_to_hunum`): `alone` when the answer is the only
   * choice whose 음 (its `hangul`, initial-sound forms alike) is the answer's, so a learner who knows
   * only readings picks it; `avoidable` when the `level` pool has a character whose wrong choice
   * would show that 음 without being right: for `hunum_to_hanja` a character whose first 훈음 has it
   * (the 음 a choice shows), for `hanja_to_hunum` a 훈음 with it of a character other than the
   * answer and its variants.
   */
  function eumAlone(quiz: CharacterQuiz, level = "education"): { alone: boolean; avoidable: boolean } {
    const right = quiz.choices.find((choice) => choice.key === quiz.answer);
    const eum = right?.hangul ?? "";
    const alone = quiz.choices.filter((choice) => sameEum(choice.hangul ?? "", eum)).length === 1;
    const answer = quiz.answer_character.character;
    const candidates = [...new Set(initialSoundForms(eum).flatMap((form) => byEum.get(form) ?? []))].filter(
      (c) => c !== answer && !variantsLinked(answer, c) && inPool(c, level),
    );
    let avoidable: boolean;
    if (quiz.type === "hunum_to_hanja") {
      avoidable = candidates.some((c) => sameEum(of(c).hunum[0]?.eum ?? "", eum) && !alsoRight(quiz, c));
    } else if (quiz.type === "hanja_to_hunum") {
      avoidable = candidates.some((c) => of(c).hunum.some((h) => sameEum(h.eum, eum) && !alsoRight(quiz, `${h.hun} ${h.eum}`)));
    } else throw new Error(`not a 훈음 type: ${quiz.type}`);
    return { alone, avoidable };
  }

  return { facts: of, judge, alsoRight, eumAlone };
}
