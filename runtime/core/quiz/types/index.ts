/**
 * The quiz types, listed once: a new type is a module beside this file and one line here. The
 * order is the order of the `type` parameter's values, of the reference and of the page's list.
 */
import { hangulToHanja } from "./hangulToHanja.ts";
import { hanjaToHunum } from "./hanjaToHunum.ts";
import { hanjaToReading } from "./hanjaToReading.ts";
import { hunumToHanja } from "./hunumToHanja.ts";
import { idiomBlank } from "./idiomBlank.ts";
import { idiomToMeaning } from "./idiomToMeaning.ts";
import { meaningToIdiom } from "./meaningToIdiom.ts";
import type { QuizOf } from "../../../format/quizSchemas.ts";
import type { AnyQuizType, CharacterQuizType, IdiomQuizType } from "./quizType.ts";

/** Every quiz type, in the reference's order. */
export const QUIZ_TYPE_LIST = [meaningToIdiom, idiomToMeaning, hangulToHanja, hunumToHanja, hanjaToHunum, hanjaToReading, idiomBlank] as const;

/** A `type` value. */
export type QuizType = (typeof QUIZ_TYPE_LIST)[number]["name"];

/** A quiz as `GET /quiz` answers it (`runtime/format/quizSchemas.ts`), of these types. */
export type Quiz = QuizOf<QuizType>;

/** The `type` values. */
export const QUIZ_TYPES: readonly QuizType[] = QUIZ_TYPE_LIST.map((type) => type.name);

/** The types by name. */
export const QUIZ_TYPE_BY_NAME = Object.fromEntries(QUIZ_TYPE_LIST.map((type) => [type.name, type])) as Record<QuizType, AnyQuizType<QuizType>>;

/** The types drawn when a request names none: those of the published interface. */
export const PUBLISHED_TYPES: readonly QuizType[] = QUIZ_TYPE_LIST.filter((type) => type.published).map((type) => type.name);

/** The types over the idioms, by name. */
export type IdiomTypeName = Extract<(typeof QUIZ_TYPE_LIST)[number], { over: "idioms" }>["name"];

/** Whether the type asks about an idiom (its prompt and options are idioms' texts). */
export function isIdiomType(type: AnyQuizType): type is IdiomQuizType {
  return type.over === "idioms";
}

/** Whether the type asks about a character. */
export function isCharacterType(type: AnyQuizType): type is CharacterQuizType {
  return type.over === "characters";
}

/** The types that offer `answer_format=typed`. */
export const TYPED_TYPES: readonly QuizType[] = QUIZ_TYPE_LIST.filter((type) => (isIdiomType(type) ? type.typedAnswers !== undefined : type.typed)).map(
  (type) => type.name,
);
