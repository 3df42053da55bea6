/**
 * `GET /quiz` from its parsed parameters: which maker draws (the idiom maker for the idiom types'
 * multiple-choice quizzes, as the published interface has them; the character maker for the
 * character types and typed answers), and for `reveal=0` the answers left out and the ids signed.
 */
import { invalidParameter } from "../http/errors.ts";
import { type Random, randomBase62 } from "../util/random.ts";
import { utf8Length } from "../util/utf8Length.ts";
import type { Level } from "../quiz/characterBank.ts";
import type { CharacterQuizMaker } from "../quiz/makeCharacterQuiz.ts";
import { type Difficulty, type MadeQuiz, type QuizMaker, type SizedText, quizText } from "../quiz/makeQuiz.ts";
import type { QuizIds } from "../quiz/quizId.ts";
import { type IdiomTypeName, PUBLISHED_TYPES, QUIZ_TYPE_BY_NAME, type QuizType, TYPED_TYPES, isIdiomType } from "../quiz/types/index.ts";
import type { QuizLang } from "../quiz/types/quizType.ts";

/** The parameters of `GET /quiz`, parsed. */
export interface QuizParams {
  /** The types asked for; empty: the published ones. */
  type: readonly QuizType[];
  choices: number;
  count: number;
  exclude: ReadonlySet<number>;
  difficulty: Difficulty;
  mature: boolean;
  lang: QuizLang;
  level: Level;
  typed: boolean;
  reveal: boolean;
}

/** What drawing needs: the two makers (each made on first use), the id signer and the random sources. */
export interface QuizSources {
  idiomMaker(): QuizMaker;
  characterMaker(): CharacterQuizMaker;
  ids: QuizIds;
  /** Draws everything but the ids (seeded for `seed`). */
  random: Random;
  /** Draws the plain ids of revealed quizzes (the platform CSPRNG, so ids stay unique under a seed). */
  idRandom: Random;
}

/**
 * The types of a typed request: those named, each of which must offer typed answers (else a `400`
 * naming `answer_format`); none named, the published ones that do (`hangul_to_hanja`).
 */
export function typedTypes(types: readonly QuizType[]): readonly QuizType[] {
  const list = TYPED_TYPES.join(", ");
  if (types.length === 0) return PUBLISHED_TYPES.filter((type) => TYPED_TYPES.includes(type));
  const other = types.find((type) => !TYPED_TYPES.includes(type));
  if (other !== undefined) throw invalidParameter("answer_format", `answer_format=typed is offered for ${list}, not ${other}`);
  return types;
}

/** Whether the request is one the published interface describes: multiple-choice quizzes of idiom types only. */
export function isIdiomRequest(p: Pick<QuizParams, "type" | "typed">): boolean {
  return !p.typed && p.type.every((name) => isIdiomType(QUIZ_TYPE_BY_NAME[name]));
}

/**
 * The quizzes of a request as JSON texts with their ids; null when too few answers are left. At
 * once for revealed quizzes (the published interface's, which need no signing), so their reply is
 * not put off to a later turn; a promise only while the ids of `reveal=0` are signed.
 */
export function drawQuizzes(p: QuizParams, sources: QuizSources): SizedText[] | null | Promise<SizedText[] | null> {
  const made = draw(p, sources);
  if (made === null) return null;
  if (p.reveal) return made.map((quiz) => quizText(quiz, `qz_${randomBase62(sources.idRandom, 16)}`));
  return sources.ids.sign(made.map((quiz) => quiz.claims)).then((ids) => made.map((quiz, k) => withoutAnswers(quizText(quiz, ids[k] as string))));
}

/**
 * The quizzes without their ids. A list mixing idiom and character types draws each quiz's kind
 * first (by the share of the list's types), then each maker draws its quizzes' types among its
 * own: every quiz is still of any listed type with the same chance.
 */
function draw(p: QuizParams, sources: QuizSources): MadeQuiz[] | null {
  const idiomTypes = p.type.filter((name) => isIdiomType(QUIZ_TYPE_BY_NAME[name])) as IdiomTypeName[];
  const idiomQuizzes = (count: number) =>
    sources.idiomMaker().quizzes(
      // Written out, not spread from `p`: spreading the parsed parameters cost more than drawing the quiz.
      {
        type: idiomTypes.length === 1 ? idiomTypes[0] : undefined,
        types: idiomTypes.length > 1 ? idiomTypes : undefined,
        choices: p.choices,
        count,
        exclude: p.exclude,
        difficulty: p.difficulty,
        mature: p.mature,
        lang: p.lang,
      },
      sources.random,
    );
  if (isIdiomRequest(p)) return idiomQuizzes(p.count);
  const characterTypes = p.typed ? p.type : p.type.filter((name) => !isIdiomType(QUIZ_TYPE_BY_NAME[name]));
  const characterQuizzes = (count: number) => sources.characterMaker().quizzes({ ...p, count, types: characterTypes }, sources.random);
  if (characterTypes.length === p.type.length) return characterQuizzes(p.count);
  const kinds = Array.from({ length: p.count }, () => sources.random.int(p.type.length) < idiomTypes.length);
  const fromIdioms = kinds.filter(Boolean).length;
  const idiomMade = fromIdioms === 0 ? [] : idiomQuizzes(fromIdioms);
  const characterMade = fromIdioms === p.count ? [] : characterQuizzes(p.count - fromIdioms);
  if (idiomMade === null || characterMade === null) return null;
  return kinds.map((idiom) => (idiom ? idiomMade.shift() : characterMade.shift()) as MadeQuiz);
}

/** What `reveal=0` leaves out of a quiz: its answers, and each choice's `hangul`, which can read the answer out. */
const ANSWER_FIELDS = ["answer", "accepted", "answer_idiom", "answer_character"];

function withoutAnswers(quiz: SizedText): SizedText {
  const object = JSON.parse(quiz.text) as Record<string, unknown> & { choices: { key: string; text: string; hangul?: string }[] };
  for (const field of ANSWER_FIELDS) delete object[field];
  object.choices = object.choices.map(({ key, text }) => ({ key, text }));
  const text = JSON.stringify(object);
  return { text, extraBytes: utf8Length(text) - text.length };
}
