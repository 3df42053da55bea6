/**
 * `POST /grade`: grades one answer (`{ "quiz_id", "answer" }`) or a list of up to `MAX_GRADED`,
 * statelessly, from the signed ids. Not metered: the question was counted when it was drawn.
 */
import { invalidParameter } from "../http/errors.ts";
import type { Reply, RequestLike } from "../http/reply.ts";
import type { Send } from "../http/sender.ts";
import { type GradeSources, grade } from "../quiz/grade.ts";
import { QuizIdError, type QuizIds } from "../quiz/quizId.ts";
import { MAX_ANSWER_LENGTH, MAX_GRADED } from "../../format/quizSchemas.ts";
import { readJson } from "./jsonBody.ts";

/** The handler of `POST /grade`. */
export function gradeHandler(ids: QuizIds, sources: GradeSources, sendBody: Send) {
  return async (request: RequestLike): Promise<Reply> => {
    const body = await readJson(request, "the answers");
    const list = Array.isArray(body);
    const items = list ? body : [body];
    if (items.length === 0 || items.length > MAX_GRADED) throw invalidParameter("body", `The body lists ${items.length} answers; send 1 to ${MAX_GRADED}.`);
    const results: string[] = [];
    for (const [i, item] of items.entries()) {
      const at = list ? ` (answer ${i + 1})` : "";
      if (typeof item !== "object" || item === null || Array.isArray(item))
        throw invalidParameter("body", `Each answer must be an object { "quiz_id", "answer" }${at}.`);
      const { quiz_id: id, answer } = item as Record<string, unknown>;
      if (typeof answer !== "string" || answer.length > MAX_ANSWER_LENGTH) {
        throw invalidParameter(
          "answer",
          `answer must be a string of at most ${MAX_ANSWER_LENGTH} characters: the key of a choice ("2") or the typed answer${at}.`,
        );
      }
      try {
        results.push(grade(id as string, await ids.verify(id), answer, sources));
      } catch (error) {
        if (error instanceof QuizIdError) throw invalidParameter("quiz_id", `${error.message}${at}`);
        throw error;
      }
    }
    const text = list ? `{"success":true,"results":[${results.join(",")}]}` : `{"success":true,"result":${results[0]}}`;
    return sendBody(request, text, { caching: "no-store" });
  };
}
