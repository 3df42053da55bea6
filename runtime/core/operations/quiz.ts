/**
 * Interface B (docs/rules.md "Interface B"): the metered `GET /quiz`, `/idiom`, `/idiom/{idx}` and
 * `/search` (through `createMetering`), then the key's own operations (`quizAccount.ts`).
 */
import { schemaRef } from "../../format/schema.ts";
import type { IdiomData, LoadedData } from "../data/load.ts";
import { headers, ok, problem, RATE_LIMIT } from "../docs/responses.ts";
import { QUIZ_TYPE_DOCS } from "../docs/quizTypeDocs.ts";
import { ApiError, invalidParameter } from "../http/errors.ts";
import type { ParsedParams } from "../http/params.ts";
import { searchIdioms } from "../idioms/searchIdioms.ts";
import { type CharacterBank, createCharacterBank } from "../quiz/characterBank.ts";
import { type CharacterQuizMaker, createCharacterQuizMaker } from "../quiz/makeCharacterQuiz.ts";
import { type QuizMaker, type SizedText, createQuizMaker, sample } from "../quiz/makeQuiz.ts";
import { PUBLISHED_TYPES } from "../quiz/types/index.ts";
import { drawQuizzes, isIdiomRequest, typedTypes } from "../routes/drawQuizzes.ts";
import { seededRandom } from "../util/random.ts";
import { createMetering } from "../routes/metering.ts";
import { IDIOM_PARAMS, IDX_PATH, QUIZ_PARAMS, SEARCH_LIMIT, SEARCH_PARAMS } from "../routes/quizParams.ts";
import { type Interface, defineOperation } from "./operation.ts";
import { accountOperations } from "./quizAccount.ts";
import { gradeOperation } from "./quizGrade.ts";
import { METERED, WITH_KEY, badRequest, meteredOk, meteredResponses, quizDoc } from "./quizDocs.ts";

/** The operations of interface B. */
export const quizInterface: Interface = (ctx) => {
  const { base, bases, data, services } = ctx;
  const metering = createMetering({ ...services, trustProxyHops: services.options.trustProxyHops, subscribePath: `${bases.mountPath}${base}/subscribe` });
  const { metered } = metering;
  // The idioms and the quiz fragments are made on the first call of interface B, not at start-up:
  // an embedded app's first character detail does not wait for them.
  let maker: QuizMaker | undefined;
  const quizMaker = () => (maker ??= createQuizMaker(data.idioms.idioms, data.idioms.itemsB, data.idioms.quiz));
  let made: IdiomPool | undefined;
  const pool = () => (made ??= idiomPool(data));
  // The character bank reads every record with 훈음: only when a character quiz or a grade first needs it.
  let bank: CharacterBank | undefined;
  const characterBank = () => (bank ??= createCharacterBank(data));
  let characterMaker: CharacterQuizMaker | undefined;
  const characterQuizMaker = () => (characterMaker ??= createCharacterQuizMaker(characterBank(), data.idioms.itemsB, pool().withheld));

  return [
    defineOperation({
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
            const left = idiomsLeft(data.idioms, pool(), exclude, mature);
            if (left < p.count)
              throw invalidParameter("exclude", `exclude leaves ${left} ${left === 1 ? "idiom" : "idioms"} to ask about; count is ${p.count}`);
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
          const sources = { idiomMaker: quizMaker, characterMaker: characterQuizMaker, ids: services.quizIds, random, idRandom: services.random };
          const framed = (quizzes: SizedText[] | null) => {
            if (!quizzes) throw invalidParameter("exclude", `exclude leaves fewer than ${p.count} idioms to ask about`);
            const extraBytes = quizzes.reduce((sum, q) => sum + q.extraBytes, 0);
            const text = p.count === 1 ? `"quiz":${(quizzes[0] as SizedText).text}` : `"quizzes":[${quizzes.map((q) => q.text).join(",")}]`;
            return { text, extraBytes };
          };
          // Revealed quizzes are drawn at once: only signing reveal=0's ids waits, so only that reply is deferred.
          const drawn = drawQuizzes(p, sources);
          return drawn instanceof Promise ? drawn.then(framed) : framed(drawn);
        },
      ),
    }),
    defineOperation({
      method: "GET",
      path: "/idiom",
      parameters: IDIOM_PARAMS,
      metering: "metered",
      doc: quizDoc({
        operationId: "getRandomIdioms",
        summary: "Random idioms",
        description: `Distinct random idioms as raw records (\`idx\` is an integer here). Idioms withheld from the school set are left out unless \`mature=1\`.\n\n${METERED}`,
        responses: meteredResponses(meteredOk("The idioms.", "IdiomsResponse"), { "400": badRequest("`count` malformed or out of bounds") }),
        examples: [{ description: "Five random idioms", query: { count: "5" } }],
      }),
      handler: metered(
        (p: ParsedParams<typeof IDIOM_PARAMS>) => p,
        (p) => `"idioms":[${sample(p.mature === 1 ? data.idioms.itemsB : pool().schoolItemsB, p.count, services.random).join(",")}]`,
      ),
    }),
    defineOperation({
      method: "GET",
      path: "/idiom/{idx}",
      parameters: { idx: IDX_PATH },
      metering: "metered",
      doc: quizDoc({
        operationId: "getIdiom",
        summary: "One idiom by idx",
        description: `One idiom by its stable idx (currently 1 to ${data.counts.idioms}). An unknown idx is \`404\` and is counted.\n\n${METERED}`,
        responses: meteredResponses(meteredOk("The idiom.", "IdiomResponse"), {
          "400": badRequest("`idx` is not a positive whole number written in digits"),
          "404": problem(404, "No idiom with this idx (`param: idx`). The call was counted.", { codes: ["not_found"], metered: true }),
        }),
        examples: [{ description: "Idiom 8", path: { idx: "8" } }],
      }),
      handler: metered(
        ({ idx: { raw, value: idx } }: ParsedParams<{ idx: typeof IDX_PATH }>) => ({ raw, idx }),
        ({ raw, idx }) => {
          const position = data.idioms.positionOfIdx.get(idx);
          if (position === undefined) throw new ApiError(404, "not_found", `There is no idiom with idx ${raw} (idx runs from 1 to ${pool().maxIdx}).`, "idx");
          return `"idiom":${data.idioms.itemsB[position]}`;
        },
      ),
    }),
    defineOperation({
      method: "GET",
      path: "/search",
      parameters: SEARCH_PARAMS,
      metering: "metered",
      doc: quizDoc({
        operationId: "searchQuizIdioms",
        summary: "Search idioms",
        description:
          `Idioms matching \`q\`, best first, at most ${SEARCH_LIMIT}. ` +
          "Matching and order are those of interface A's idiom search: exact `hanja`/`hangul` first, " +
          "then prefix matches (hanja, hangul, initial consonants), then substring matches, then `meaning` matches by relevance; idx order within each tier.\n\n" +
          METERED,
        responses: meteredResponses(meteredOk("The matches.", "SearchResponse"), { "400": badRequest("`q` missing, blank or over 80 code points") }),
        examples: [
          { description: "By initial consonants", query: { q: "ㄱㄱㄴㅁ" } },
          { description: "By meaning, with the key in the query", query: { q: "은혜", api_key: "$API_KEY" } },
        ],
      }),
      handler: metered(
        (p: ParsedParams<typeof SEARCH_PARAMS>) => p,
        (p) => {
          const matches = searchIdioms(data.idioms, p.q);
          const found = matches.slice(0, SEARCH_LIMIT).map((i) => data.idioms.itemsB[i]);
          return `"query":${JSON.stringify(p.q)},"count":${found.length},"total":${matches.length},"idioms":[${found.join(",")}]`;
        },
      ),
    }),
    gradeOperation(ctx, characterBank),
    ...accountOperations(ctx, metering),
  ];
};

/** What several operations of interface B derive from the idioms. */
interface IdiomPool {
  maxIdx: number;
  /** Positions of the idioms random idioms leave out unless `mature=1` asks for them. */
  withheld: ReadonlySet<number>;
  /** Interface B items of the idioms that are not withheld. */
  schoolItemsB: readonly string[];
}

function idiomPool(data: LoadedData): IdiomPool {
  const withheld = new Set(data.idioms.quiz.mature);
  return {
    maxIdx: data.idioms.idioms.reduce((max, i) => Math.max(max, i.idx), 0),
    withheld,
    schoolItemsB: data.idioms.itemsB.filter((_, p) => !withheld.has(p)),
  };
}

/** How many idioms a quiz may ask about once `exclude` is taken out: a walk over `exclude` (≤ 200), not over every idiom. */
function idiomsLeft(idioms: IdiomData, pool: IdiomPool, exclude: ReadonlySet<number>, mature: boolean): number {
  let left = mature ? idioms.idioms.length : pool.schoolItemsB.length;
  for (const idx of exclude) {
    const position = idioms.positionOfIdx.get(idx);
    if (position !== undefined && (mature || !pool.withheld.has(position))) left--;
  }
  return left;
}
