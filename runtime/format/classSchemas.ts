/**
 * The shapes of interface B's class quizzes (docs/api.md "Class quizzes"), each declared once as a
 * JSON Schema with its descriptions, and the bounds a teacher and a student work within, which the
 * routes enforce (`runtime/core/classes/classRules.ts`). The OpenAPI document publishes them with
 * the other schemas of `quizSchemas.ts`; the page imports their types.
 */
import { type Schema, type Static, arrayOf, bool, int, nullable, obj, oneOf, schemaRef, str } from "./schema.ts";

/** What a teacher chooses within, the defaults taken when a field is left out. */
export const CLASS_BOUNDS = {
  /** Questions: as many as one quiz call draws. */
  count: { min: 1, max: 20, default: 10 },
  /** Hours the class quiz takes submissions: an hour to 30 days, a week by default. */
  openHours: { min: 1, max: 720, default: 168 },
  /** Students: from 1 to the server's `CLASS_STUDENTS_MAX`. */
  students: { min: 1, default: 40 },
  /** The title's length in characters. */
  titleMax: 60,
  /** A student's display name's length in characters. */
  nameMax: 30,
  /** An answer's length, as `POST /grade` reads one. */
  answerMax: 100,
} as const;

const SUCCESS: Schema = { const: true, description: "Always true on success." };
const INSTANT = (description: string) => str(description, { format: "date-time" });
const CODE = str("The class code: `cq_` and 22 letters and digits, random. The only way to the class quiz; it carries nothing of its questions or answers.", {
  pattern: "^cq_[0-9A-Za-z]{22}$",
});

/** A class quiz as its teacher's list shows it (component `ClassSummary`). */
export const CLASS_SUMMARY = obj("A class quiz, as its teacher sees it.", {
  code: CODE,
  link: str("The page's link for students, from the service's root (`/?class=<code>`): share it with the host in front."),
  title: str(`The title the teacher gave (at most ${CLASS_BOUNDS.titleMax} characters), or "".`),
  created_at: INSTANT("When it was made."),
  closes_at: INSTANT("When it stops taking submissions."),
  results_until: INSTANT("When it is erased with its students' names and answers (`closes_at` and the server's `CLASS_RESULTS_DAYS`)."),
  count: int("Questions.", { minimum: CLASS_BOUNDS.count.min, maximum: CLASS_BOUNDS.count.max }),
  students_max: int("The most students who may submit.", { minimum: 1 }),
  students: int("Students who have submitted.", { minimum: 0 }),
});

/** What the teacher chose (component `ClassSettings`). */
const CLASS_SETTINGS = obj("The quiz settings the class quiz was drawn with.", {
  type: arrayOf("The quiz types (empty: the published ones).", str("A quiz type.")),
  count: int("Questions.", { minimum: 1 }),
  choices: int("Options per multiple-choice question.", { minimum: 2, maximum: 6 }),
  level: str("The character pool of the character types."),
  difficulty: str("How the wrong options were drawn."),
  lang: oneOf(["ko", "en"], "The language of the questions and meanings."),
  answer_format: oneOf(["choices", "typed"], "Whether students choose or type their answers."),
  mature: int("1 when idioms withheld from the school set may be asked, else 0.", { minimum: 0, maximum: 1 }),
});

/** One question as students see it (component `ClassQuestion`). */
const CLASS_QUESTION = obj(
  "One question of a class quiz as students see it: a quiz of `GET /quiz` without its answers and without a `quiz_id` (it cannot be graded apart from the class quiz).",
  {
    number: int("Its number, from 1.", { minimum: 1 }),
    type: str("Quiz type."),
    question: str("Instruction sentence (Korean, or English with `lang: en`)."),
    answer_format: { const: "typed", description: "Present when the answer is typed: `choices` is empty." },
    prompt: str("What is asked about."),
    choices: arrayOf("The options, keyed `1`…`n`; empty for a typed question.", obj("One option.", { key: str("Option number."), text: str("Its text.") }), {
      maxItems: 6,
    }),
  },
  ["answer_format"],
);

/** One answer of a submission as its student sees it after submitting. */
const GRADED_ANSWER = obj(
  "One answer graded, with the right answer.",
  {
    number: int("The question's number.", { minimum: 1 }),
    given: str('The answer given (the key of a choice, or the typed text; "" when left blank).'),
    correct: bool("Whether it is right."),
    answer: str("The key of the right option; for a typed question, the standard answer."),
    accepted: arrayOf("Typed questions: every answer graded right.", str("One accepted answer.")),
    answer_idiom: schemaRef("Idiom"),
    answer_character: schemaRef("AnswerCharacter"),
  },
  ["accepted", "answer_idiom", "answer_character"],
);

/** A student's result. */
const STUDENT_RESULT = obj("A student's result.", {
  name: str("The display name given."),
  score: int("Right answers.", { minimum: 0 }),
  total: int("Questions.", { minimum: 1 }),
  submitted_at: INSTANT("When it was submitted."),
  answers: arrayOf("Each answer graded, in question order.", schemaRef("GradedAnswer", GRADED_ANSWER)),
});

/** The class schemas, by component name. */
export function classSchemas(): Record<string, Schema> {
  return {
    ClassRequest: {
      type: "object",
      description:
        "A class quiz to make, as UTF-8 JSON: the settings of `GET /quiz` (each optional, with its default) and the class's own. Another field: `400` naming it.",
      properties: {
        type: {
          description: "Quiz types as `GET /quiz`'s `type`: a comma-separated text or a list. Omitted: the published ones.",
          oneOf: [{ type: "string" }, { type: "array", items: { type: "string" }, maxItems: 16 }],
        },
        count: int(`Questions, ${CLASS_BOUNDS.count.min}–${CLASS_BOUNDS.count.max} (default ${CLASS_BOUNDS.count.default}).`, {
          minimum: CLASS_BOUNDS.count.min,
          maximum: CLASS_BOUNDS.count.max,
        }),
        choices: int("Options per question, 2–6 (default 4).", { minimum: 2, maximum: 6 }),
        level: str("As `GET /quiz`'s `level` (default `education`)."),
        difficulty: str("As `GET /quiz`'s `difficulty` (default `normal`)."),
        lang: str("As `GET /quiz`'s `lang` (default `ko`)."),
        answer_format: str("`choices` (default) or `typed`, as `GET /quiz`'s `answer_format`."),
        mature: int("As `GET /quiz`'s `mature` (default 0).", { minimum: 0, maximum: 1 }),
        title: str(`A title students and the teacher see, at most ${CLASS_BOUNDS.titleMax} characters (default none).`, { maxLength: CLASS_BOUNDS.titleMax }),
        open_hours: int(
          `Hours the class quiz takes submissions, ${CLASS_BOUNDS.openHours.min}–${CLASS_BOUNDS.openHours.max} (default ${CLASS_BOUNDS.openHours.default}, a week).`,
          { minimum: CLASS_BOUNDS.openHours.min, maximum: CLASS_BOUNDS.openHours.max },
        ),
        students_max: int(`The most students who may submit, from 1 to the server's \`CLASS_STUDENTS_MAX\` (default ${CLASS_BOUNDS.students.default}).`, {
          minimum: 1,
        }),
      },
    },
    ClassSummary: CLASS_SUMMARY,
    ClassSettings: CLASS_SETTINGS,
    ClassQuestion: CLASS_QUESTION,
    GradedAnswer: GRADED_ANSWER,
    StudentResult: STUDENT_RESULT,
    ClassMadeResponse: obj("The class quiz made: its code and link, to share with the students.", {
      success: SUCCESS,
      class: schemaRef("ClassSummary", CLASS_SUMMARY),
      settings: schemaRef("ClassSettings", CLASS_SETTINGS),
      quota: schemaRef("Quota"),
    }),
    ClassListResponse: obj("The key's class quizzes still kept, newest first.", {
      success: SUCCESS,
      classes: arrayOf("The class quizzes.", schemaRef("ClassSummary", CLASS_SUMMARY)),
    }),
    StudentClassResponse: obj("A class quiz as students see it: its questions without their answers.", {
      success: SUCCESS,
      class: obj("The class quiz.", {
        code: CODE,
        title: str('Its title, or "".'),
        closes_at: INSTANT("When it stops taking submissions."),
        answer_format: oneOf(["choices", "typed"], "Whether answers are chosen or typed."),
        lang: oneOf(["ko", "en"], "The language of its questions."),
        questions: arrayOf("The questions, in order.", schemaRef("ClassQuestion", CLASS_QUESTION), { minItems: 1, maxItems: CLASS_BOUNDS.count.max }),
      }),
    }),
    SubmissionRequest: obj(`A student's answers, as UTF-8 JSON. Another field: \`400\` naming it.`, {
      name: str(
        `The student's display name, 1–${CLASS_BOUNDS.nameMax} characters with a letter or digit (no other personal data is asked). Names are compared in NFKC, case and spacing aside: one submission per name.`,
        {
          minLength: 1,
          maxLength: CLASS_BOUNDS.nameMax,
        },
      ),
      answers: arrayOf(
        `One answer per question, in order: the key of a choice (\`"2"\`) or the typed text, each at most ${CLASS_BOUNDS.answerMax} characters; \`""\` for a question left blank.`,
        str("One answer.", { maxLength: CLASS_BOUNDS.answerMax }),
        { minItems: 1, maxItems: CLASS_BOUNDS.count.max },
      ),
    }),
    SubmissionResponse: obj(
      "The student's result, graded on the server.",
      {
        success: SUCCESS,
        repeated: {
          const: true,
          description: "Present when the same name had already submitted the same answers: this is that first result (nothing new was stored or counted).",
        },
        result: schemaRef("StudentResult", STUDENT_RESULT),
      },
      ["repeated"],
    ),
    ClassResultsResponse: obj("A class quiz's results for its teacher: each student's score and answers, each question's share right.", {
      success: SUCCESS,
      class: schemaRef("ClassSummary", CLASS_SUMMARY),
      settings: schemaRef("ClassSettings", CLASS_SETTINGS),
      students: arrayOf(
        "The students, in the order they submitted.",
        obj("One student's result.", {
          name: str("The display name given."),
          score: int("Right answers.", { minimum: 0 }),
          submitted_at: INSTANT("When it was submitted."),
          answers: arrayOf(
            "The answers given, in question order.",
            obj("One answer.", { given: str("The answer given."), correct: bool("Whether it is right.") }),
          ),
        }),
      ),
      questions: arrayOf(
        "The questions in order, each with how the class did.",
        obj("One question and how the class did.", {
          number: int("Its number.", { minimum: 1 }),
          type: str("Quiz type."),
          prompt: str("What it asks about."),
          answer: str("The right answer: the key of the right option with its text (`2 家`), or the standard typed answer."),
          right: int("Students who answered it right.", { minimum: 0 }),
          answered: int("Students who submitted (a blank answer counts as wrong).", { minimum: 0 }),
          share_right: nullable(int("Per cent of `answered` who got it right, rounded; null before any submission.", { minimum: 0, maximum: 100 })),
        }),
      ),
    }),
  };
}

/** A class quiz's question as students see it. */
export type ClassQuestionView = Static<typeof CLASS_QUESTION>;
/** A student's result as `POST …/submissions` answers it. */
export type StudentResultView = Static<typeof STUDENT_RESULT>;
/** A class quiz in the teacher's list. */
export type ClassSummaryView = Static<typeof CLASS_SUMMARY>;
