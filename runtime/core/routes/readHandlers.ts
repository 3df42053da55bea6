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
import type { RequestContext } from "./context.ts";
import { HeavyReads, isHeavyRead } from "./heavyReads.ts";
import { parseJson } from "./jsonBody.ts";
import { READ_BODY_MAX_BYTES, type READ_PARAMS, READ_POST_MAX, type READ_POST_PARAMS } from "./readParams.ts";

/** What the handlers need: the reading (the answer's bytes, with the service's links), the client's address, the sender and interface A's caching. */
export interface ReadDeps {
  read(text: string, format: ReadFormat): Promise<Uint8Array<ArrayBuffer>>;
  /** The address a client's long texts are counted by (`heavyReads.ts`). */
  clientOf(request: RequestLike, ctx: RequestContext): string;
  send: Send;
  caching: Caching;
}

/** The two handlers of `/read`. */
export function readHandlers({ read, clientOf, send, caching }: ReadDeps): {
  get(request: RequestLike, params: ParsedParams<typeof READ_PARAMS>): Promise<Reply>;
  post(request: RequestLike, params: ParsedParams<typeof READ_POST_PARAMS>, ctx: RequestContext): Promise<Reply>;
} {
  const heavy = new HeavyReads();
  return {
    async get(request, { text, format }) {
      // Each text is its own answer: kept out of the caches of remembered answers (`keep: false`).
      return send(request, await read(text, format ?? "hangul"), { caching, keep: false });
    },
    async post(request, { format }, ctx) {
      const text = await bodyText(request);
      const problem = verbatimTextProblem("text", text, READ_POST_MAX);
      if (problem?.rule === "too_long") throw new ApiError(413, "payload_too_large", `${problem.detail}: send at most ${READ_POST_MAX} characters a request`);
      // verbatimTextProblem names a missing text, so text is a string past this line.
      if (problem !== undefined || text === undefined) throw invalidParameter("text", problem?.detail ?? "text is required");
      const answer = isHeavyRead(text) ? heavy.run(clientOf(request, ctx), () => read(text, format ?? "hangul")) : read(text, format ?? "hangul");
      return send(request, await answer, { caching: "no-store" });
    },
  };
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
