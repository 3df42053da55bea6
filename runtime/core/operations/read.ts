/**
 * `GET` and `POST /read` of interface A (the reader): the text read in Hangul, with its words.
 * Declared here once: routing, the reference and its tests follow from these declarations. The
 * rules of reading: `read/readText.ts`; of the text: `http/verbatimText.ts`; the handlers:
 * `routes/readHandlers.ts`.
 */
import { CACHED, headers, ok, problem, shared } from "../docs/responses.ts";
import { clientIp } from "../quota/clientIp.ts";
import { readAnswerInSlices } from "../read/readHanja.ts";
import { readHandlers } from "../routes/readHandlers.ts";
import { HEAVY_READ, HEAVY_READS_IN_ALL, HEAVY_READS_PER_CLIENT } from "../routes/heavyReads.ts";
import { READ_BODY_MAX_BYTES, READ_GET_MAX, READ_PARAMS, READ_POST_MAX, READ_POST_PARAMS } from "../routes/readParams.ts";
import type { Caching } from "../http/sender.ts";
import { type InterfaceContext, type Operation, type OperationDoc, defineOperation } from "./operation.ts";
import { count } from "../util/count.ts";

const RULES =
  "Each run of Han characters is split into words of the dictionary (libhangul's hanja dictionary): of all the ways to cover it with dictionary words and single characters, the one with the fewest pieces, then the one whose first piece is longest, then its second, and so on. " +
  "A word takes its dictionary reading; where the dictionary gives several, the standard one (the first of `GET /words`): the initial-sound law at the start of a word (역사, not 력사), 열/율 after a vowel or ㄴ (비율, not 비률), no added ㅅ (기차, not 기찻), the customary sounds 한글 맞춤법 제52항 names (시월, 의논), then the reading the dictionary's longer words agree with (변소 for 便所), then the characters' usual sounds, unless the project's reviewed list of standard readings gives another (沈菜 김치, 寶貝 보배). " +
  "A character no word covers takes its usual reading (the one its dictionary words use most), spelled by its place: the initial-sound law at the start of a run, 열/율 after a vowel or ㄴ, 不 as 부 before ㄷ and ㅈ; characters no word covers next to each other are read as one word (a name), 金 starting two to four of them as the family name 김. A character right after a digit is a bound noun counting it, not under the initial-sound law (1919年 1919년), nor is 年 starting a word there (2025年度 2025년도, 1950年代 1950년대); there 兩 is the bound noun 냥 (5兩 5냥) and 列 the bound noun 열 (3列 3열). " +
  "Everything that is not a Han character is passed through unchanged. A CJK compatibility ideograph is read with its own reading when it has one, else as the character it stands for.";

const ANSWER =
  "The answer: `text` as sent, `hangul` the text read (in the form `format` asks), `segments` the pieces of every run of Han characters with their reading, where it came from (`dictionary`, `characters`, `none`), the dictionary's other readings, their offset in `text`, and links: `href` to a single character's detail, `idiom_idx` to one of the idioms.";

const badText = (limit: string) =>
  problem(
    400,
    `\`text\` is missing or empty, ${limit}, holds a control character other than tab and line breaks, a lone surrogate or a malformed escape; or \`format\` is not one of its values. \`param\` names it and \`detail\` the rule.`,
    { codes: ["invalid_parameter"] },
  );

/** The reference text of a reader operation: interface A's tag, no credentials. */
function doc(fields: Omit<OperationDoc, "tags" | "security" | "pathNote">): OperationDoc {
  return { ...fields, tags: ["Characters"], security: [{}], pathNote: "`GET` (also `HEAD`) and `POST`; other methods: `405` with `Allow`." };
}

/** The reader's two operations, in interface A (`caching`: interface A's ETag). */
export function readOperations({ base, bases, data, services }: InterfaceContext, caching: Caching): Operation[] {
  const reader = readHandlers({
    // The answer's bytes, encoded once here: a string body made of hundreds of pieces would be
    // measured (its UTF-8 length, for Content-Length) and then encoded again by the server as it
    // writes it (test/bench/RESULTS.md "The reader's answer as bytes"); in slices (`read/slices.ts`).
    read: (text, format) => readAnswerInSlices(text, data, { format, base: `${bases.mountPath}${base}` }),
    clientOf: (request, ctx) => (ctx.clientIp ??= clientIp(ctx.clientAddress, request.headers.get("x-forwarded-for"), services.options.trustProxyHops)),
    send: (request, body, options) => services.sendBody(request, body, options),
    caching,
  });
  return [
    defineOperation({
      method: "GET",
      path: "/read",
      parameters: READ_PARAMS,
      metering: "public",
      doc: doc({
        operationId: "readText",
        summary: "Read hanja text in Hangul",
        description: `Reads a text that mixes Han characters with Hangul or anything else, at most ${count(READ_GET_MAX)} characters; for longer texts use \`POST\`.\n\n${RULES}\n\n${ANSWER}\n\nPublic and cacheable: \`Cache-Control: public, max-age=86400\` and a strong \`ETag\`; send \`If-None-Match\` to get \`304\`.`,
        responses: {
          "200": ok("The text and its reading.", "ReadResult", headers(CACHED)),
          "304": shared("NotModified"),
          "400": badText(`over ${count(READ_GET_MAX)} characters`),
          "500": shared("InternalError"),
        },
        examples: [
          { description: "A sentence", query: { text: "大韓民國은 民主共和國이다" } },
          { description: "With the hanja in parentheses", query: { text: "歷史的 事件을 記錄한다", format: "paren" } },
          { description: "As HTML ruby", query: { text: "樂山樂水", format: "ruby" } },
        ],
      }),
      handler: (request, _ctx, params) => reader.get(request, params),
    }),
    defineOperation({
      method: "POST",
      path: "/read",
      parameters: READ_POST_PARAMS,
      metering: "public",
      doc: doc({
        operationId: "readLongText",
        summary: "Read a long hanja text in Hangul",
        description: `As \`GET /read\`, for a text of up to ${count(READ_POST_MAX)} characters sent as the body: \`Content-Type: text/plain\` (the whole body is the text) or \`application/json\` (\`{"text": "…"}\`), UTF-8. \`format\` stays in the query. Not cached (\`Cache-Control: no-store\`). A client (its address) may have ${count(HEAVY_READS_PER_CLIENT)} texts of over ${count(HEAVY_READ)} characters being read at once; another is answered \`429\` at once.`,
        requestBody: {
          description: "The text, as the whole body or as the `text` member of a JSON object.",
          required: true,
          content: {
            "text/plain": { schema: { type: "string", minLength: 1, maxLength: READ_POST_MAX }, example: "六月과 十月에 祝祭가 열린다" },
            "application/json": {
              schema: { type: "object", required: ["text"], properties: { text: { type: "string", minLength: 1, maxLength: READ_POST_MAX } } },
              example: { text: "六月과 十月에 祝祭가 열린다" },
            },
          },
        },
        responses: {
          "200": ok("The text and its reading.", "ReadResult", headers(["Cache-Control"])),
          "400": badText("holds a lone surrogate, the body is not UTF-8 or not a JSON object with a string `text`"),
          "413": problem(413, `The text is over ${count(READ_POST_MAX)} characters, or the body over ${READ_BODY_MAX_BYTES} bytes.`, {
            codes: ["payload_too_large"],
          }),
          "415": problem(415, "The body is not sent as `text/plain` or `application/json` in UTF-8.", { codes: ["unsupported_media_type"] }),
          "429": problem(
            429,
            `The text is over ${count(HEAVY_READ)} characters and this client already has ${count(HEAVY_READS_PER_CLIENT)} such texts being read (or the server ${count(HEAVY_READS_IN_ALL)}); nothing was read, send it again after \`Retry-After\` seconds.`,
            { codes: ["too_many_requests"], extra: headers(["Retry-After"]) },
          ),
          "500": shared("InternalError"),
        },
        examples: [{ description: "A text as JSON", headers: { "Content-Type": "application/json" }, body: { text: "六月과 十月에 祝祭가 열린다" } }],
      }),
      handler: (request, ctx, params) => reader.post(request, params, ctx),
    }),
  ];
}
