/**
 * Interface B (docs/rules.md "Interface B"): the metered `GET /quiz` (`quizDraw.ts`), `/idiom`,
 * `/idiom/{idx}` and `/search` (through `createMetering`), `POST /grade` (`quizGrade.ts`), the class
 * quizzes (`quizClasses.ts`), then the key's own operations (`quizAccount.ts`).
 */
import type { LoadedData } from "../data/load.ts";
import { problem } from "../docs/responses.ts";
import { ApiError } from "../http/errors.ts";
import type { ParsedParams } from "../http/params.ts";
import { searchIdioms } from "../idioms/searchIdioms.ts";
import { type CharacterBank, createCharacterBank } from "../quiz/characterBank.ts";
import { type CharacterQuizMaker, createCharacterQuizMaker } from "../quiz/makeCharacterQuiz.ts";
import { type QuizMaker, createQuizMaker, sample } from "../quiz/makeQuiz.ts";
import { createMetering } from "../routes/metering.ts";
import { SEARCH_LIMIT } from "../../format/quizSchemas.ts";
import { IDIOM_PARAMS, IDX_PATH, SEARCH_PARAMS } from "../routes/quizParams.ts";
import { type Interface, defineOperation } from "./operation.ts";
import { accountOperations } from "./quizAccount.ts";
import { classOperations } from "./quizClasses.ts";
import { drawOperation } from "./quizDraw.ts";
import { gradeOperation } from "./quizGrade.ts";
import { METERED, badRequest, meteredOk, meteredResponses, quizDoc } from "./quizDocs.ts";

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
    drawOperation(ctx, metered, { idiomMaker: quizMaker, characterMaker: characterQuizMaker, pool }),
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
    ...classOperations(ctx, metering, { idiomMaker: quizMaker, characterMaker: characterQuizMaker, bank: characterBank }),
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
