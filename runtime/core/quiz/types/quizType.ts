/**
 * What one quiz type is, declared in one place: what it asks and offers, where its `hard` wrong
 * options come from, the sentences the API reference says of it, and the labels the page shows.
 * Each type is one module beside this file; `index.ts` lists them, and the quiz maker, the `type`
 * parameter, the OpenAPI schemas, `/docs` and the page all read that list.
 */
import type { QuizTables } from "../../../format/dist.ts";
import type { IdiomRecord } from "../../../format/records.ts";

/** A quiz type over the idioms. */
export interface IdiomQuizType<Name extends string = string> {
  /** The `type` value. */
  readonly name: Name;
  /** The Korean instruction sentence every quiz of the type carries as `question`. */
  readonly question: string;
  /** What the quiz asks about (never the idiom's `literal`: it would read the answer out). */
  prompt(idiom: IdiomRecord): string;
  /** What an option shows for the idiom it stands for. */
  text(idiom: IdiomRecord): string;
  /** What an option shows: hanja (the page lays them out as large characters) or text (a sentence each). */
  readonly options: "hanja" | "text";
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
