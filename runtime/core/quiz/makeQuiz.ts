/**
 * Multiple-choice quizzes over the idioms (docs/rules.md "Interface B"): the types of
 * `types/index.ts`, distinct choice texts, the answer at a uniformly random position, no distractor
 * that would also be a right answer (the same prompt, or a member of the answer's synonym group),
 * and never the idiom's `literal`.
 */
import type { QuizTables } from "../../format/dist.ts";
import type { IdiomRecord } from "../../format/records.ts";
import { utf8Length } from "../util/utf8Length.ts";
import type { Random } from "../util/random.ts";
import type { QuizClaims } from "./quizId.ts";
import { type IdiomTypeName, PUBLISHED_TYPES, QUIZ_TYPE_LIST, isIdiomType } from "./types/index.ts";
import type { IdiomQuizType, QuizLang } from "./types/quizType.ts";

/** How the wrong choices are drawn: `normal` at random; `hard` from the type's `hardPool`. */
export const DIFFICULTIES = ["normal", "hard"] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export interface QuizRequest {
  /** A fixed type, or undefined for a random type per quiz out of `types`. */
  type: IdiomTypeName | undefined;
  /** The types a random type is drawn from; the published ones when omitted. */
  types?: readonly IdiomTypeName[];
  choices: number;
  count: number;
  /** idx values that must not be answers. */
  exclude: ReadonlySet<number>;
  /** How the wrong choices are drawn; `normal` when omitted. */
  difficulty?: Difficulty;
  /** Also draw the withheld idioms (`QuizTables.mature`), as answers and as wrong choices. */
  mature?: boolean;
  /** The language of the meanings and the instruction; `ko` when omitted. */
  lang?: QuizLang;
}

/**
 * JSON text and how many more bytes than UTF-16 units its UTF-8 takes, so the byte length of a
 * body made of such texts is known without measuring it (`text.length + extraBytes`).
 */
export interface SizedText {
  text: string;
  extraBytes: number;
}

/**
 * A quiz as JSON text after its `quiz_id` (`","type":…}`), with what its id must carry: the id is
 * signed later (`quizId.ts`), and `quizText` puts the two together.
 */
export interface MadeQuiz extends SizedText {
  claims: QuizClaims;
}

/** The JSON text of a made quiz under the id `id` (ASCII: the UTF-8 length grows by its length). */
export function quizText(made: MadeQuiz, id: string): SizedText {
  return { text: `{"quiz_id":"${id}${made.text}`, extraBytes: made.extraBytes };
}

/** Makes quizzes over one idiom list, each as its JSON text (docs/rules.md "Interface B": `quiz_id`, `type`, …, `answer_idiom`). */
export interface QuizMaker {
  /**
   * `count` quizzes with distinct answers drawn from the idioms not excluded, as JSON texts
   * without their ids. Null when fewer than `count` idioms are left to be answers.
   */
  quizzes(request: QuizRequest, random: Random): MadeQuiz[] | null;
  /** Positions of the withheld idioms: no answer or wrong choice unless `mature` is asked for. */
  readonly withheld: ReadonlySet<number>;
}

/** One type's view of every idiom, with the JSON fragments a quiz is assembled from (and their `extraBytes`). */
interface TypeView {
  /** `,"type":…,"question":…,"prompt":` */
  head: string;
  headExtra: number;
  /** Per idiom, the first position whose prompt is the same text (equal texts, equal numbers). */
  promptId: number[];
  promptJson: string[];
  promptExtra: number[];
  /** Per idiom, the first position whose choice text is the same. */
  textId: number[];
  /** A choice after its key: `","text":…,"hangul":…}` */
  choiceTail: string[];
  choiceExtra: number[];
}

/** The start of the choice at `i` up to its key's value: `{"key":"1`, `,{"key":"2`, … */
const choiceHead = (i: number) => `${i === 0 ? "" : ","}{"key":"${i + 1}`;
const CHOICE_HEADS = Array.from({ length: 8 }, (_, i) => choiceHead(i));

/** For each text, the first position holding the same text: equal texts get equal numbers. */
function firstPositions(texts: readonly string[]): number[] {
  const first = new Map<string, number>();
  return texts.map((text, i) => {
    const seen = first.get(text);
    if (seen !== undefined) return seen;
    first.set(text, i);
    return i;
  });
}

/** UTF-8 bytes of `text` beyond one per UTF-16 unit. */
function extraBytes(text: string): number {
  return utf8Length(text) - text.length;
}

/** The types over the idioms, and by name. */
const IDIOM_TYPES = QUIZ_TYPE_LIST.filter(isIdiomType) as IdiomQuizType<IdiomTypeName>[];
const IDIOM_TYPE_BY_NAME = Object.fromEntries(IDIOM_TYPES.map((type) => [type.name, type])) as Record<IdiomTypeName, IdiomQuizType<IdiomTypeName>>;

/** No groups, nothing withheld, no hard pools: every draw is at random. */
const NO_TABLES: QuizTables = { group: [], mature: [], lookalike: [], theme: [] };

/**
 * A quiz maker for `idioms`, whose interface B JSON (`idiomJsonB`, the quiz's `answer_idiom`) is
 * `answerJson`, position for position, and whose groups, withheld idioms and hard pools are
 * `tables` (dist/quiz.json; none when omitted). The JSON of every prompt and choice is made once
 * here, so a request only draws idioms and joins ready fragments.
 */
export function createQuizMaker(idioms: readonly IdiomRecord[], answerJson: readonly string[], tables: QuizTables = NO_TABLES): QuizMaker {
  const answerExtra = answerJson.map(extraBytes);
  const positions = idioms.map((_, i) => i);
  const withheld = new Set(tables.mature);
  const schoolPositions = positions.filter((p) => !withheld.has(p));
  const groupOf = (p: number): readonly number[] => tables.group[p] ?? [];
  /** Every type's view in `lang`. */
  const viewsIn = (lang: QuizLang) =>
    Object.fromEntries(
      IDIOM_TYPES.map((type): [IdiomTypeName, TypeView] => {
        const prompt = idioms.map((idiom) => type.prompt(idiom, lang));
        const promptJson = prompt.map((p) => JSON.stringify(p));
        const text = idioms.map((idiom) => type.text(idiom, lang));
        const head = `","type":"${type.name}","question":${JSON.stringify(type.question[lang])},"prompt":`;
        const choiceTail = idioms.map((idiom, i) => `","text":${JSON.stringify(text[i])},"hangul":${JSON.stringify(idiom.hangul)}}`);
        return [
          type.name,
          {
            head,
            headExtra: extraBytes(head),
            promptId: firstPositions(prompt),
            promptJson,
            promptExtra: promptJson.map(extraBytes),
            textId: firstPositions(text),
            choiceTail,
            choiceExtra: choiceTail.map(extraBytes),
          },
        ];
      }),
    ) as Record<IdiomTypeName, TypeView>;
  // The Korean views are made at once; the English ones when a quiz first asks for them.
  const views: Partial<Record<QuizLang, Record<IdiomTypeName, TypeView>>> = { ko: viewsIn("ko") };

  /** One quiz with the idiom at `answer` as its answer. */
  const quiz = (answer: number, type: IdiomTypeName, size: number, request: QuizRequest, random: Random): MadeQuiz => {
    const lang = request.lang ?? "ko";
    const view = (views[lang] ??= viewsIn(lang))[type];
    const prompt = view.promptId[answer];
    const texts = [view.textId[answer] as number];
    const chosen: number[] = [];
    const group = groupOf(answer);
    const mature = request.mature === true;
    // A candidate already drawn, in the answer's group, withheld, whose text repeats a choice, or
    // that fits the prompt too (a second right answer) is skipped.
    const tried = [answer];
    const offer = (candidate: number) => {
      if (tried.includes(candidate)) return;
      tried.push(candidate);
      if (group.includes(candidate) || (!mature && withheld.has(candidate))) return;
      const text = view.textId[candidate] as number;
      if (texts.includes(text) || view.promptId[candidate] === prompt) return;
      texts.push(text);
      chosen.push(candidate);
    };
    if (request.difficulty === "hard") {
      // The pool in random order, so a hard quiz on the same answer varies; a pool too small
      // (after the skips) is topped up at random below.
      const pool = [...(tables[IDIOM_TYPE_BY_NAME[type].hardPool][answer] ?? [])];
      for (let i = 0; i < pool.length && chosen.length < size - 1; i++) {
        const j = i + random.int(pool.length - i);
        [pool[i], pool[j]] = [pool[j] as number, pool[i] as number];
        offer(pool[i] as number);
      }
    }
    // Random candidates until there are enough; a bounded number of draws keeps a tiny idiom set
    // from looping forever.
    for (let draws = 0; chosen.length < size - 1 && tried.length < idioms.length && draws < idioms.length * 4; draws++) {
      offer(random.int(idioms.length));
    }
    const at = random.int(chosen.length + 1);
    chosen.splice(at, 0, answer);
    let choices = "";
    let extra = view.headExtra + (view.promptExtra[answer] as number) + (answerExtra[answer] as number);
    for (let i = 0; i < chosen.length; i++) {
      const choice = chosen[i] as number;
      choices += (CHOICE_HEADS[i] ?? choiceHead(i)) + view.choiceTail[choice];
      extra += view.choiceExtra[choice] as number;
    }
    const text = `${view.head}${view.promptJson[answer]},"choices":[${choices}],"answer":"${at + 1}","answer_idiom":${answerJson[answer]}}`;
    return { text, extraBytes: extra, claims: { type, typed: false, key: at + 1, subject: answer, blank: 0 } };
  };

  return {
    quizzes(request, random) {
      // Answers are drawn as positions in `idioms`, which index every per-idiom fragment.
      const eligible = request.mature === true ? positions : schoolPositions;
      const pool = request.exclude.size === 0 ? eligible : eligible.filter((p) => !request.exclude.has((idioms[p] as IdiomRecord).idx));
      if (pool.length < request.count) return null;
      return sample(pool, request.count, random).map((answer) => {
        const types = request.types ?? (PUBLISHED_TYPES as readonly IdiomTypeName[]);
        const type = request.type ?? types[random.int(types.length)] ?? "meaning_to_idiom";
        return quiz(answer, type, request.choices, request, random);
      });
    },
    withheld,
  };
}

/** `k` distinct items, uniformly (partial Fisher–Yates; for a few out of many, draws with rejection). */
export function sample<T>(items: readonly T[], k: number, random: Random): T[] {
  if (k * 4 <= items.length) {
    // One item (a single quiz): the same single draw, without the set.
    if (k === 1) return [items[random.int(items.length)] as T];
    const picked = new Set<number>();
    while (picked.size < k) picked.add(random.int(items.length));
    return [...picked].map((i) => items[i] as T);
  }
  const copy = [...items];
  for (let i = 0; i < k && i < copy.length; i++) {
    const j = i + random.int(copy.length - i);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, k);
}
