/**
 * The shapes interface B publishes (docs/rules.md "Records", "Interface B") and those of its admin
 * routes, each declared once as a JSON Schema with its descriptions, beside the records of
 * `recordSchemas.ts`: the quiz, its choices, a key's status and usage, the grading and subscription
 * bodies. The bounds they publish are declared here and the routes enforce these
 * (`SEARCH_LIMIT`, `MAX_GRADED`, `MAX_ANSWER_LENGTH`); what they say that the core decides (the
 * quiz types and the reference's phrases for them, the plans, the usage the store keeps) comes in
 * as `QuizSchemaTerms`, so this module imports nothing outside `runtime/format/`. The OpenAPI document publishes them
 * (`docs/openapi.ts`), the page imports their types, and a test holds the field table of
 * docs/rules.md against them.
 */
import { IDIOM_B } from "./recordSchemas.ts";
import { classSchemas } from "./classSchemas.ts";
import { type Schema, type Static, arrayOf, bool, int, nullable, obj, oneOf, schemaRef, str } from "./schema.ts";

/** The most idioms `GET /search` answers with, best first. */
export const SEARCH_LIMIT = 30;
/** The most answers one `POST /grade` grades (as many as one call draws). */
export const MAX_GRADED = 20;
/** The longest answer `POST /grade` reads, in UTF-16 units: a 훈음 or an idiom is far shorter. */
export const MAX_ANSWER_LENGTH = 100;

/** What interface B's schemas say that the core decides (`runtime/core/docs/quizTerms.ts` gathers it). */
export interface QuizSchemaTerms<Type extends string = string> {
  /** The `type` values, in the reference's order. */
  readonly types: readonly Type[];
  /** The reference's phrases for the types' prompts, their options' `text` and `hangul`. */
  readonly typeDocs: { readonly prompt: string; readonly text: string; readonly hangul: string };
  /** Calls a day of the free plan (a new key's). */
  readonly freeDailyLimit: number;
  /** Price of the annual plan, KRW. */
  readonly annualPriceKrw: number;
  /** The metering days `GET /me`'s `usage` lists. */
  readonly recentUsageDays: number;
  /** The days a key's usage history is kept. */
  readonly usageKeepDays: number;
}

/** `success: true` of every successful interface-B body. */
const SUCCESS: Schema = { const: true, description: "Always true on success." };

const KEY_ID = str("Public key id: `key_` and 12 letters and digits. Safe to show and log.", { pattern: "^key_[0-9A-Za-z]{12}$" });
const INSTANT = (description: string) => str(description, { format: "date-time" });
const PLAN = oneOf(["demo", "free", "annual"], "Plan: `demo` (no key), `free` (key awaiting its deposit), `annual` (deposit confirmed).");
const KEY_STATUS = oneOf(
  ["pending_deposit", "active", "expired", "revoked"],
  "Key status: `pending_deposit` (free plan, awaiting the deposit), `active`, `expired` (annual plan past `expires_at`), `revoked`. The demo reports `active`.",
);

/** One day of a key's usage history (component `DailyUsage`). */
export const DAILY_USAGE = obj("A key's calls on one metering day.", {
  date: str("The metering day (Asia/Seoul by default), `YYYY-MM-DD`.", { format: "date" }),
  calls: int("Metered calls counted that day (429s and calls answered 503 are not counted).", { minimum: 0 }),
});

/** What a character quiz answers with (component `AnswerCharacter`). */
export const ANSWER_CHARACTER = obj("Extra: the character a character quiz asks about (for `idiom_blank`, the one left out).", {
  character: str("The character.", { minLength: 1, maxLength: 2 }),
  reading: str("Its representative reading (대표음), as in interface A's record (`reading`): 北 `북`.", { minLength: 1, maxLength: 1 }),
  readings: arrayOf("Its readings (Unihan), as in interface A's record.", str("One reading.")),
  hunum: arrayOf(
    "Its 훈음 as `훈 음` texts, as in interface A's record: an education hanja's 대표훈음 first, then the dictionary's order.",
    str("One 훈음, e.g. `물 수`."),
  ),
});

/**
 * The records of interface B that say what the core decides (`terms`): a quiz (component `Quiz`;
 * docs/rules.md "Records"), its choices (`Choice`) and a key's status (`KeyStatus`, `GET /me`'s `key`).
 */
export function quizRecords<Type extends string>(terms: QuizSchemaTerms<Type>) {
  /** One option of a quiz (component `Choice`). */
  const choice = obj(
    "One option of a quiz.",
    {
      key: str("Option number, `1`…`n`.", { pattern: "^[1-6]$" }),
      text: str(terms.typeDocs.text),
      hangul: str(`Hangul of what this option stands for: ${terms.typeDocs.hangul}. Left out with \`reveal=0\` (it can read the answer out).`),
    },
    ["hangul"],
  );

  /** A quiz (component `Quiz`; docs/rules.md "Records"). */
  const quiz = obj(
    "A quiz. The answer is included so the client can grade locally, unless `reveal=0` asked to leave it out (then `POST /grade` grades).",
    {
      quiz_id: str(
        "Unique id of the quiz: `qz_` and 16 letters and digits; with `reveal=0`, `qz_` and 56 letters, digits, `-` and `_`, carrying what `POST /grade` needs, encrypted (nothing of the answer can be read out of it), for 24 hours. Opaque to clients.",
        { pattern: "^qz_([0-9A-Za-z]{16}|[0-9A-Za-z_-]{56})$" },
      ),
      type: oneOf(terms.types, "Quiz type."),
      question: str("Instruction sentence of the type (Korean, or English with `lang=en`)."),
      answer_format: { const: "typed", description: "Extra: present with `answer_format=typed`: the answer is typed, `choices` is empty." },
      prompt: str(terms.typeDocs.prompt),
      choices: arrayOf(
        "The options, shuffled, distinct in `text`, keyed `1`…`n`; exactly one is correct: no wrong option would also answer the prompt. Empty for a typed quiz.",
        schemaRef("Choice", choice),
        { maxItems: 6 },
      ),
      answer: str("The `key` of the correct choice; for a typed quiz, the standard answer. Left out with `reveal=0`."),
      accepted: arrayOf(
        "Extra, typed quizzes: every answer graded right (compared in any Unicode normalisation form, spaces aside). Left out with `reveal=0`.",
        str("One accepted answer."),
      ),
      answer_idiom: schemaRef("Idiom", IDIOM_B),
      answer_character: schemaRef("AnswerCharacter", ANSWER_CHARACTER),
    },
    ["answer_format", "answer", "accepted", "answer_idiom", "answer_character"],
  );

  /** The status of a key, or of the demo quota (component `KeyStatus`, `GET /me`'s `key`). */
  const keyStatus = obj("Status of the calling key, or of the caller's demo quota when no key is sent.", {
    id: nullable(KEY_ID),
    plan: PLAN,
    status: KEY_STATUS,
    daily_limit: int("Calls per day of the plan (0 for an expired or revoked key).", { minimum: 0 }),
    used_today: int("Metered calls counted today.", { minimum: 0 }),
    remaining: int("Calls left today.", { minimum: 0 }),
    resets_at: INSTANT("When the daily counters reset (next midnight of the metering day, Asia/Seoul by default)."),
    expires_at: nullable(INSTANT("When the annual plan ends; null before the deposit is confirmed and for the demo.")),
    days_left: nullable(
      int(
        "Whole days until `expires_at`, counted up (ending in two hours: 1); 0 once expired; null without an end (awaiting the deposit, revoked, the demo).",
        {
          minimum: 0,
        },
      ),
    ),
    created_at: nullable(INSTANT("When the key was issued; null for the demo.")),
    usage: nullable(
      arrayOf(
        `Extra: the key's calls on each of the last ${terms.recentUsageDays} metering days, oldest first, today last (0 for a day without calls). Null for the demo, whose counts are kept by address and only a few days.`,
        schemaRef("DailyUsage", DAILY_USAGE),
        { minItems: terms.recentUsageDays, maxItems: terms.recentUsageDays },
      ),
    ),
  });

  return { choice, quiz, keyStatus };
}

/** A quiz as `GET /quiz` answers it, of the `type` values `Type`. */
export type QuizOf<Type extends string> = Static<ReturnType<typeof quizRecords<Type>>["quiz"]>;

/** A key's status as `GET /me` answers it. */
export type KeyStatus = Static<ReturnType<typeof quizRecords>["keyStatus"]>;

/** Component schemas of interface B and the admin routes. */
export function quizSchemas<Type extends string>(terms: QuizSchemaTerms<Type>): Record<string, Schema> {
  const { choice, quiz, keyStatus } = quizRecords(terms);
  return {
    Idiom: IDIOM_B,
    Choice: choice,
    AnswerCharacter: ANSWER_CHARACTER,
    Quiz: quiz,
    Quota: obj("The caller's plan and the calls left today after this one.", {
      plan: PLAN,
      remaining: int("Calls left today.", { minimum: 0 }),
    }),
    QuizResponse: obj("One quiz (`count` = 1).", { success: SUCCESS, quiz: schemaRef("Quiz"), quota: schemaRef("Quota") }),
    QuizzesResponse: obj("Several quizzes (`count` > 1) with distinct answers.", {
      success: SUCCESS,
      quizzes: arrayOf("The quizzes.", schemaRef("Quiz"), { minItems: 2, maxItems: 20 }),
      quota: schemaRef("Quota"),
    }),
    IdiomsResponse: obj("Distinct random idioms.", {
      success: SUCCESS,
      idioms: arrayOf("The idioms.", schemaRef("Idiom"), { minItems: 1, maxItems: 50 }),
      quota: schemaRef("Quota"),
    }),
    IdiomResponse: obj("One idiom.", { success: SUCCESS, idiom: schemaRef("Idiom"), quota: schemaRef("Quota") }),
    SearchResponse: obj(`Idioms matching \`q\`, best first, at most ${SEARCH_LIMIT}.`, {
      success: SUCCESS,
      query: str("The query as used (trimmed and composed; see Conventions)."),
      count: int(`Number of idioms returned (at most ${SEARCH_LIMIT}).`, { minimum: 0, maximum: SEARCH_LIMIT }),
      total: int(
        `Extra: number of idioms matching \`q\`. More than \`count\` means the list was cut at ${SEARCH_LIMIT}; interface A's \`GET /idioms?q=\` pages through them all.`,
        { minimum: 0 },
      ),
      idioms: arrayOf("The matches, best first.", schemaRef("Idiom"), { maxItems: SEARCH_LIMIT }),
      quota: schemaRef("Quota"),
    }),
    GradeRequest: {
      description: `One answer to grade, or a list of 1 to ${MAX_GRADED} (then \`results\` answers in the same order). Sent as UTF-8 JSON; unknown fields are ignored.`,
      oneOf: [schemaRef("Answer"), { type: "array", items: schemaRef("Answer"), minItems: 1, maxItems: MAX_GRADED }],
    },
    Answer: obj("An answer to one quiz.", {
      quiz_id: str("The quiz's `quiz_id`, as `GET /quiz` gave it (at most 24 hours old)."),
      answer: str(`The key of the chosen option (\`"2"\`), or for a typed quiz the typed answer; at most ${MAX_ANSWER_LENGTH} characters.`, {
        maxLength: MAX_ANSWER_LENGTH,
      }),
    }),
    GradeResult: obj(
      "Whether an answer is right, with the right answer.",
      {
        quiz_id: str("The quiz graded."),
        type: oneOf(terms.types, "Its type."),
        correct: bool("True when the answer is right: the right key, or for a typed quiz any of `accepted` in any Unicode normalisation form, spaces aside."),
        answer: str("The key of the right option; for a typed quiz, the standard answer."),
        accepted: arrayOf("Typed quizzes: every answer graded right.", str("One accepted answer.")),
        answer_idiom: schemaRef("Idiom"),
        answer_character: schemaRef("AnswerCharacter"),
      },
      ["accepted", "answer_idiom", "answer_character"],
    ),
    GradeResponse: obj("One answer graded.", { success: SUCCESS, result: schemaRef("GradeResult") }),
    GradesResponse: obj("A list of answers graded, in the order sent.", {
      success: SUCCESS,
      results: arrayOf("The results.", schemaRef("GradeResult"), { minItems: 1, maxItems: MAX_GRADED }),
    }),
    KeyStatus: keyStatus,
    DailyUsage: DAILY_USAGE,
    KeyStatusResponse: obj("The caller's key status.", { success: SUCCESS, key: schemaRef("KeyStatus") }),
    SubscribeRequest: {
      type: "object",
      description:
        "An application for the annual plan, sent as UTF-8 JSON (another `charset` is `415`). Strings are trimmed; control characters, bidirectional overrides and unpaired surrogates are rejected; unknown fields are ignored.",
      properties: {
        name: str("Name or business name, 1–100 characters, with at least one letter or digit.", { minLength: 1, maxLength: 100 }),
        email: str(
          "E-mail address, at most 254 characters, the part before `@` at most 64 without leading, trailing or double dots. One pending application per address.",
          { format: "email", maxLength: 254 },
        ),
        phone: nullable(str("Contact number: digits, spaces and `+ - ( )`, at most 20.", { pattern: "^[0-9 +\\-()]{1,20}$" })),
        depositor: nullable(str("Name the deposit will be made under, at most 50 characters.", { maxLength: 50 })),
      },
      required: ["name", "email"],
    },
    SubscribeResponse: obj("The issued key (shown only here, once) and the payment instructions.", {
      success: SUCCESS,
      api_key: str("The API key: `hj_` and 32 letters and digits. Store it; it cannot be shown again.", { pattern: "^hj_[0-9A-Za-z]{32}$" }),
      key: obj("The new key: free plan until the deposit is confirmed.", {
        id: KEY_ID,
        plan: { const: "free", description: "Free plan until the deposit is confirmed." },
        status: { const: "pending_deposit", description: "Awaiting the deposit." },
        daily_limit: { const: terms.freeDailyLimit, description: "Calls per day until the deposit is confirmed." },
      }),
      payment: obj("How to pay for the annual plan.", {
        plan: { const: "annual", description: "The plan applied for." },
        price_krw: { const: terms.annualPriceKrw, description: "Price per year in KRW." },
        method: { const: "bank_transfer", description: "Bank transfer only." },
        account: str("The bank account to transfer to (operator configuration)."),
        reference: str(
          "The payment reference: write it as the depositor name of the transfer, so that it is matched to this key: `HJ` and 6 characters, unique among applications awaiting their deposit.",
          {
            pattern: "^HJ[0-9A-Z]{6}$",
          },
        ),
        depositor: str("Deprecated (removed in the next release): the same value as `reference`, under the name the application's own `depositor` also has.", {
          pattern: "^HJ[0-9A-Z]{6}$",
          deprecated: true,
        }),
      }),
    }),
    AdminKey: obj("A key as the operator sees it, with the applicant's details (only admin routes show them).", {
      id: KEY_ID,
      plan: str("`free` until the deposit is confirmed, then `annual`.", { enum: ["free", "annual"] }),
      status: KEY_STATUS,
      created_at: INSTANT("When the key was issued."),
      confirmed_at: nullable(INSTANT("When the deposit was last confirmed (renewals included).")),
      expires_at: nullable(INSTANT("End of the annual plan.")),
      revoked_at: nullable(INSTANT("When the key was revoked.")),
      payment_reference: str("The reference the customer was asked to write as the depositor name (`payment.reference` of the subscribe answer).", {
        pattern: "^HJ[0-9A-Z]{6}$",
      }),
      erased_at: nullable(
        INSTANT(
          "When the applicant's personal data was erased (RETENTION_DAYS after an application still awaiting its deposit, or after a revocation); null while it is kept.",
        ),
      ),
      applicant: obj("The applicant's personal data; empty strings and nulls once erased.", {
        name: str("Name or business name."),
        email: str("E-mail address.", { pattern: "^$|@" }),
        phone: nullable(str("Contact number.")),
        depositor: nullable(str("Depositor name given in the application.")),
      }),
    }),
    AdminKeyResponse: obj(
      "One key.",
      {
        success: SUCCESS,
        key: schemaRef("AdminKey"),
        unchanged: {
          const: true,
          description: "Present when the action changed nothing: confirming a key that is already active (a repeated click must not sell a second year).",
        },
        note: str("Present with `unchanged`: what the key already is, and when a deposit for the next year can be confirmed."),
      },
      ["unchanged", "note"],
    ),
    AdminKeyUsage: obj(`A key's usage history: the days with counted calls, oldest first, as far back as it is kept (${terms.usageKeepDays} days).`, {
      success: SUCCESS,
      id: KEY_ID,
      from: str("The first day kept, `YYYY-MM-DD`.", { format: "date" }),
      to: str("Today, the metering day, `YYYY-MM-DD`.", { format: "date" }),
      total_calls: int("The calls of the days listed.", { minimum: 0 }),
      usage: arrayOf("The days with calls, oldest first.", schemaRef("DailyUsage"), { maxItems: terms.usageKeepDays + 3 }),
    }),
    ...classSchemas(),
    AdminKeyList: obj("Keys, newest first.", {
      success: SUCCESS,
      count: int("Number of keys listed.", { minimum: 0 }),
      keys: arrayOf("The keys.", schemaRef("AdminKey")),
    }),
  };
}
