/**
 * Interface B's class quizzes, in one place (docs/api.md "Class quizzes"): a teacher's key makes one
 * (`POST /classes`, one metered call) and gets a code and a link; students open it
 * (`GET /classes/{code}`: the questions, never their answers) and submit under a display name
 * (`POST /classes/{code}/submissions`: graded on the server, one call on the teacher's key, none on
 * the student's address); the teacher lists them (`GET /classes`) and reads the results
 * (`GET /classes/{code}/results`), until they are erased.
 */
import { CLASS_BOUNDS } from "../../format/classSchemas.ts";
import { schemaRef } from "../../format/schema.ts";
import type { ClassQuestion, ClassRecord, ClassSettings, ClassSubmission, ClassSummary } from "../classes/classStore.ts";
import { CLASS_CODE_PATTERN, checkShortText, nameKey, newClassCode } from "../classes/classRules.ts";
import { MAX_WAITING, SubmissionQueue } from "../classes/submissionQueue.ts";
import { RATE_LIMIT, headers, ok, problem, shared } from "../docs/responses.ts";
import type { SecurityRequirement } from "../docs/types.ts";
import { ApiError, invalidParameter } from "../http/errors.ts";
import { type PathSpec, type RawQuery, parseInteger, parseQuery, queryOf } from "../http/params.ts";
import type { RequestLike } from "../http/reply.ts";
import type { CharacterBank } from "../quiz/characterBank.ts";
import { grade } from "../quiz/grade.ts";
import { type QuizMaker, quizText } from "../quiz/makeQuiz.ts";
import type { CharacterQuizMaker } from "../quiz/makeCharacterQuiz.ts";
import { MAX_BODY_BYTES } from "../quota/plans.ts";
import type { KeyRecord } from "../quota/store.ts";
import { utf8Length } from "../util/utf8Length.ts";
import type { RequestContext } from "../routes/context.ts";
import { jsonObject, readJson } from "../routes/jsonBody.ts";
import { API_KEY_CHALLENGE, type Caller, type Metering, callerOf, meter, presentedKey } from "../routes/metering.ts";
import { QUIZ_PARAMS } from "../routes/quizParams.ts";
import { type InterfaceContext, type Operation, defineOperation } from "./operation.ts";
import { type QuizParams, draw, typedTypes, withoutAnswers } from "./quizDraw.ts";
import { quizDoc } from "./quizDocs.ts";

/** What the class quizzes draw and grade from: interface B's makers and the character bank, each made on first use. */
export interface ClassSources {
  idiomMaker(): QuizMaker;
  characterMaker(): CharacterQuizMaker;
  bank(): CharacterBank;
}

/** `{code}`: a class code, else `400` naming `code`. */
const CODE_PATH = {
  kind: "pattern",
  in: "path",
  pattern: CLASS_CODE_PATTERN,
  shape: "cq_ followed by 22 letters and digits",
  component: "ClassCode",
  description: "The class code, `cq_` and 22 letters and digits, as `POST /classes` gave it; another shape: `400`.",
} as const satisfies PathSpec;

/** The settings of `GET /quiz` a class quiz takes, with its own default and bounds for `count`. */
const CLASS_QUIZ_PARAMS = {
  type: QUIZ_PARAMS.type,
  choices: QUIZ_PARAMS.choices,
  count: { ...QUIZ_PARAMS.count, min: CLASS_BOUNDS.count.min, max: CLASS_BOUNDS.count.max, default: CLASS_BOUNDS.count.default },
  difficulty: QUIZ_PARAMS.difficulty,
  lang: QUIZ_PARAMS.lang,
  level: QUIZ_PARAMS.level,
  answer_format: QUIZ_PARAMS.answer_format,
  mature: QUIZ_PARAMS.mature,
};
const CLASS_FIELDS = [...Object.keys(CLASS_QUIZ_PARAMS), "title", "open_hours", "students_max"];

/** The path note of `/classes`, which two operations share. */
const CLASSES_PATH_NOTE = "`POST` makes a class quiz, `GET` (and `HEAD`) lists the key's; other methods: `405` with `Allow`.";

/** The key-only operations' security: a key is required. */
const KEY_REQUIRED: SecurityRequirement[] = [{ ApiKeyHeader: [] }, { ApiKeyQuery: [] }];
const JSON_BODY = { "Content-Type": "application/json" };
const WITH_KEY_JSON = { "X-API-Key": "$API_KEY", ...JSON_BODY };

/** A class quiz asked for, checked. */
interface ClassRequest {
  quiz: QuizParams;
  settings: ClassSettings;
  title: string;
  openHours: number;
  studentsMax: number;
}

/** The operations of the class quizzes. */
export function classOperations({ bases, data, services }: InterfaceContext, metering: Metering, sources: ClassSources): Operation[] {
  const { store, options, sendBody } = services;
  const dataTag = data.manifest.data_hash.slice(0, 12);
  const meterConfig = { store, now: services.now, offsetMinutes: services.offsetMinutes };
  const gradeSources = () => ({ idioms: data.idioms.idioms, answerJson: data.idioms.itemsB, bank: sources.bank });
  const link = (code: string) => `${bases.mountPath}/?class=${code}`;
  const summaryJson = (summary: ClassSummary) =>
    JSON.stringify({
      code: summary.code,
      link: link(summary.code),
      title: summary.title,
      created_at: summary.created_at,
      closes_at: summary.closes_at,
      results_until: summary.keep_until,
      count: summary.count,
      students_max: summary.students_max,
      students: summary.students,
    });
  const queue = new SubmissionQueue();

  /** The teacher's key, required: a request without one is `401`, an unknown one too. */
  const teacher = async (request: RequestLike, ctx: RequestContext): Promise<Caller & { key: KeyRecord }> => {
    if (presentedKey(request, queryOf(request.url)) === null) {
      throw new ApiError(
        401,
        "invalid_key",
        "Class quizzes are made and read with the teacher's API key: send it in X-API-Key (or api_key). Get one from POST /subscribe.",
        "X-API-Key",
        { "WWW-Authenticate": API_KEY_CHALLENGE },
      );
    }
    return (await metering.caller(request, ctx)) as Caller & { key: KeyRecord };
  };

  /** The class quiz of `code`, kept at `now`; else `404` naming `code`. */
  const held = async (code: string, now: string): Promise<ClassRecord> => {
    const record = await store.classByCode(code);
    if (record === null || record.keep_until <= now) {
      throw new ApiError(404, "not_found", `There is no class quiz ${code}: it was never made here, or its results were erased after their time.`, "code");
    }
    return record;
  };

  /** Why `record` takes no submission at `now`, as a `410`; undefined while it does. */
  const closed = (record: ClassRecord, now: string): ApiError | undefined => {
    if (record.data !== dataTag) {
      return new ApiError(
        410,
        "class_closed",
        `The class quiz ${record.code} was drawn from another data release than this service now runs; its teacher can read its results and make a new one.`,
        "code",
      );
    }
    if (record.closes_at <= now)
      return new ApiError(410, "class_closed", `The class quiz ${record.code} closed at ${record.closes_at}; its teacher can read its results.`, "code");
    return undefined;
  };

  const make = metering.metered(
    (request: ClassRequest) => request,
    async (request, caller) => {
      const at = services.now();
      const made = draw(request.quiz, { idiomMaker: sources.idiomMaker, characterMaker: sources.characterMaker, random: services.random });
      if (made === null) throw invalidParameter("count", `There are fewer than ${request.quiz.count} questions to draw with these settings.`);
      const questions: ClassQuestion[] = made.map((quiz, i) => {
        const { quiz_id: _id, ...shown } = JSON.parse(withoutAnswers(quizText(quiz, "")).text) as Record<string, unknown>;
        return { quiz: JSON.stringify({ number: i + 1, ...shown }), claims: quiz.claims };
      });
      const closesAt = new Date(at.getTime() + request.openHours * 3_600_000);
      const record: ClassRecord = {
        code: newClassCode(services.random),
        key_id: (caller.key as KeyRecord).id,
        title: request.title,
        created_at: at.toISOString(),
        closes_at: closesAt.toISOString(),
        keep_until: new Date(closesAt.getTime() + options.classResultsDays * 86_400_000).toISOString(),
        students_max: request.studentsMax,
        data: dataTag,
        settings: request.settings,
        questions,
      };
      // Checked before the call was counted; another class quiz made at the same moment may have taken the last room since.
      if (!(await store.insertClass(record, options.classQuizzesPerKey))) throw classLimit(options.classQuizzesPerKey);
      const text = `"class":${summaryJson({ ...record, count: questions.length, students: 0 })},"settings":${JSON.stringify(record.settings)}`;
      return { text, extraBytes: utf8Length(text) - text.length, status: 201 };
    },
  );

  return [
    defineOperation({
      method: "POST",
      path: "/classes",
      metering: "metered",
      doc: quizDoc({
        operationId: "makeClassQuiz",
        summary: "Make a class quiz",
        description:
          "Draws a class quiz with the settings of `GET /quiz` and keeps it on the server: students open it by its code (`GET /classes/{code}`), answer and submit " +
          "(`POST /classes/{code}/submissions`), and the teacher reads the results (`GET /classes/{code}/results`). The answers never leave the server before a student submits: " +
          "the questions carry no `quiz_id` and the code is random, not a seed.\n\n" +
          "Needs the teacher's API key. Metered: one call of the key's daily quota when it is made, then one call of the same key per student who submits (students' addresses are never charged); " +
          `opening it, listing and reading results are not metered. A key keeps at most \`CLASS_QUIZZES_PER_KEY\` class quizzes at once (${options.classQuizzesPerKey} on this server; open ones and closed ones whose results are kept): past it \`429 class_limit\`, not counted. ` +
          `It takes submissions for \`open_hours\`; its results are kept ${options.classResultsDays} days after (\`CLASS_RESULTS_DAYS\`), then erased with the students' names and answers.`,
        security: KEY_REQUIRED,
        pathNote: CLASSES_PATH_NOTE,
        requestBody: {
          description: "The class quiz's settings.",
          required: true,
          content: {
            "application/json": {
              schema: schemaRef("ClassRequest"),
              example: { type: "hunum_to_hanja,hanja_to_reading", count: 10, title: "3-1 한자 쪽지 시험", open_hours: 24, students_max: 30 },
            },
          },
        },
        responses: {
          "201": ok("The class quiz made, with its code and link.", "ClassMadeResponse", headers([...RATE_LIMIT, "Cache-Control"])),
          "400": problem(400, "The body is not a JSON object, holds an unknown field, or a field is invalid (`param` names it). Not counted.", {
            codes: ["invalid_parameter"],
          }),
          "401": shared("InvalidKey"),
          "403": shared("InactiveKey"),
          "413": problem(413, `The body is over ${MAX_BODY_BYTES} bytes.`, { codes: ["payload_too_large"] }),
          "415": problem(415, "The body is not sent as `Content-Type: application/json`.", { codes: ["unsupported_media_type"] }),
          "429": problem(
            429,
            "The key keeps `CLASS_QUIZZES_PER_KEY` class quizzes already (`class_limit`, not counted), or its daily quota is used up (`quota_exceeded`, with the rate-limit headers and `Retry-After`).",
            { codes: ["class_limit", "quota_exceeded"], extra: headers([...RATE_LIMIT, "Retry-After"], false) },
          ),
          "500": shared("InternalError"),
          "503": shared("StoreUnavailable"),
        },
        examples: [
          {
            description: "Ten 훈음 and reading questions for a class of 30, open a day",
            headers: WITH_KEY_JSON,
            body: { type: "hunum_to_hanja,hanja_to_reading", count: 10, title: "3-1 한자 쪽지 시험", open_hours: 24, students_max: 30 },
          },
          { description: "Typed answers, in English", headers: WITH_KEY_JSON, body: { type: "hanja_to_hunum", answer_format: "typed", lang: "en", count: 5 } },
        ],
      }),
      handler: async (request, ctx) => {
        const caller = await teacher(request, ctx);
        const body = jsonObject(await readJson(request, "the class quiz"));
        const checked = classRequest(body, options.classStudentsMax);
        // Checked before the call is counted: a key at its limit is refused uncounted.
        if ((await store.classesOfKey(caller.key.id, services.now().toISOString())).length >= options.classQuizzesPerKey) {
          throw classLimit(options.classQuizzesPerKey);
        }
        return make(request, ctx, checked);
      },
    }),
    defineOperation({
      method: "GET",
      path: "/classes",
      metering: "public",
      doc: quizDoc({
        operationId: "listClassQuizzes",
        summary: "The key's class quizzes",
        description:
          "The class quizzes the key made that are still kept (open, or closed with their results), newest first, each with its students so far. Needs the key; not metered; not cacheable.",
        security: KEY_REQUIRED,
        pathNote: CLASSES_PATH_NOTE,
        responses: {
          "200": ok("The class quizzes.", "ClassListResponse", headers(["Cache-Control"])),
          "401": shared("InvalidKey"),
          "500": shared("InternalError"),
          "503": shared("StoreUnavailable"),
        },
        examples: [{ description: "The key's class quizzes", headers: { "X-API-Key": "$API_KEY" } }],
      }),
      handler: async (request, ctx) => {
        const caller = await teacher(request, ctx);
        const classes = await store.classesOfKey(caller.key.id, services.now().toISOString());
        return sendBody(request, `{"success":true,"classes":[${classes.map(summaryJson).join(",")}]}`, { caching: "no-store" });
      },
    }),
    defineOperation({
      method: "GET",
      path: "/classes/{code}",
      parameters: { code: CODE_PATH },
      metering: "public",
      doc: quizDoc({
        operationId: "getClassQuiz",
        summary: "A class quiz, for its students",
        description:
          "The class quiz's questions as students answer them: no answers, no `quiz_id`, nothing gradeable apart from the class quiz. No key needed and not metered (the teacher's key pays per submission). Not cacheable.",
        security: [{}],
        responses: {
          "200": ok("The class quiz.", "StudentClassResponse", headers(["Cache-Control"])),
          "400": problem(400, "`code` is not a class code's shape (`param: code`).", { codes: ["invalid_parameter"] }),
          "404": problem(404, "No class quiz with this code: never made here, or erased with its results (`param: code`).", { codes: ["not_found"] }),
          "410": problem(410, "The class quiz is closed (`param: code`).", { codes: ["class_closed"] }),
          "500": shared("InternalError"),
          "503": shared("StoreUnavailable"),
        },
        examples: [{ description: "A class quiz", path: { code: "$CLASS_CODE" } }],
      }),
      handler: async (request, _ctx, { code }) => {
        const now = services.now().toISOString();
        const record = await held(code, now);
        const refusal = closed(record, now);
        if (refusal) throw refusal;
        const head = {
          code: record.code,
          title: record.title,
          closes_at: record.closes_at,
          answer_format: record.settings.answer_format,
          lang: record.settings.lang,
        };
        const text = `{"success":true,"class":${JSON.stringify(head).slice(0, -1)},"questions":[${record.questions.map((q) => q.quiz).join(",")}]}}`;
        return sendBody(request, text, { caching: "no-store" });
      },
    }),
    defineOperation({
      method: "POST",
      path: "/classes/{code}/submissions",
      parameters: { code: CODE_PATH },
      metering: "public",
      doc: quizDoc({
        operationId: "submitClassQuiz",
        summary: "Submit a student's answers",
        description:
          "Grades a student's answers on the server, keeps them for the teacher, and answers the student's result with the right answers. One submission per display name: " +
          "the first stands; the same name sending the same answers again gets that first result (`repeated: true`, not counted again), other answers `409`. " +
          `Counted as one call on the teacher's key (never on the student's address); when the key has no calls left today: \`429 quota_exceeded\`, nothing stored, send again after \`Retry-After\`. ` +
          "No key needed; personal data asked: the display name only. Not cacheable.",
        security: [{}],
        pathNote: "Only `POST`; other methods: `405` with `Allow`.",
        requestBody: {
          description: "The student's name and answers.",
          required: true,
          content: { "application/json": { schema: schemaRef("SubmissionRequest"), example: { name: "김민준", answers: ["2", "4", "1"] } } },
        },
        responses: {
          "200": ok("The same name's first submission, with the same answers (`repeated`).", "SubmissionResponse", headers(["Cache-Control"])),
          "201": ok("The student's result.", "SubmissionResponse", headers(["Cache-Control"])),
          "400": problem(
            400,
            "`code` is malformed, the body is not a JSON object, holds an unknown field, or `name` or `answers` is invalid (`param` names it).",
            {
              codes: ["invalid_parameter"],
            },
          ),
          "403": problem(
            403,
            "The teacher's key is no longer active (expired or revoked): the class quiz takes no submission until it is renewed (`param: code`).",
            {
              codes: ["forbidden"],
            },
          ),
          "404": problem(404, "No class quiz with this code (`param: code`).", { codes: ["not_found"] }),
          "409": problem(409, "A submission under this name (compared in NFKC, case and spacing aside) with other answers stands (`param: name`).", {
            codes: ["conflict"],
          }),
          "410": problem(410, "The class quiz is closed (`param: code`).", { codes: ["class_closed"] }),
          "413": problem(413, `The body is over ${MAX_BODY_BYTES} bytes.`, { codes: ["payload_too_large"] }),
          "415": problem(415, "The body is not sent as `Content-Type: application/json`.", { codes: ["unsupported_media_type"] }),
          "429": problem(
            429,
            "The class quiz has all the students its teacher allowed (`class_full`, no `Retry-After`), the teacher's key has no calls left today (`quota_exceeded`, with `Retry-After`), " +
              `or ${MAX_WAITING} submissions to it are waiting their turn in this process already (\`too_many_requests\`, \`Retry-After: 1\`). Nothing was stored or counted.`,
            { codes: ["class_full", "quota_exceeded", "too_many_requests"], extra: headers(["Retry-After"], false) },
          ),
          "500": shared("InternalError"),
          "503": shared("StoreUnavailable"),
        },
        examples: [{ description: "Submit", path: { code: "$CLASS_CODE" }, headers: JSON_BODY, body: { name: "김민준", answers: ["2", "4", "1"] } }],
      }),
      handler: async (request, ctx, { code }) => {
        const body = jsonObject(await readJson(request, "the answers"));
        const at = services.now();
        const now = at.toISOString();
        const record = await held(code, now);
        const refusal = closed(record, now);
        if (refusal) throw refusal;
        const { name, answers } = submissionRequest(body, record.questions.length);
        const queued = queue.run(record.code, () => submitNow(request, ctx, record, name, answers));
        if (queued === null) {
          throw new ApiError(
            429,
            "too_many_requests",
            `${MAX_WAITING} submissions to this class quiz are waiting already; nothing was stored or counted: send it again in a second.`,
            undefined,
            { "Retry-After": "1" },
          );
        }
        return queued;
      },
    }),
    defineOperation({
      method: "GET",
      path: "/classes/{code}/results",
      parameters: { code: CODE_PATH },
      metering: "public",
      doc: quizDoc({
        operationId: "getClassResults",
        summary: "A class quiz's results, for its teacher",
        description:
          "Each student's score and answers in the order they submitted, and each question's right answer and share of the class right, while the class quiz is open and until its results are erased. " +
          "Only with the key that made it; not metered, so a teacher's page may ask every few seconds. Not cacheable.",
        security: KEY_REQUIRED,
        responses: {
          "200": ok("The results.", "ClassResultsResponse", headers(["Cache-Control"])),
          "400": problem(400, "`code` is not a class code's shape (`param: code`).", { codes: ["invalid_parameter"] }),
          "401": shared("InvalidKey"),
          "403": problem(403, "The class quiz was made with another key.", { codes: ["forbidden"] }),
          "404": problem(404, "No class quiz with this code: never made here, or erased with its results (`param: code`).", { codes: ["not_found"] }),
          "500": shared("InternalError"),
          "503": shared("StoreUnavailable"),
        },
        examples: [{ description: "The results", path: { code: "$CLASS_CODE" }, headers: { "X-API-Key": "$API_KEY" } }],
      }),
      handler: async (request, ctx, { code }) => {
        const caller = await teacher(request, ctx);
        const now = services.now().toISOString();
        const record = await held(code, now);
        if (record.key_id !== caller.key.id)
          throw new ApiError(403, "forbidden", "This class quiz was made with another API key: only that key reads its results.", caller.param);
        const submissions = await store.classSubmissions(record.code);
        const questions = record.questions.map((q, i) => {
          const shown = JSON.parse(q.quiz) as { type: string; prompt: string; choices: { key: string; text: string }[] };
          const right = submissions.filter((s) => s.correct[i] === true).length;
          return {
            number: i + 1,
            type: shown.type,
            prompt: shown.prompt,
            answer: rightAnswer(record, i, shown.choices),
            right,
            answered: submissions.length,
            share_right: submissions.length === 0 ? null : Math.round((100 * right) / submissions.length),
          };
        });
        const students = submissions.map((s) => ({
          name: s.name,
          score: s.correct.filter(Boolean).length,
          submitted_at: s.submitted_at,
          answers: s.answers.map((given, i) => ({ given, correct: s.correct[i] === true })),
        }));
        const summary = summaryJson({ ...record, count: record.questions.length, students: submissions.length });
        return sendBody(
          request,
          `{"success":true,"class":${summary},"settings":${JSON.stringify(record.settings)},"students":${JSON.stringify(students)},"questions":${JSON.stringify(questions)}}`,
          { caching: "no-store" },
        );
      },
    }),
  ];

  /** A submission, its turn come: the name and the room checked, the teacher's key counted, then stored. */
  async function submitNow(request: RequestLike, ctx: RequestContext, record: ClassRecord, name: string, answers: string[]) {
    const at = services.now();
    const now = at.toISOString();
    const key = nameKey(name);
    const { submission: first, students } = await store.studentOf(record.code, key);
    if (first !== null) {
      if (first.answers.length === answers.length && first.answers.every((a, i) => a === answers[i])) {
        const repeated = resultJson(record, first, gradedAnswers(record, first.answers));
        return sendBody(request, `{"success":true,"repeated":true,"result":${repeated}}`, { caching: "no-store" });
      }
      throw new ApiError(
        409,
        "conflict",
        `A student named ${JSON.stringify(first.name)} has already submitted to this class quiz; the first submission stands. Another student: add to your name.`,
        "name",
      );
    }
    if (students >= record.students_max) throw classFull(record);
    const teacherKey = await store.keyById(record.key_id);
    // Counted on the teacher's key as its own calls are; an expired or revoked key has no calls (limit 0).
    const caller = teacherKey === null ? null : callerOf(meterConfig, teacherKey, true, "X-API-Key", at);
    if (caller === null || caller.limit === 0) {
      throw new ApiError(403, "forbidden", "The key this class quiz was made with is no longer active; ask your teacher to renew it.", "code");
    }
    ctx.metered = "pending";
    ctx.plan = caller.plan;
    const graded = gradedAnswers(record, answers);
    const submission: ClassSubmission = { name, name_key: key, answers, correct: graded.map((g) => g.correct), submitted_at: now };
    const stored = async () => {
      const outcome = await store.submitToClass(record.code, submission, now);
      // The checks above ran before the count; a submission made at the same moment may have taken the name or the last place since.
      if (outcome === "taken")
        throw new ApiError(
          409,
          "conflict",
          `A student named ${JSON.stringify(name)} has just submitted to this class quiz; the first submission stands.`,
          "name",
        );
      if (outcome === "full") throw classFull(record);
      if (outcome === "closed" || outcome === "missing")
        throw closed(record, now) ?? new ApiError(410, "class_closed", `The class quiz ${record.code} has just closed.`, "code");
      ctx.metered = "served";
      return sendBody(request, `{"success":true,"result":${resultJson(record, submission, graded)}}`, { status: 201, caching: "no-store" });
    };
    try {
      return await meter(meterConfig, caller, stored);
    } catch (error) {
      // The teacher's quota speaks to the student: what happened, not the key's figures.
      if (error instanceof ApiError && error.code === "quota_exceeded") {
        throw new ApiError(
          429,
          "quota_exceeded",
          `The teacher's key has no calls left today, so this submission was not stored; send it again after ${error.headers["Retry-After"]} seconds, or ask your teacher.`,
          undefined,
          { "Retry-After": error.headers["Retry-After"] as string },
        );
      }
      throw error;
    }
  }

  /** Each answer graded from the record's claims, with the right answer: one grade per question. */
  function gradedAnswers(record: ClassRecord, given: readonly string[]): ({ correct: boolean } & Record<string, unknown>)[] {
    return record.questions.map((q, i) => {
      const {
        quiz_id: _id,
        type: _type,
        ...graded
      } = JSON.parse(grade(String(i + 1), q.claims, given[i] ?? "", gradeSources())) as {
        correct: boolean;
      } & Record<string, unknown>;
      return { number: i + 1, given: given[i] ?? "", ...graded };
    });
  }

  /** A student's result: the graded answers, each marked as it was when the submission was stored. */
  function resultJson(record: ClassRecord, submission: ClassSubmission, graded: readonly Record<string, unknown>[]): string {
    const answers = graded.map((answer, i) => ({ ...answer, correct: submission.correct[i] === true }));
    const score = submission.correct.filter(Boolean).length;
    return JSON.stringify({ name: submission.name, score, total: record.questions.length, submitted_at: submission.submitted_at, answers });
  }

  /** The right answer of question `i` as a teacher reads it: the key with its option's text, or the standard typed answer. */
  function rightAnswer(record: ClassRecord, i: number, choices: readonly { key: string; text: string }[]): string {
    const question = record.questions[i] as ClassQuestion;
    const { answer } = JSON.parse(grade(String(i + 1), question.claims, "", gradeSources())) as { answer: string };
    const choice = choices.find((c) => c.key === answer);
    return choice ? `${answer} ${choice.text}` : answer;
  }
}

/** `429 class_limit`: the key keeps `max` class quizzes. */
function classLimit(max: number): ApiError {
  return new ApiError(
    429,
    "class_limit",
    `This key keeps ${max} class quizzes already (open ones and closed ones whose results are kept); room comes back as the oldest results are erased.`,
    "X-API-Key",
  );
}

/** `429 class_full`: no more students. */
function classFull(record: ClassRecord): ApiError {
  return new ApiError(
    429,
    "class_full",
    `The class quiz ${record.code} has all ${record.students_max} students its teacher allowed; nothing was stored.`,
    "code",
  );
}

/**
 * The body of `POST /classes`, checked: the quiz settings with `GET /quiz`'s rules (each error
 * names its field), then the class's own. An unknown field is a `400` naming it: a misspelt setting
 * must not be left out silently.
 */
function classRequest(body: Record<string, unknown>, studentsMax: number): ClassRequest {
  const unknown = Object.keys(body).find((field) => !CLASS_FIELDS.includes(field));
  if (unknown !== undefined) throw invalidParameter(unknown, `${unknown} is not a field of a class quiz; the fields are ${CLASS_FIELDS.join(", ")}`);
  const raw: RawQuery = {};
  for (const field of Object.keys(CLASS_QUIZ_PARAMS)) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    if (field === "type" && Array.isArray(value)) {
      if (value.length === 0 || value.length > 16 || !value.every((v) => typeof v === "string"))
        throw invalidParameter("type", "type must be a text or a list of 1 to 16 texts");
      raw.type = value.join(",");
    } else if (typeof value === "string") raw[field] = value;
    else if (typeof value === "number" && Number.isSafeInteger(value)) raw[field] = String(value);
    else
      throw invalidParameter(
        field,
        `${field} must be ${CLASS_QUIZ_PARAMS[field as keyof typeof CLASS_QUIZ_PARAMS].kind === "int" ? "a whole number" : "a text"}`,
      );
  }
  const p = parseQuery(raw, CLASS_QUIZ_PARAMS);
  const typed = p.answer_format === "typed";
  const type = typed ? typedTypes(p.type) : p.type;
  const title = checkShortText("title", body.title, CLASS_BOUNDS.titleMax, false);
  if ("problem" in title) throw invalidParameter("title", title.problem);
  const number = (field: string, min: number, max: number, fallback: number) => {
    const value = body[field];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== "number" && typeof value !== "string") throw invalidParameter(field, `${field} must be a whole number from ${min} to ${max}`);
    return parseInteger(field, String(value), min, max);
  };
  const difficulty = p.difficulty ?? "normal";
  const lang = p.lang ?? "ko";
  const level = p.level ?? "education";
  return {
    quiz: { type, choices: p.choices, count: p.count, exclude: new Set(), difficulty, mature: p.mature === 1, lang, level, typed, reveal: false },
    settings: { type, count: p.count, choices: p.choices, level, difficulty, lang, answer_format: typed ? "typed" : "choices", mature: p.mature === 1 ? 1 : 0 },
    title: title.text,
    openHours: number("open_hours", CLASS_BOUNDS.openHours.min, CLASS_BOUNDS.openHours.max, CLASS_BOUNDS.openHours.default),
    studentsMax: number("students_max", CLASS_BOUNDS.students.min, studentsMax, Math.min(CLASS_BOUNDS.students.default, studentsMax)),
  };
}

/** The body of a submission, checked against a class quiz of `count` questions. */
function submissionRequest(body: Record<string, unknown>, count: number): { name: string; answers: string[] } {
  const unknown = Object.keys(body).find((field) => field !== "name" && field !== "answers");
  if (unknown !== undefined) throw invalidParameter(unknown, `${unknown} is not a field of a submission; send name and answers`);
  const name = checkShortText("name", body.name, CLASS_BOUNDS.nameMax, true);
  if ("problem" in name) throw invalidParameter("name", name.problem);
  const { answers } = body;
  if (!Array.isArray(answers) || answers.length !== count) {
    throw invalidParameter("answers", `answers must be a list of ${count} answers, one per question in order ("" for one left blank)`);
  }
  answers.forEach((answer, i) => {
    if (typeof answer !== "string" || answer.length > CLASS_BOUNDS.answerMax)
      throw invalidParameter("answers", `answer ${i + 1} must be a text of at most ${CLASS_BOUNDS.answerMax} characters ("" when left blank)`);
  });
  return { name: name.text, answers: answers.map((answer) => (answer as string).trim()) };
}
