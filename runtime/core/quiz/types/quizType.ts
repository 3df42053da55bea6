/**
 * What one quiz type is, declared in one place: what it asks and offers, where its `hard` wrong
 * options come from, the sentences the API reference says of it, and the labels the page shows.
 * Each type is one module beside this file; `index.ts` lists them, and the quiz makers, the `type`
 * parameter, the OpenAPI schemas, `/docs`, grading and the page all read that list.
 *
 * A type asks about an idiom (`over: "idioms"`: its prompt and options are idioms' texts) or about
 * a character (`over: "characters"`: its prompt and options come from the character bank, and the
 * type itself says which wrong options would also be right).
 */
import type { QuizTables } from "../../../format/dist.ts";
import type { IdiomRecord } from "../../../format/records.ts";
import type { Asked, CharacterBank, Subject } from "../characterBank.ts";

/** The languages a quiz's meanings and instruction can be in (`lang`). */
export const QUIZ_LANGS = ["ko", "en"] as const;
export type QuizLang = (typeof QUIZ_LANGS)[number];

/** The idiom's meaning in `lang`; the Korean one where the data has no English (a build without idioms-en.csv). */
export function meaningIn(idiom: IdiomRecord, lang: QuizLang): string {
  return lang === "en" ? (idiom.meaning_en ?? idiom.meaning) : idiom.meaning;
}

/** What a prompt or an option shows. */
export type Shown = "meaning" | "hanja" | "hangul" | "hunum";

/** What every quiz type declares, whatever it asks about. */
interface QuizTypeBase<Name extends string> {
  /** The `type` value. */
  readonly name: Name;
  /**
   * Drawn when a request names no `type`: only the types of the published interface are, so a
   * client of that interface never meets a type it did not ask for.
   */
  readonly published: boolean;
  /** The instruction sentence every quiz of the type carries as `question`, per `lang`. */
  readonly question: Readonly<Record<QuizLang, string>>;
  /** The instruction a typed quiz of the type carries instead (`answer_format=typed`: type, not choose); every type that offers typed answers has one. */
  readonly typedQuestion?: Readonly<Record<QuizLang, string>>;
  /**
   * What the prompt and the options show: a meaning (in `lang`), an idiom or a character in hanja,
   * hangul, or a 훈음. The page lays hanja options out as large characters and meanings as
   * sentences, and marks each text with its language.
   */
  readonly shows: { readonly prompt: Shown; readonly options: Shown };
  /** The pool `difficulty=hard` draws wrong options from (`HARD_POOLS` says what it holds). */
  readonly hardPool: HardPool;
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

/** A quiz type over the idioms. */
export interface IdiomQuizType<Name extends string = string> extends QuizTypeBase<Name> {
  readonly over: "idioms";
  readonly hardPool: keyof Pick<QuizTables, "lookalike" | "theme">;
  /** What the quiz asks about, in `lang` where it is a meaning (never the idiom's `literal`: it would read the answer out). */
  prompt(idiom: IdiomRecord, lang: QuizLang): string;
  /** What an option shows for the idiom it stands for, in `lang` where it is a meaning. */
  text(idiom: IdiomRecord, lang: QuizLang): string;
  /**
   * Every standard answer a learner may type for `idioms[position]` (`answer_format=typed`), or
   * absent when the type is multiple choice only.
   */
  typedAnswers?(idioms: readonly IdiomRecord[], position: number): string[];
}

/** A quiz type over the characters with 훈음 (whose prompt or options are characters, readings or 훈음). */
export interface CharacterQuizType<Name extends string = string> extends QuizTypeBase<Name> {
  readonly over: "characters";
  readonly hardPool: "characters";
  /** What a quiz asks about: a character of the pool, or an idiom with one of its characters left out. */
  readonly subject: Subject["kind"];
  /** Whether `answer_format=typed` is offered (the answer is text a learner can type). */
  readonly typed: boolean;
  /** The question about `subject`; null when it cannot be asked (an idiom without a character of the pool). */
  ask(bank: CharacterBank, subject: Subject): Asked | null;
  /**
   * The option the character at `position` offers as a wrong answer to `asked`: its text and the
   * `hangul` shown with it; null when it has none to offer.
   */
  option(bank: CharacterBank, asked: Asked, position: number): { text: string; hangul: string } | null;
  /** True when the option of the character at `position` would also answer `asked`: never offered as wrong. */
  alsoRight(bank: CharacterBank, asked: Asked, position: number): boolean;
  /** The characters whose options look like the answer, most alike first (`difficulty=hard`). */
  lookalikes(bank: CharacterBank, asked: Asked): readonly number[];
  /**
   * Whether one wrong option shows the answer's 음 (its `hangul`) whenever the pool has one, at
   * either difficulty: where the options' `hangul` is a 음 that a learner who knows only readings
   * could otherwise pick the answer by (the 훈음 types).
   */
  readonly sameEumOption: boolean;
}

/** Any quiz type. */
export type AnyQuizType<Name extends string = string> = IdiomQuizType<Name> | CharacterQuizType<Name>;

/** Declares a quiz type (the name's literal type is kept, so the registry yields the `type` union). */
export function quizType<Name extends string>(type: IdiomQuizType<Name>): IdiomQuizType<Name>;
export function quizType<Name extends string>(type: CharacterQuizType<Name>): CharacterQuizType<Name>;
export function quizType<Name extends string>(type: AnyQuizType<Name>): AnyQuizType<Name> {
  return type;
}

/** The pools `difficulty=hard` draws from. */
export type HardPool = "lookalike" | "theme" | "characters";

/** What `difficulty=hard` draws from, per pool, for the reference. */
export const HARD_POOLS: Record<HardPool, string> = {
  lookalike: "the idioms sharing a hanja character, a hangul syllable or the first two initial consonants with it",
  theme: "the idioms whose meanings are closest to its own",
  characters:
    "the characters of the pool that look like the answer's character (the same radical and a stroke count within two), share its 음 with another 훈 or its 훈 with another 음, and their 훈음 or readings",
};
