/**
 * The quiz types, listed once: a new type is a module beside this file and one line here. The
 * order is the order of the `type` parameter's values, of the reference and of the page's list.
 */
import { hangulToHanja } from "./hangulToHanja.ts";
import { idiomToMeaning } from "./idiomToMeaning.ts";
import { meaningToIdiom } from "./meaningToIdiom.ts";
import type { IdiomQuizType } from "./quizType.ts";

/** Every quiz type, in the reference's order. */
export const QUIZ_TYPE_LIST = [meaningToIdiom, idiomToMeaning, hangulToHanja] as const;

/** A `type` value. */
export type QuizType = (typeof QUIZ_TYPE_LIST)[number]["name"];

/** The `type` values. */
export const QUIZ_TYPES: readonly QuizType[] = QUIZ_TYPE_LIST.map((type) => type.name);

/** The types by name. */
export const QUIZ_TYPE_BY_NAME = Object.fromEntries(QUIZ_TYPE_LIST.map((type) => [type.name, type])) as Record<QuizType, IdiomQuizType<QuizType>>;
