/**
 * Interface B (SPEC §4): `GET /quiz`, `/idiom`, `/idiom/{idx}`, `/search` (metered), `GET /me`,
 * `POST /subscribe`.
 */
import type { IRequest } from "itty-router";
import type { LoadedData } from "../data/load.ts";
import { ApiError, invalidParameter } from "../http/errors.ts";
import { type RawQuery, parsePath, parseQuery, queryOf, refuseEmptySegment } from "../http/params.ts";
import type { Reply } from "../http/reply.ts";
import type { Send } from "../http/respond.ts";
import { searchIdioms } from "../idioms/searchIdioms.ts";
import { type QuizMaker, type SizedText, createQuizMaker, sample } from "../quiz/makeQuiz.ts";
import { type Random, seededRandom } from "../quiz/random.ts";
import { clientIp } from "../quota/clientIp.ts";
import { quotaDay } from "../quota/clock.ts";
import { type MeterConfig, type Metered, identify, meter, presentedKey, andThen } from "../quota/meter.ts";
import { keyStatus } from "../quota/keyActions.ts";
import type { QuotaStore } from "../quota/store.ts";
import type { RequestContext, Route } from "./context.ts";
import { IDIOM_PARAMS, IDX_PATH, QUIZ_PARAMS, SEARCH_LIMIT, SEARCH_PARAMS } from "./quizParams.ts";
import { subscribeHandler } from "./subscribe.ts";

/** What interface B needs besides the data. */
export interface QuizConfig {
  store: QuotaStore;
  now: () => Date;
  random: Random;
  /** Minutes east of UTC of the metering day (Asia/Seoul: 540). */
  offsetMinutes: number;
  /** Trusted reverse-proxy hops in front of the server (0: use the socket's peer). */
  trustProxyHops: number;
  /** Bank account text shown in the payment instructions. */
  bankAccount: string;
  /** The app's body sender. */
  sendBody: Send;
  /** The prefix a host strips before requests reach the service (links carry it), default none. */
  mountPath?: string;
}

const NO_STORE = "no-store" as const;

/** The routes of interface B under `base`. */
export function quizRoutes(base: string, data: LoadedData, config: QuizConfig): Route[] {
  const { sendBody } = config;
  const meterConfig: MeterConfig = { store: config.store, now: config.now, offsetMinutes: config.offsetMinutes, subscribePath: `${config.mountPath ?? ""}${base}/subscribe` };
  // The idioms and the quiz fragments are made on the first call of interface B, not at start-up:
  // an embedded app's first character detail does not wait for them.
  let maker: QuizMaker | undefined;
  const quizMaker = () => (maker ??= createQuizMaker(data.idioms.idioms, data.idioms.itemsB, data.idioms.quiz));
  let made: IdiomPool | undefined;
  const pool = () => (made ??= idiomPool(data));

  /**
   * Validates first (a 400 is not metered), then identifies the caller and counts the call.
   * `answer` returns the body's members as JSON text (`"quiz":{…}`), framed with `success` and
   * `quota`; as a `SizedText` when it knows its UTF-8 length.
   */
  const metered =
    <P>(parse: (request: IRequest, query: RawQuery) => P, answer: (params: P) => string | SizedText) =>
    (request: IRequest, ctx: RequestContext): Reply | Promise<Reply> => {
      const query = queryOf(request.url);
      const params = parse(request, query);
      return andThen(identify(meterConfig, presentedKey(request, query), () => ipOf(request, ctx)), (caller) => {
        ctx.plan = caller.plan;
        return meter(meterConfig, caller, (counted) => reply(request, params, answer, counted));
      });
    };

  /** The body of a counted call: the members `answer` gives, framed with `success` and `quota`. */
  const reply = <P>(request: IRequest, params: P, answer: (params: P) => string | SizedText, { headers, quota }: Metered): Reply | Promise<Reply> => {
    try {
      const members = answer(params);
      const sized = typeof members !== "string";
      // The framing is ASCII: the body's UTF-8 length is its length plus the members' extra bytes.
      const body = `{"success":true,${sized ? members.text : members},"quota":{"plan":"${quota.plan}","remaining":${quota.remaining}}}`;
      return sendBody(request, body, { caching: NO_STORE, headers, byteLength: sized ? body.length + members.extraBytes : undefined });
    } catch (error) {
      if (error instanceof ApiError) throw new ApiError(error.status, error.code, error.detail, error.param, { ...error.headers, ...headers });
      throw error;
    }
  };

  const ipOf = (request: IRequest, ctx: RequestContext) =>
    (ctx.clientIp ??= clientIp(ctx.clientAddress, request.headers.get("x-forwarded-for"), config.trustProxyHops));

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
          const { withheld } = pool();
          const left = data.idioms.idioms.reduce((n, i, position) => (exclude.has(i.idx) || (!mature && withheld.has(position)) ? n : n + 1), 0);
          if (left < p.count) throw invalidParameter("exclude", `exclude leaves ${left} idioms to ask about; count is ${p.count}`);
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
        const caller = await identify(meterConfig, presentedKey(request, queryOf(request.url)), () => ipOf(request, ctx), true);
        ctx.plan = caller.plan;
        const now = caller.at;
        const { day, resetsAt } = quotaDay(now, config.offsetMinutes);
        const { limit } = caller;
        const used = await config.store.used(caller.bucket, day);
        const key = caller.key;
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
            created_at: key?.created_at ?? null,
          },
        };
        return sendBody(request, JSON.stringify(body), { caching: NO_STORE });
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
