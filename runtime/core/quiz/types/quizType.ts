/**
 * What one quiz type is, declared in one place: what it asks and offers, where its `hard` wrong
 * options come from, the sentences the API reference says of it, and the labels the page shows.
 * Each type is one module beside this file; `index.ts` lists them, and the quiz maker, the `type`
 * parameter, the OpenAPI schemas, `/docs` and the page all read that list.
 */
import type { QuizTables } from "../../../format/dist.ts";
import type { IdiomRecord } from "../../../format/records.ts";

/** The languages a quiz's meanings and instruction can be in (`lang`). */
export const QUIZ_LANGS = ["ko", "en"] as const;
export type QuizLang = (typeof QUIZ_LANGS)[number];

/** The idiom's meaning in `lang`; the Korean one where the data has no English (a build without idioms-en.csv). */
export function meaningIn(idiom: IdiomRecord, lang: QuizLang): string {
  return lang === "en" ? (idiom.meaning_en ?? idiom.meaning) : idiom.meaning;
}

/** What a prompt or an option shows. */
export type Shown = "meaning" | "hanja" | "hangul";

/** A quiz type over the idioms. */
export interface IdiomQuizType<Name extends string = string> {
  /** The `type` value. */
  readonly name: Name;
  /** The instruction sentence every quiz of the type carries as `question`, per `lang`. */
  readonly question: Readonly<Record<QuizLang, string>>;
  /** What the quiz asks about, in `lang` where it is a meaning (never the idiom's `literal`: it would read the answer out). */
  prompt(idiom: IdiomRecord, lang: QuizLang): string;
  /** What an option shows for the idiom it stands for, in `lang` where it is a meaning. */
  text(idiom: IdiomRecord, lang: QuizLang): string;
  /**
   * What the prompt and the options show: a meaning (in `lang`), an idiom in hanja or its hangul.
   * The page lays hanja options out as large characters and meanings as sentences, and marks each
   * text with its language.
   */
  readonly shows: { readonly prompt: Shown; readonly options: Shown };
  /** The table of `dist/quiz.json` that `difficulty=hard` draws wrong options from, per answer. */
  readonly hardPool: keyof Pick<QuizTables, "lookalike" | "theme">;
  /** Sentences of the API reference. */
  readonly docs: {
    /** The `prompt`, as a noun phrase: "a meaning". */
    readonly prompt: string;
    /** An option's `text`, as a noun phrase: "an idiom in hanja". */
    readonly text: string;
    /** The `hangul` of an option, as a noun phrase: "its reading". */
    readonly hangul: string;
  };
  /** The page's name of the type, per interface language. */
  readonly labels: { readonly ko: string; readonly en: string };
}

/** Declares a quiz type (the name's literal type is kept, so the registry yields the `type` union). */
export function quizType<Name extends string>(type: IdiomQuizType<Name>): IdiomQuizType<Name> {
  return type;
}

/** What `difficulty=hard` draws from, per table, for the reference. */
export const HARD_POOLS: Record<IdiomQuizType["hardPool"], string> = {
  lookalike: "the idioms sharing a hanja character, a hangul syllable or the first two initial consonants with it",
  theme: "the idioms whose meanings are closest to its own",
};
