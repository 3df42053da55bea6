/**
 * Interface B's `GET /quiz`, in one place: its declaration (parameters, reference text, metering),
 * the check of its parameters together before the call is counted, and the draw from them: which
 * maker draws (the idiom maker for the idiom types' multiple-choice quizzes, as the published
 * interface has them; the character maker for the character types and typed answers), and for
 * `reveal=0` the answers left out and the ids signed.
 */
import { schemaRef } from "../../format/schema.ts";
import type { IdiomData } from "../data/load.ts";
import { QUIZ_TYPE_DOCS } from "../docs/quizTypeDocs.ts";
import { RATE_LIMIT, headers, ok } from "../docs/responses.ts";
import { invalidParameter } from "../http/errors.ts";
import type { ParsedParams } from "../http/params.ts";
import type { Metering } from "../routes/metering.ts";
import { QUIZ_PARAMS } from "../routes/quizParams.ts";
import { type Random, randomBase62, seededRandom } from "../util/random.ts";
import { utf8Length } from "../util/utf8Length.ts";
import type { Level } from "../quiz/characterBank.ts";
import type { CharacterQuizMaker } from "../quiz/makeCharacterQuiz.ts";
import { type Difficulty, type MadeQuiz, type QuizMaker, type SizedText, quizText } from "../quiz/makeQuiz.ts";
import type { QuizIds } from "../quiz/quizId.ts";
import { type IdiomTypeName, PUBLISHED_TYPES, QUIZ_TYPE_BY_NAME, type QuizType, TYPED_TYPES, isIdiomType } from "../quiz/types/index.ts";
import type { QuizLang } from "../quiz/types/quizType.ts";
import { type InterfaceContext, type Operation, defineOperation } from "./operation.ts";
import { METERED, WITH_KEY, badRequest, meteredResponses, quizDoc } from "./quizDocs.ts";

/** What `GET /quiz` draws from: interface B's makers and idiom pool (`quiz.ts`), each made on first use. */
export interface DrawSources extends Pick<QuizSources, "idiomMaker" | "characterMaker"> {
  pool(): DrawPool;
}

/** Of interface B's idiom pool, what `exclude` is checked against. */
export interface DrawPool {
  /** Positions of the idioms left out unless `mature=1` asks for them. */
  withheld: ReadonlySet<number>;
  /** Interface B items of the idioms that are not withheld. */
  schoolItemsB: readonly string[];
}

/** `GET /quiz`: its declaration, the check of its parameters before metering, and the draw. */
export function drawOperation({ data, services }: InterfaceContext, metered: Metering["metered"], sources: DrawSources): Operation {
  return defineOperation({
    method: "GET",
    path: "/quiz",
    parameters: QUIZ_PARAMS,
    metering: "metered",
    doc: quizDoc({
      operationId: "getQuiz",
      summary: "Random quiz",
      description:
        "Auto-generated quizzes over the idioms and, when asked for, the characters; the answer is included for local grading unless `reveal=0`.\n\n" +
        `${QUIZ_TYPE_DOCS.list.join("\n")}\n\n` +
        `Without \`type\` a quiz is one of the published types (${PUBLISHED_TYPES.map((t) => `\`${t}\``).join(", ")}); the others are drawn only when \`type\` names them. ` +
        "The character types draw from the `level` pool; a quiz answers with `answer_character` (and `answer_idiom` for `idiom_blank`). " +
        "No wrong option would also be right: not a character with the prompt's 훈음 or a variant of the answer (歎/嘆), not another reading of the character (樂: 락, 낙, 악, 요), " +
        "not a character that completes another of the idioms.\n\n" +
        "Choices are distinct in `text`, shuffled and keyed `1`…`n`; exactly one is correct and its position is uniform. " +
        "`count` = 1 returns `{success, quiz, quota}`; `count` > 1 returns `{success, quizzes, quota}` with distinct answers.\n\n" +
        "A quiz never shows an idiom's `literal` (it would read the answer out) and never offers a wrong option from the answer's synonym group " +
        "(idioms a fair reader could take for the same answer). `difficulty=hard` draws look-alike options; `seed` repeats a draw; idioms withheld from the " +
        "school set are left out unless `mature=1`.\n\n" +
        METERED,
      responses: meteredResponses(
        ok(
          "One quiz (`count` = 1) or several (`count` > 1).",
          { oneOf: [schemaRef("QuizResponse"), schemaRef("QuizzesResponse")] },
          headers([...RATE_LIMIT, "Cache-Control"]),
        ),
        {
          "400": badRequest(
            "a type, level or difficulty outside the list, a bound crossed, `answer_format=typed` with a type that has no typed answer, or `exclude` leaving fewer than `count` idioms",
          ),
        },
      ),
      examples: [
        { description: "One quiz as the demo (no key)" },
        {
          description: "Three hangul_to_hanja quizzes with 5 options, with a key",
          query: { type: "hangul_to_hanja", choices: "5", count: "3" },
          headers: WITH_KEY,
        },
        { description: "Keep already-seen idioms out", query: { exclude: "1,2,3" } },
        { description: "The same ten hard quizzes for a whole class", query: { difficulty: "hard", count: "10", seed: "20260901" } },
        { description: "훈음 → character, education hanja", query: { type: "hunum_to_hanja", seed: "7" } },
        { description: "Character → 훈음, hard options", query: { type: "hanja_to_hunum", difficulty: "hard", seed: "7" } },
        { description: "Character → reading, typed answer", query: { type: "hanja_to_reading", answer_format: "typed", level: "all" } },
        { description: "Fill the blank of an idiom", query: { type: "idiom_blank", seed: "7" } },
        {
          description: "A mixed set without the answers, for grading on the server",
          query: { type: "hunum_to_hanja,idiom_blank,hangul_to_hanja", count: "5", reveal: "0" },
        },
      ],
    }),
    handler: metered(
      (p: ParsedParams<typeof QUIZ_PARAMS>) => {
        const exclude = new Set(p.exclude);
        const mature = p.mature === 1;
        const typed = p.answer_format === "typed";
        const type = typed ? typedTypes(p.type) : p.type;
        // Checked here, before metering: a request rejected with 400 is not counted.
        if (isIdiomRequest({ type, typed })) {
          const left = idiomsLeft(data.idioms, sources.pool(), exclude, mature);
          if (left < p.count) throw invalidParameter("exclude", `exclude leaves ${left} ${left === 1 ? "idiom" : "idioms"} to ask about; count is ${p.count}`);
        }
        // Written out, not spread from `p` (which costs more than a quiz's draw).
        return {
          choices: p.choices,
          count: p.count,
          seed: p.seed,
          type,
          exclude,
          mature,
          typed,
          reveal: p.reveal === 1,
          difficulty: p.difficulty ?? QUIZ_PARAMS.difficulty.documentedDefault,
          lang: p.lang ?? QUIZ_PARAMS.lang.documentedDefault,
          level: p.level ?? QUIZ_PARAMS.level.documentedDefault,
        };
      },
      (p) => {
        // A seed makes the draw repeatable; quiz ids still come from the platform CSPRNG, so they stay unique.
        const random = p.seed === undefined ? services.random : seededRandom(p.seed);
        const drawing = { idiomMaker: sources.idiomMaker, characterMaker: sources.characterMaker, ids: services.quizIds, random, idRandom: services.random };
        const framed = (quizzes: SizedText[] | null) => {
          if (!quizzes) throw invalidParameter("exclude", `exclude leaves fewer than ${p.count} idioms to ask about`);
          const extraBytes = quizzes.reduce((sum, q) => sum + q.extraBytes, 0);
          const text = p.count === 1 ? `"quiz":${(quizzes[0] as SizedText).text}` : `"quizzes":[${quizzes.map((q) => q.text).join(",")}]`;
          return { text, extraBytes };
        };
        // Hidden quizzes of a seed draw from the seed keyed with the server's secret (`drawSeed`): the
        // class that shares the seed gets the same quizzes, but the seed drawn with reveal=1 gives
        // other quizzes, not these with their answers.
        if (p.seed !== undefined && !p.reveal) {
          return services.quizIds
            .drawSeed(p.seed)
            .then((keyed) => drawQuizzes(p, { ...drawing, random: seededRandom(keyed) }))
            .then(framed);
        }
        // Revealed quizzes are drawn at once: only signing reveal=0's ids waits, so only that reply is deferred.
        const drawn = drawQuizzes(p, drawing);
        return drawn instanceof Promise ? drawn.then(framed) : framed(drawn);
      },
    ),
  });
}

/** How many idioms a quiz may ask about once `exclude` is taken out: a walk over `exclude` (≤ 200), not over every idiom. */
function idiomsLeft(idioms: IdiomData, pool: DrawPool, exclude: ReadonlySet<number>, mature: boolean): number {
  let left = mature ? idioms.idioms.length : pool.schoolItemsB.length;
  for (const idx of exclude) {
    const position = idioms.positionOfIdx.get(idx);
    if (position !== undefined && (mature || !pool.withheld.has(position))) left--;
  }
  return left;
}

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
function isIdiomRequest(p: Pick<QuizParams, "type" | "typed">): boolean {
  return !p.typed && p.type.every((name) => isIdiomType(QUIZ_TYPE_BY_NAME[name]));
}

/**
 * The quizzes of a request as JSON texts with their ids; null when too few answers are left. At
 * once for revealed quizzes (the published interface's, which need no signing), so their reply is
 * not put off to a later turn; a promise only while the ids of `reveal=0` are signed.
 */
function drawQuizzes(p: QuizParams, sources: QuizSources): SizedText[] | null | Promise<SizedText[] | null> {
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
export function draw(p: QuizParams, sources: Pick<QuizSources, "idiomMaker" | "characterMaker" | "random">): MadeQuiz[] | null {
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

export function withoutAnswers(quiz: SizedText): SizedText {
  const object = JSON.parse(quiz.text) as Record<string, unknown> & { choices: { key: string; text: string; hangul?: string }[] };
  for (const field of ANSWER_FIELDS) delete object[field];
  object.choices = object.choices.map(({ key, text }) => ({ key, text }));
  const text = JSON.stringify(object);
  return { text, extraBytes: utf8Length(text) - text.length };
}
