/**
 * Quizzes of the character types (`over: "characters"` in `types/`) and typed quizzes
 * (`answer_format=typed`): what is asked comes from the type's `ask`, wrong options from the
 * type's `option`, never one the type says would also be right (`alsoRight`): for a type with
 * `sameEumOption`, first one showing the answer's 음 when the pool has one; then from the answer's
 * look-alikes for `difficulty=hard`; then at random from the same pool.
 */
import { type Asked, type CharacterBank, type Level, type Subject, hunumText, sameEum } from "./characterBank.ts";
import { initialSoundForms } from "../../format/hangul.ts";
import type { Difficulty, MadeQuiz } from "./makeQuiz.ts";
import { sample } from "./makeQuiz.ts";
import { QUIZ_TYPE_BY_NAME, type QuizType, isCharacterType } from "./types/index.ts";
import type { AnyQuizType, CharacterQuizType, QuizLang } from "./types/quizType.ts";
import type { Random } from "../util/random.ts";
import { utf8Length } from "../util/utf8Length.ts";

/** A request for quizzes of the character types, or typed quizzes of any type that offers them. */
export interface CharacterQuizRequest {
  types: readonly QuizType[];
  level: Level;
  choices: number;
  count: number;
  /** idx values of idioms that must not be answers (`idiom_blank`, typed idiom quizzes). */
  exclude: ReadonlySet<number>;
  difficulty: Difficulty;
  mature: boolean;
  typed: boolean;
  lang: QuizLang;
}

/** The JSON of what a quiz answers with: the character asked about and, for an idiom, the idiom. */
export function answerMembers(bank: CharacterBank, answerJson: readonly string[], character: number | undefined, idiom: number | undefined): string {
  const parts: string[] = [];
  if (character !== undefined) {
    const readings = bank.readings(character);
    const answer = {
      character: bank.character(character),
      reading: bank.reading(character) ?? readings[0],
      readings,
      hunum: bank.hunum(character).map(hunumText),
    };
    parts.push(`"answer_character":${JSON.stringify(answer)}`);
  }
  if (idiom !== undefined) parts.push(`"answer_idiom":${answerJson[idiom]}`);
  return parts.join(",");
}

/** Makes character and typed quizzes over `bank`; `answerJson` is each idiom's interface B JSON, `withheld` the idioms left out unless `mature`. */
export function createCharacterQuizMaker(bank: CharacterBank, answerJson: readonly string[], withheld: ReadonlySet<number>) {
  const { idioms } = bank;

  /** Idioms a quiz may ask about: not withheld (unless mature), not excluded, with a character of the pool when a blank is needed. */
  const idiomSubjects = (request: CharacterQuizRequest, needsBlank: boolean) =>
    idioms
      .map((_, position) => position)
      .filter((p) => (request.mature || !withheld.has(p)) && !request.exclude.has((idioms[p] as { idx: number }).idx))
      .filter((p) => !needsBlank || blanks(request.level, p).length > 0);

  /** The positions in each idiom whose character is in a level's pool (where its blank may be), per level, found once. */
  const blanksByLevel = new Map<Level, number[][]>();
  const blanks = (level: Level, idiom: number): readonly number[] => {
    let all = blanksByLevel.get(level);
    if (all === undefined) {
      all = idioms.map((entry) =>
        [...entry.hanja].flatMap((character, i) => {
          const position = bank.position(character);
          return position !== undefined && bank.inPool(level, position) ? [i] : [];
        }),
      );
      blanksByLevel.set(level, all);
    }
    return all[idiom] ?? [];
  };

  /** The wrong options of a multiple-choice quiz, and the right one among them at a random key. */
  const choicesFor = (type: CharacterQuizType, asked: Asked, request: CharacterQuizRequest, random: Random) => {
    const texts = [asked.right.text];
    const chosen: { text: string; hangul: string }[] = [];
    const tried = new Set<number>();
    /** Offers the character's option; with `eum`, only an option showing that 음 (else it may still be drawn later). */
    const offer = (position: number, eum?: string) => {
      if (tried.has(position)) return;
      if (!bank.inPool(request.level, position) || type.alsoRight(bank, asked, position)) return void tried.add(position);
      const option = type.option(bank, asked, position);
      if (option === null || texts.includes(option.text)) return void tried.add(position);
      if (eum !== undefined && !sameEum(option.hangul, eum)) return;
      tried.add(position);
      texts.push(option.text);
      chosen.push(option);
    };
    const wanted = request.choices - 1;
    if (type.sameEumOption && wanted > 0) {
      // One wrong option with the answer's 음, drawn at random among the characters that have it, so
      // the 음 alone does not give the answer away; it takes a random place among the wrong options.
      const eum = asked.right.hangul;
      const same = [...new Set(initialSoundForms(eum).flatMap((form) => bank.byEum(form)))];
      for (let i = 0; i < same.length && chosen.length === 0; i++) {
        const j = i + random.int(same.length - i);
        [same[i], same[j]] = [same[j] as number, same[i] as number];
        offer(same[i] as number, eum);
      }
    }
    if (request.difficulty === "hard") {
      const lookalikes = [...type.lookalikes(bank, asked)];
      for (let i = 0; i < lookalikes.length && chosen.length < wanted; i++) {
        const j = i + random.int(lookalikes.length - i);
        [lookalikes[i], lookalikes[j]] = [lookalikes[j] as number, lookalikes[i] as number];
        offer(lookalikes[i] as number);
      }
    }
    const pool = bank.pool(request.level);
    for (let draws = 0; chosen.length < wanted && draws < pool.length * 4; draws++) offer(pool[random.int(pool.length)] as number);
    if (type.sameEumOption && chosen.length > 1) {
      const j = random.int(chosen.length);
      [chosen[0], chosen[j]] = [chosen[j] as (typeof chosen)[number], chosen[0] as (typeof chosen)[number]];
    }
    const at = random.int(chosen.length + 1);
    chosen.splice(at, 0, asked.right);
    return { options: chosen, key: at + 1 };
  };

  /** One quiz of `type` about `subject`. */
  const quiz = (type: AnyQuizType, subject: Subject, request: CharacterQuizRequest, random: Random): MadeQuiz | null => {
    // A typed quiz says to type the answer, not to choose it (`typedQuestion`).
    const typed = request.typed || !isCharacterType(type);
    const question = JSON.stringify(((typed && type.typedQuestion) || type.question)[request.lang]);
    const head = `","type":"${type.name}","question":${question}`;
    if (!isCharacterType(type)) {
      // A typed quiz of an idiom type: the prompt as the type shows it, every standard answer.
      const idiom = idioms[subject.position];
      if (idiom === undefined || type.typedAnswers === undefined) return null;
      const accepted = type.typedAnswers(idioms, subject.position);
      const text = `${head},"answer_format":"typed","prompt":${JSON.stringify(type.prompt(idiom, request.lang))},"choices":[],"answer":${JSON.stringify(type.text(idiom, request.lang))},"accepted":${JSON.stringify(accepted)},${answerMembers(bank, answerJson, undefined, subject.position)}}`;
      return made(text, { type: type.name as QuizType, typed: true, key: 0, subject: subject.position, blank: 0 });
    }
    const asked = type.ask(bank, subject);
    if (asked === null) return null;
    const idiom = subject.kind === "idiom" ? subject.position : undefined;
    const answer = answerMembers(bank, answerJson, asked.character, idiom);
    const claims = { type: type.name as QuizType, subject: subject.position, blank: subject.kind === "idiom" ? subject.blank : 0 };
    if (request.typed) {
      const text = `${head},"answer_format":"typed","prompt":${JSON.stringify(asked.prompt)},"choices":[],"answer":${JSON.stringify(asked.right.text)},"accepted":${JSON.stringify(asked.accepted)},${answer}}`;
      return made(text, { ...claims, typed: true, key: 0 });
    }
    const { options, key } = choicesFor(type, asked, request, random);
    const choices = options.map((option, i) => ({ key: String(i + 1), text: option.text, hangul: option.hangul }));
    const text = `${head},"prompt":${JSON.stringify(asked.prompt)},"choices":${JSON.stringify(choices)},"answer":"${key}",${answer}}`;
    return made(text, { ...claims, typed: false, key });
  };

  return {
    /** `count` quizzes, each of a type drawn from `types`, with distinct subjects; null when too few subjects are left. */
    quizzes(request: CharacterQuizRequest, random: Random): MadeQuiz[] | null {
      const types = Array.from({ length: request.count }, () => QUIZ_TYPE_BY_NAME[request.types[random.int(request.types.length)] as QuizType]);
      const asksIdioms = (type: AnyQuizType) => !isCharacterType(type) || type.subject === "idiom";
      const idiomCount = types.filter(asksIdioms).length;
      const idiomPool =
        idiomCount === 0
          ? []
          : idiomSubjects(
              request,
              types.some((type) => isCharacterType(type)),
            );
      const characterPool = bank.pool(request.level);
      if (idiomPool.length < idiomCount || characterPool.length < request.count - idiomCount) return null;
      const idiomAnswers = sample(idiomPool, idiomCount, random);
      const characterAnswers = sample(characterPool, request.count - idiomCount, random);
      const out: MadeQuiz[] = [];
      for (const type of types) {
        let subject: Subject;
        if (asksIdioms(type)) {
          const position = idiomAnswers.pop() as number;
          const places = isCharacterType(type) ? blanks(request.level, position) : [0];
          subject = { kind: "idiom", position, blank: places[random.int(places.length)] as number };
        } else {
          subject = { kind: "character", position: characterAnswers.pop() as number };
        }
        const made = quiz(type, subject, request, random);
        if (made === null) return null;
        out.push(made);
      }
      return out;
    },
  };
}

/** A made quiz from its text after the id. */
function made(text: string, claims: MadeQuiz["claims"]): MadeQuiz {
  return { text, extraBytes: utf8Length(text) - text.length, claims };
}

/** The character quiz maker. */
export type CharacterQuizMaker = ReturnType<typeof createCharacterQuizMaker>;
