/** The operations of interface B (docs/rules.md "Interface B") under its configured base. */
import { QUIZ_TYPE_DOCS } from "./quizTypeDocs.ts";
import { PUBLISHED_TYPES } from "../quiz/types/index.ts";
import { QUIZ_ID_TTL_SECONDS } from "../quiz/quizId.ts";
import { MAX_GRADED } from "../routes/gradeRoute.ts";
import { IDIOM_PARAMS, IDX_PATH, QUIZ_PARAMS, SEARCH_LIMIT, SEARCH_PARAMS } from "../routes/quizParams.ts";
import { parameterRefs } from "./parameters.ts";
import { ANNUAL_PRICE_KRW, APPLICATIONS_PER_IP, DAILY_LIMITS, MAX_BODY_BYTES } from "../quota/plans.ts";
import { count } from "../util/count.ts";
import { schemaRef } from "../../format/schema.ts";
import { RATE_LIMIT, headers, ok, problem, quotaExceeded, shared } from "./responses.ts";
import type { Operation, PathItem, Response, SecurityRequirement } from "./types.ts";

const TAG = "Quiz";
const GET_ONLY = "Also answers `HEAD`; other methods: `405` with `Allow`.";
/** A key is optional: the demo runs without one. */
export const OPTIONAL_KEY: SecurityRequirement[] = [{}, { ApiKeyHeader: [] }, { ApiKeyQuery: [] }];

const METERED =
  `Metered: one call of the caller's daily quota (demo ${count(DAILY_LIMITS.demo)} per client IP, free ${count(DAILY_LIMITS.free)}, annual ${count(DAILY_LIMITS.annual)} per key), whatever \`count\`; ` +
  "the rate-limit headers come with the answer. A `400` for a bad parameter is not counted. Not cacheable (`Cache-Control: no-store`).";

/** A `400` is answered before metering: it is not counted and carries no rate-limit headers. */
function badRequest(what: string): Response {
  return problem(400, `Invalid parameter: ${what}; or \`X-API-Key\` and \`api_key\` differ, or \`X-API-Key\` is sent twice. \`param\` names it. Not counted.`, {
    codes: ["invalid_parameter"],
  });
}

/** Responses every metered operation has besides its own. */
function meteredResponses(success: Response, errors: Record<string, Response>): Operation["responses"] {
  return {
    "200": success,
    ...errors,
    "401": shared("InvalidKey"),
    "403": shared("InactiveKey"),
    "429": quotaExceeded(),
    "500": shared("InternalError"),
    "503": shared("StoreUnavailable"),
  };
}

const meteredOk = (description: string, schema: string) => ok(description, schema, headers([...RATE_LIMIT, "Cache-Control"]));

function operation(op: Omit<Operation, "tags">): Operation {
  return { security: OPTIONAL_KEY, ...op, tags: [TAG] };
}

const WITH_KEY = { "X-API-Key": "$API_KEY" };

/** Paths of interface B under `base` (the admin routes are in `adminPaths.ts`). */
export function quizPaths(base: string, idiomCount: number): Record<string, PathItem> {
  return {
    [`${base}/quiz`]: {
      description: GET_ONLY,
      get: operation({
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
        parameters: parameterRefs(QUIZ_PARAMS),
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
        "x-request-examples": [
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
    },
    [`${base}/idiom`]: {
      description: GET_ONLY,
      get: operation({
        operationId: "getRandomIdioms",
        summary: "Random idioms",
        description: `Distinct random idioms as raw records (\`idx\` is an integer here). Idioms withheld from the school set are left out unless \`mature=1\`.\n\n${METERED}`,
        parameters: parameterRefs(IDIOM_PARAMS),
        responses: meteredResponses(meteredOk("The idioms.", "IdiomsResponse"), { "400": badRequest("`count` malformed or out of bounds") }),
        "x-request-examples": [{ description: "Five random idioms", query: { count: "5" } }],
      }),
    },
    [`${base}/idiom/{idx}`]: {
      description: GET_ONLY,
      get: operation({
        operationId: "getIdiom",
        summary: "One idiom by idx",
        description: `One idiom by its stable idx (currently 1 to ${idiomCount}). An unknown idx is \`404\` and is counted.\n\n${METERED}`,
        parameters: parameterRefs({ idx: IDX_PATH }),
        responses: meteredResponses(meteredOk("The idiom.", "IdiomResponse"), {
          "400": badRequest("`idx` is empty (`/idiom/`) or not a positive whole number written in digits"),
          "404": problem(404, "No idiom with this idx (`param: idx`). The call was counted.", { codes: ["not_found"], metered: true }),
        }),
        "x-request-examples": [{ description: "Idiom 8", path: { idx: "8" } }],
      }),
    },
    [`${base}/search`]: {
      description: GET_ONLY,
      get: operation({
        operationId: "searchQuizIdioms",
        summary: "Search idioms",
        description:
          `Idioms matching \`q\`, best first, at most ${SEARCH_LIMIT}. ` +
          "Matching and order are those of interface A's idiom search: exact `hanja`/`hangul` first, " +
          "then prefix matches (hanja, hangul, initial consonants), then substring matches, then `meaning` matches by relevance; idx order within each tier.\n\n" +
          METERED,
        parameters: parameterRefs(SEARCH_PARAMS),
        responses: meteredResponses(meteredOk("The matches.", "SearchResponse"), { "400": badRequest("`q` missing, blank or over 80 code points") }),
        "x-request-examples": [
          { description: "By initial consonants", query: { q: "ㄱㄱㄴㅁ" } },
          { description: "By meaning, with the key in the query", query: { q: "은혜", api_key: "$API_KEY" } },
        ],
      }),
    },
    [`${base}/me`]: {
      description: GET_ONLY,
      get: operation({
        operationId: "getKeyStatus",
        summary: "Status of the calling key",
        description:
          "Plan, status, today's usage and expiry of the key sent (expired and revoked keys are reported too, with `daily_limit` 0). " +
          "Without a key: the caller's demo quota (`plan: demo`, `id` null). Not metered.",
        responses: {
          "200": ok("The key status.", "KeyStatusResponse", headers(["Cache-Control"])),
          "400": badRequest("`X-API-Key` and `api_key` both sent with different values, `X-API-Key` sent twice, or `api_key` given twice"),
          "401": shared("InvalidKey"),
          "500": shared("InternalError"),
          "503": shared("StoreUnavailable"),
        },
        "x-request-examples": [{ description: "Key status", headers: WITH_KEY }, { description: "Demo status (no key)" }],
      }),
    },
    [`${base}/grade`]: {
      description: "Only `POST`; other methods: `405` with `Allow`.",
      post: operation({
        operationId: "gradeQuiz",
        summary: "Grade answers",
        description:
          "Whether an answer to a quiz of `GET /quiz` is right, with the right answer and the idiom or character: for quizzes drawn with `reveal=0`, so that the answers never reach the learner's browser. " +
          `One answer, or a list of up to ${MAX_GRADED}. Stateless: the \`quiz_id\` of a quiz drawn with \`reveal=0\` carries what grading needs, signed with the server's \`QUIZ_SECRET\`, so any instance with the same secret grades it; ` +
          `it can be graded for ${QUIZ_ID_TTL_SECONDS / 3600} hours after it was drawn, as often as asked. A typed answer is right when it is any of the standard answers (every reading, and its initial-sound form; ` +
          "the 훈음 with or without its space) in any Unicode normalisation form.\n\n" +
          "Not metered and no key needed: the question was counted when it was drawn. Not cacheable (`Cache-Control: no-store`).",
        security: [{}],
        requestBody: {
          description: "The answers.",
          required: true,
          content: { "application/json": { schema: schemaRef("GradeRequest"), example: { quiz_id: "qz_…", answer: "2" } } },
        },
        responses: {
          "200": ok(
            "The grade (`result`), or the grades of a list (`results`).",
            { oneOf: [schemaRef("GradeResponse"), schemaRef("GradesResponse")] },
            headers(["Cache-Control"]),
          ),
          "400": problem(
            400,
            "The body is not a UTF-8 JSON object or list of 1–20, an `answer` is not a string of at most 100 characters, or a `quiz_id` was altered, made under another secret or data release, or is over 24 hours old (`param` names `body`, `answer` or `quiz_id`).",
            { codes: ["invalid_parameter"] },
          ),
          "413": problem(413, `The body is over ${MAX_BODY_BYTES} bytes.`, { codes: ["payload_too_large"] }),
          "415": problem(415, "The body is not sent as `Content-Type: application/json`.", { codes: ["unsupported_media_type"] }),
          "500": shared("InternalError"),
        },
        "x-request-examples": [
          { description: "Grade one answer", headers: { "Content-Type": "application/json" }, body: { quiz_id: "$QUIZ_ID", answer: "2" } },
          {
            description: "Grade a list of answers",
            headers: { "Content-Type": "application/json" },
            body: [
              { quiz_id: "$QUIZ_ID", answer: "1" },
              { quiz_id: "$QUIZ_ID", answer: "3" },
            ],
          },
        ],
      }),
    },
    [`${base}/subscribe`]: {
      description: "Only `POST`; other methods: `405` with `Allow`.",
      post: operation({
        operationId: "subscribe",
        summary: "Apply for the annual plan",
        description:
          `Applies for the annual plan (${count(ANNUAL_PRICE_KRW)} KRW a year, bank transfer only) and issues a key at once. Until the operator confirms the deposit ` +
          `the key is on the free plan (\`pending_deposit\`, ${count(DAILY_LIMITS.free)} calls a day); then it becomes \`annual\` (${count(DAILY_LIMITS.annual)} calls a day) for one year.\n\n` +
          `The key is shown only in this response; the service keeps only its hash. Body: \`Content-Type: application/json\`, at most ${MAX_BODY_BYTES} bytes. ` +
          `At most ${APPLICATIONS_PER_IP} applications per client IP per day. One pending application per e-mail address. ` +
          "Personal data is never logged and never returned by the public interface. Not metered; no key needed (a key sent is ignored).",
        security: [{}],
        requestBody: {
          description: "The application.",
          required: true,
          content: {
            "application/json": { schema: schemaRef("SubscribeRequest"), example: { name: "홍길동", email: "gildong@example.com", depositor: "홍길동" } },
          },
        },
        responses: {
          "201": ok("Key issued; payment instructions.", "SubscribeResponse", headers(["Cache-Control"])),
          "400": problem(
            400,
            "The body is not a UTF-8 JSON object, or a field is missing or invalid (`param` names it: `body`, `name`, `email`, `phone`, `depositor`).",
            {
              codes: ["invalid_parameter"],
            },
          ),
          "409": problem(409, "An application with this e-mail is already awaiting its deposit (`param: email`).", { codes: ["conflict"] }),
          "413": problem(413, `The body is over ${MAX_BODY_BYTES} bytes.`, { codes: ["payload_too_large"] }),
          "415": problem(415, "The body is not sent as `Content-Type: application/json`.", { codes: ["unsupported_media_type"] }),
          "429": problem(429, `More than ${APPLICATIONS_PER_IP} applications from this client IP today.`, {
            codes: ["quota_exceeded"],
            extra: headers(["Retry-After"]),
          }),
          "500": shared("InternalError"),
          "503": shared("StoreUnavailable"),
        },
        "x-request-examples": [
          {
            description: "Apply",
            headers: { "Content-Type": "application/json" },
            body: { name: "홍길동", email: "gildong@example.com", depositor: "홍길동" },
          },
        ],
      }),
    },
  };
}
