/**
 * The parameters of interface B and of the admin routes, each written once: type, bounds, default
 * and description. The routes parse with these specs and the reference documents them
 * (`docs/parameters.ts`).
 */
import type { EnumListSpec, EnumSpec, IntListSpec, IntSpec, ParamSpec, PathSpec, TextSpec } from "../http/params.ts";
import { LEVELS } from "../quiz/characterBank.ts";
import { QUIZ_ID_TTL_SECONDS } from "../quiz/quizId.ts";
import { KEY_STATUSES } from "../quota/keyActions.ts";
import { DIFFICULTIES } from "../quiz/makeQuiz.ts";
import { PUBLISHED_TYPES, QUIZ_TYPES, TYPED_TYPES } from "../quiz/types/index.ts";
import { QUIZ_LANGS } from "../quiz/types/quizType.ts";
import { QUIZ_TYPE_DOCS } from "../docs/quizTypeDocs.ts";

/** `mature` of `GET /quiz` and `GET /idiom`: one parameter, one component. */
const MATURE = {
  kind: "int",
  min: 0,
  max: 1,
  default: 0,
  component: "Mature",
  description:
    "Extra: `1` also draws the idioms withheld from the school set (listed in `pipeline/data/idioms-withheld.csv`: today 177 路柳墻花, a term for women in sex work), as answers and as wrong options. `0`: leave them out. They are always served by `/idiom/{idx}` and `/search`.",
} as const satisfies IntSpec;

/** `GET /quiz`. */
export const QUIZ_PARAMS = {
  type: {
    kind: "enumList",
    values: QUIZ_TYPES,
    documentedDefault: PUBLISHED_TYPES.join(","),
    component: "QuizType",
    description:
      `Quiz type, or several separated by commas (each quiz then of one of them, at random). Omitted: a random type for each quiz among the published ones (${codes(PUBLISHED_TYPES)}); ` +
      "the others are drawn only when named. A value outside the list, or listed twice: `400`.",
  },
  choices: {
    kind: "int",
    min: 2,
    max: 6,
    default: 4,
    component: "Choices",
    description: "Number of options per quiz; the wrong options are random idioms, the correct one is included.",
  },
  count: {
    kind: "int",
    min: 1,
    max: 20,
    default: 1,
    component: "QuizCount",
    description: "Number of quizzes (distinct answers). `1` returns `quiz`; more returns `quizzes`. One metered call whatever the count.",
  },
  exclude: {
    kind: "intList",
    min: 1,
    max: 999_999,
    maxItems: 200,
    component: "Exclude",
    description:
      "Extra: comma-separated idx values (at most 200, each 1–999999) kept out of the answers, e.g. the ones a learner has already seen. " +
      "An empty value (`exclude=`) excludes nothing; a value with no idiom, or listed twice, is allowed. If fewer than `count` idioms are left to ask about: `400`. " +
      "It keeps idioms out of the idiom types and `idiom_blank`; the other character types ask about characters and ignore it.",
  },
  difficulty: {
    kind: "enum",
    values: DIFFICULTIES,
    documentedDefault: "normal",
    component: "Difficulty",
    description:
      `Extra: how the wrong options are drawn. \`normal\`: at random. \`hard\`: options that look like the answer, ${QUIZ_TYPE_DOCS.hard}; ` +
      `topped up at random when too few are left. Either way no wrong option is from the answer's synonym group. ${QUIZ_TYPE_DOCS.sameEum} Another value: \`400\`.`,
  },
  lang: {
    kind: "enum",
    values: QUIZ_LANGS,
    documentedDefault: "ko",
    component: "QuizLang",
    description:
      "Extra: the language of the meanings a quiz shows (the prompt of `meaning_to_idiom`, the options of `idiom_to_meaning`) and of its `question`: " +
      "`ko` (Korean) or `en` (English: the idioms' `meaning_en`). Hanja and hangul are the same either way, and `answer_idiom` carries both meanings. Another value: `400`.",
  },
  seed: {
    kind: "int",
    min: 0,
    max: 4_294_967_295,
    component: "Seed",
    description:
      "Extra: makes the draw repeatable, e.g. the same quiz for a whole class. The same seed with the same other parameters gives the same quizzes " +
      "(types, prompts, options and their order, answers); `quiz_id` still differs on every call. Limits: repeatable only while the service runs the same data " +
      "release and quiz method (interface A's `GET /meta`, `data.built_at`, tells a new release); anyone with the seed sees the same answers. Omitted: a fresh draw every call.",
  },
  mature: MATURE,
  level: {
    kind: "enum",
    values: LEVELS,
    documentedDefault: "education",
    component: "QuizLevel",
    description:
      "Extra: the characters the character types (`hunum_to_hanja`, `hanja_to_hunum`, `hanja_to_reading`, `idiom_blank`'s left-out character) ask about and offer: " +
      "`education` (the 1,800 basic hanja for education), `middle` or `high` (the 900 of them taught in middle school, 중학교용, or in high school, 고등학교용: `school_level`), " +
      "`name` (hanja allowed in personal names) or `all` (every character with a 훈음, 7,173); only characters with a 훈음 are drawn. " +
      "The idiom types ignore it. Another value: `400`.",
  },
  answer_format: {
    kind: "enum",
    values: ["choices", "typed"],
    documentedDefault: "choices",
    component: "AnswerFormat",
    description:
      `Extra: \`typed\` asks for the answer to be typed (${codes(TYPED_TYPES)} only): the quiz has \`answer_format: "typed"\`, no choices, \`answer\` the standard answer and \`accepted\` every answer graded right. ` +
      "With `type` omitted, `typed` draws `hangul_to_hanja`; another type with `typed`: `400`.",
  },
  reveal: {
    kind: "int",
    min: 0,
    max: 1,
    default: 1,
    component: "Reveal",
    description: `Extra: \`0\` leaves the answers out (\`answer\`, \`accepted\`, \`answer_idiom\`, \`answer_character\`, and each choice's \`hangul\`, which can read the answer out) and gives the quiz an encrypted \`quiz_id\` for grading on the server with \`POST /grade\` within ${QUIZ_ID_TTL_SECONDS / 3600} hours. \`1\`: included, as the published interface has them.`,
  },
} as const satisfies Record<string, EnumSpec | EnumListSpec | IntSpec | IntListSpec>;

/** Type names as code, comma-separated. */
function codes(names: readonly string[]): string {
  return names.map((name) => `\`${name}\``).join(", ");
}

/** `GET /idiom`. */
export const IDIOM_PARAMS = {
  count: {
    kind: "int",
    min: 1,
    max: 50,
    default: 1,
    component: "IdiomCount",
    description: "Number of distinct random idioms. One metered call whatever the count.",
  },
  mature: MATURE,
} as const satisfies Record<string, IntSpec>;

/** `GET /search`. */
export const SEARCH_PARAMS = {
  q: {
    kind: "text",
    maxLength: 80,
    required: true,
    component: "SearchQuery",
    description:
      "Search text, required, trimmed, 1–80 code points; missing or blank: `400`. Matches `hanja` and `hangul` (substring), " +
      "`chosung` when made only of initial consonants, and `meaning` (full text).",
  },
} as const satisfies Record<string, TextSpec>;

/** `GET /idiom/{idx}`. */
export const IDX_PATH = {
  kind: "positiveId",
  in: "path",
  component: "Idx",
  description:
    "The idiom's idx (1 to the number of idioms). Not a positive whole number written in digits: `400`; any positive whole number that is no idiom's idx (however large): `404` (counted).",
} as const satisfies PathSpec;

/** `GET /admin/keys`. */
export const KEY_LIST_PARAMS = {
  status: {
    kind: "enum",
    values: KEY_STATUSES,
    component: "KeyStatusFilter",
    description: "Only keys with this live status (`expired`: active keys past `expires_at`, which `active` leaves out). Omitted: every key.",
  },
} as const satisfies Record<string, ParamSpec>;

/** The admin routes' `{id}`. */
export const KEY_ID_PATH = {
  kind: "pattern",
  in: "path",
  pattern: /^key_[0-9A-Za-z]{12}$/,
  shape: "key_ followed by 12 letters and digits",
  component: "KeyId",
  description: "Public key id, `key_` and 12 letters and digits; another shape: `400`.",
} as const satisfies PathSpec;
