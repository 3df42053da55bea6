/**
 * Interface B: `GET /quiz`, `/idiom`, `/idiom/{idx}`, `/search` (metered, through `createMetering`),
 * `GET /me`, `POST /subscribe` (the rules: docs/rules.md "Interface B").
 */
import type { IdiomData, LoadedData } from "../data/load.ts";
import { ApiError, invalidParameter } from "../http/errors.ts";
import { parsePath, parseQuery, refuseEmptySegment } from "../http/params.ts";
import { searchIdioms } from "../idioms/searchIdioms.ts";
import { type QuizMaker, type SizedText, createQuizMaker, sample } from "../quiz/makeQuiz.ts";
import { quotaDay } from "../quota/clock.ts";
import { daysLeft, keyStatus } from "../quota/keyActions.ts";
import { recentUsage } from "../quota/usage.ts";
import { seededRandom } from "../util/random.ts";
import type { Route } from "./context.ts";
import { createMetering } from "./metering.ts";
import type { QuizConfig } from "./quizConfig.ts";
import { IDIOM_PARAMS, IDX_PATH, QUIZ_PARAMS, SEARCH_LIMIT, SEARCH_PARAMS } from "./quizParams.ts";
import { subscribeHandler } from "./subscribe.ts";

/** The routes of interface B under `base`. */
export function quizRoutes(base: string, data: LoadedData, config: QuizConfig): Route[] {
  const { sendBody } = config;
  const { metered, caller: callerOf, ipOf } = createMetering({ ...config, subscribePath: `${config.mountPath ?? ""}${base}/subscribe` });
  // The idioms and the quiz fragments are made on the first call of interface B, not at start-up:
  // an embedded app's first character detail does not wait for them.
  let maker: QuizMaker | undefined;
  const quizMaker = () => (maker ??= createQuizMaker(data.idioms.idioms, data.idioms.itemsB, data.idioms.quiz));
  let made: IdiomPool | undefined;
  const pool = () => (made ??= idiomPool(data));

  return [
    {
      method: "GET",
      path: `${base}/quiz`,
      handler: metered(
        (_request, query) => {
          const p = parseQuery(query, QUIZ_PARAMS);
          const exclude = new Set(p.exclude);
          const mature = p.mature === 1;
          // Checked here, before metering: a request rejected with 400 is not counted.
          const left = idiomsLeft(data.idioms, pool(), exclude, mature);
          if (left < p.count) throw invalidParameter("exclude", `exclude leaves ${left} ${left === 1 ? "idiom" : "idioms"} to ask about; count is ${p.count}`);
          return { ...p, exclude, mature, difficulty: p.difficulty ?? QUIZ_PARAMS.difficulty.documentedDefault };
        },
        (p) => {
          // A seed makes the draw repeatable; quiz ids still come from the platform CSPRNG, so they stay unique.
          const random = p.seed === undefined ? config.random : seededRandom(p.seed);
          const quizzes = quizMaker().quizzes(p, random, config.random);
          if (!quizzes) throw invalidParameter("exclude", `exclude leaves fewer than ${p.count} idioms to ask about`);
          const extraBytes = quizzes.reduce((sum, q) => sum + q.extraBytes, 0);
          const text = p.count === 1 ? `"quiz":${(quizzes[0] as SizedText).text}` : `"quizzes":[${quizzes.map((q) => q.text).join(",")}]`;
          return { text, extraBytes };
        },
      ),
    },
    {
      method: "GET",
      path: `${base}/idiom`,
      handler: metered(
        (request, query) => {
          refuseEmptySegment(request.url, "idx", "give a positive whole number, e.g. /idiom/1");
          return parseQuery(query, IDIOM_PARAMS);
        },
        (p) => `"idioms":[${sample(p.mature === 1 ? data.idioms.itemsB : pool().schoolItemsB, p.count, config.random).join(",")}]`,
      ),
    },
    {
      method: "GET",
      path: `${base}/idiom/:idx`,
      handler: metered(
        (request) => {
          const { raw, value } = parsePath("idx", request.params.idx ?? "", IDX_PATH);
          return { raw, idx: value };
        },
        ({ raw, idx }) => {
          const position = data.idioms.positionOfIdx.get(idx);
          if (position === undefined) throw new ApiError(404, "not_found", `There is no idiom with idx ${raw} (idx runs from 1 to ${pool().maxIdx}).`, "idx");
          return `"idiom":${data.idioms.itemsB[position]}`;
        },
      ),
    },
    {
      method: "GET",
      path: `${base}/search`,
      handler: metered(
        (_request, query) => parseQuery(query, SEARCH_PARAMS),
        (p) => {
          const matches = searchIdioms(data.idioms, p.q);
          const found = matches.slice(0, SEARCH_LIMIT).map((i) => data.idioms.itemsB[i]);
          return `"query":${JSON.stringify(p.q)},"count":${found.length},"total":${matches.length},"idioms":[${found.join(",")}]`;
        },
      ),
    },
    {
      method: "GET",
      path: `${base}/me`,
      handler: async (request, ctx) => {
        const caller = await callerOf(request, ctx);
        const now = caller.at;
        const { day, resetsAt } = quotaDay(now, config.offsetMinutes);
        const { limit } = caller;
        const key = caller.key;
        // The history is read with today's count: both come from the store at once.
        const [used, usage] = await Promise.all([config.store.used(caller.bucket, day), key ? recentUsage(config.store, key.id, day) : null]);
        const body = {
          success: true,
          key: {
            id: key?.id ?? null,
            plan: caller.plan,
            status: key ? keyStatus(key, now) : "active",
            daily_limit: limit,
            used_today: used,
            remaining: Math.max(0, limit - used),
            resets_at: resetsAt.toISOString(),
            expires_at: key?.expires_at ?? null,
            days_left: key ? daysLeft(key, now) : null,
            created_at: key?.created_at ?? null,
            usage,
          },
        };
        return sendBody(request, JSON.stringify(body), { caching: "no-store" });
      },
    },
    {
      method: "POST",
      path: `${base}/subscribe`,
      handler: (request, ctx) => subscribeHandler(request, { ...config, ip: ipOf(request, ctx) }),
    },
  ];
}

/** What several routes of interface B derive from the idioms. */
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
