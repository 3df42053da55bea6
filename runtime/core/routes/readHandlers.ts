/**
 * `GET /read?text=` and `POST /read` (a `text/plain` body, or JSON `{"text": …}`): the text read,
 * in the form `format=` asks. The rules of the text: `http/verbatimText.ts`; the limits:
 * `readParams.ts`; the reading: `read/readText.ts`.
 */
import { readBody, refuseOtherCharset } from "../http/body.ts";
import { ApiError, invalidParameter } from "../http/errors.ts";
import type { ParsedParams } from "../http/params.ts";
import type { Reply, RequestLike } from "../http/reply.ts";
import type { Caching, Send } from "../http/sender.ts";
import { verbatimTextProblem } from "../http/verbatimText.ts";
import type { ReadFormat } from "../read/formatReading.ts";
import { readResultJson } from "../read/readResultJson.ts";
import type { ReadResult } from "../../format/records.ts";
import { parseJson } from "./jsonBody.ts";
import { READ_BODY_MAX_BYTES, type READ_PARAMS, READ_POST_MAX, type READ_POST_PARAMS } from "./readParams.ts";

/** What the handlers need: the reading (with the service's links), the sender and interface A's caching. */
export interface ReadDeps {
  read(text: string, format: ReadFormat): ReadResult;
  send: Send;
  caching: Caching;
}

/** The two handlers of `/read`. */
export function readHandlers({ read, send, caching }: ReadDeps): {
  get(request: RequestLike, params: ParsedParams<typeof READ_PARAMS>): Reply | Promise<Reply>;
  post(request: RequestLike, params: ParsedParams<typeof READ_POST_PARAMS>): Promise<Reply>;
} {
  return {
    get(request, { text, format }) {
      // Each text is its own answer: kept out of the caches of remembered answers (`keep: false`).
      return send(request, answerBytes(read(text, format ?? "hangul")), { caching, keep: false });
    },
    async post(request, { format }) {
      const text = await bodyText(request);
      const problem = verbatimTextProblem("text", text, READ_POST_MAX);
      if (problem?.rule === "too_long") throw new ApiError(413, "payload_too_large", `${problem.detail}: send at most ${READ_POST_MAX} characters a request`);
      // verbatimTextProblem names a missing text, so text is a string past this line.
      if (problem !== undefined || text === undefined) throw invalidParameter("text", problem?.detail ?? "text is required");
      return send(request, answerBytes(read(text, format ?? "hangul")), { caching: "no-store" });
    },
  };
}

const encoder = new TextEncoder();

/**
 * A reading's answer, encoded once here: a string body made of hundreds of pieces would be
 * measured (its UTF-8 length, for Content-Length) and then encoded again by the server as it
 * writes it (test/bench/RESULTS.md "The reader's answer as bytes").
 */
function answerBytes(result: ReadResult): Uint8Array<ArrayBuffer> {
  return encoder.encode(readResultJson(result));
}

const TOO_LARGE = `The body may be at most ${READ_BODY_MAX_BYTES} bytes (and its text at most ${READ_POST_MAX} characters).`;

/** The text of a `POST /read` body: the whole body for `text/plain`, the `text` member of a JSON object. */
async function bodyText(request: RequestLike): Promise<string | undefined> {
  const type = request.headers.get("content-type") ?? "";
  const media = type.split(";")[0]?.trim().toLowerCase() ?? "";
  if (media !== "text/plain" && media !== "application/json") {
    throw new ApiError(
      415,
      "unsupported_media_type",
      `Send the text as Content-Type: text/plain or application/json (got ${JSON.stringify(type.slice(0, 60) || "none")}).`,
    );
  }
  refuseOtherCharset(type, "the text as UTF-8");
  const body = await readBody(request, READ_BODY_MAX_BYTES, TOO_LARGE);
  if (media === "text/plain") return body;
  const value = parseJson(body);
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalidParameter("body", 'The body must be a JSON object: {"text": "…"}.');
  const text = (value as Record<string, unknown>).text;
  if (text !== undefined && typeof text !== "string")
    throw invalidParameter("text", `text must be a string; got ${Array.isArray(text) ? "an array" : typeof text}`);
  return text;
}
