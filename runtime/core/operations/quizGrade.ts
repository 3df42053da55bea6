/** Interface B's `POST /grade`, in one place: answers to quizzes drawn with `reveal=0`, graded from their encrypted ids. Not metered: the question was counted when it was drawn. */
import { schemaRef } from "../../format/schema.ts";
import { headers, ok, problem, shared } from "../docs/responses.ts";
import { invalidParameter } from "../http/errors.ts";
import type { Reply, RequestLike } from "../http/reply.ts";
import type { Send } from "../http/sender.ts";
import type { CharacterBank } from "../quiz/characterBank.ts";
import { type GradeSources, grade } from "../quiz/grade.ts";
import { QUIZ_ID_SKEW_SECONDS, QUIZ_ID_TTL_SECONDS, QuizIdError, type QuizIds } from "../quiz/quizId.ts";
import { MAX_BODY_BYTES } from "../quota/plans.ts";
import { MAX_ANSWER_LENGTH, MAX_GRADED } from "../../format/quizSchemas.ts";
import { readJson } from "../routes/jsonBody.ts";
import { type InterfaceContext, type Operation, defineOperation } from "./operation.ts";
import { quizDoc } from "./quizDocs.ts";

const JSON_BODY = { "Content-Type": "application/json" };

/** `POST /grade`; `bank` is the character bank interface B makes on first use. */
export function gradeOperation({ data, services }: InterfaceContext, bank: () => CharacterBank): Operation {
  let handle: ReturnType<typeof gradeHandler> | undefined;
  return defineOperation({
    method: "POST",
    path: "/grade",
    metering: "public",
    doc: quizDoc({
      operationId: "gradeQuiz",
      summary: "Grade answers",
      description:
        "Whether an answer to a quiz of `GET /quiz` is right, with the right answer and the idiom or character: for quizzes drawn with `reveal=0`, so that the answers never reach the learner's browser. " +
        `One answer, or a list of up to ${MAX_GRADED}. Stateless: the \`quiz_id\` of a quiz drawn with \`reveal=0\` carries what grading needs, encrypted under the server's \`QUIZ_SECRET\` (so the learner cannot read the answer out of it), so any instance with the same secret grades it; ` +
        `it can be graded for ${QUIZ_ID_TTL_SECONDS / 3600} hours after it was drawn, as often as asked. A typed answer is right when it is any of the standard answers (every reading and 음, and its initial-sound form; ` +
        "each 훈음, with or without its space; the idiom in hanja) in any Unicode normalisation form.\n\n" +
        "Not metered and no key needed: the question was counted when it was drawn. Not cacheable (`Cache-Control: no-store`).",
      security: [{}],
      pathNote: "Only `POST`; other methods: `405` with `Allow`.",
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
          `The body is not a UTF-8 JSON object or a list of 1–${MAX_GRADED}, an \`answer\` is not a string of at most ${MAX_ANSWER_LENGTH} characters, or a \`quiz_id\` was altered, ` +
            `made under another secret or data release or in an older format, drawn without \`reveal=0\`, over ${QUIZ_ID_TTL_SECONDS / 3600} hours old, or dated over ${QUIZ_ID_SKEW_SECONDS} s ahead of the server's clock (\`param\` names \`body\`, \`answer\` or \`quiz_id\`).`,
          { codes: ["invalid_parameter"] },
        ),
        "413": problem(413, `The body is over ${MAX_BODY_BYTES} bytes.`, { codes: ["payload_too_large"] }),
        "415": problem(415, "The body is not sent as `Content-Type: application/json`.", { codes: ["unsupported_media_type"] }),
        "500": shared("InternalError"),
      },
      examples: [
        { description: "Grade one answer", headers: JSON_BODY, body: { quiz_id: "$QUIZ_ID", answer: "2" } },
        {
          description: "Grade a list of answers",
          headers: JSON_BODY,
          body: [
            { quiz_id: "$QUIZ_ID", answer: "1" },
            { quiz_id: "$QUIZ_ID", answer: "3" },
          ],
        },
      ],
    }),
    // Building an interface must not touch the services (the reference builds it without them): the handler is made on the first grade.
    handler: (request) =>
      (handle ??= gradeHandler(services.quizIds, { idioms: data.idioms.idioms, answerJson: data.idioms.itemsB, bank }, services.sendBody))(request),
  });
}

/** The handler of `POST /grade`: one answer (`{ "quiz_id", "answer" }`) or a list of up to `MAX_GRADED`, graded statelessly from the ids. */
function gradeHandler(ids: QuizIds, sources: GradeSources, sendBody: Send) {
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
