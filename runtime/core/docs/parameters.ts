/**
 * Every parameter of both interfaces with the type, bounds and default the code enforces
 * (`http/params.ts` specs in the route files). Shared as `components.parameters`.
 */
import { DIFFICULTIES, QUIZ_TYPES } from "../quiz/makeQuiz.ts";
import type { Parameter } from "./types.ts";

const DIGITS = "Plain decimal digits; anything else (signs, decimals, blanks) or out of bounds is `400`. Given twice: `400`.";

function intQuery(name: string, description: string, minimum: number, maximum: number, defaultValue?: number): Parameter {
  return {
    name,
    in: "query",
    description: `${description} ${DIGITS}`,
    required: false,
    schema: { type: "integer", minimum, maximum, ...(defaultValue === undefined ? {} : { default: defaultValue }) },
  };
}

/** The parameters, keyed by component name. */
export function parameters(): Record<string, Parameter> {
  return {
    CharacterQuery: {
      name: "q",
      in: "query",
      description:
        "Search text, trimmed; at most 80 code points. Empty: no text filter. One Han character → that character; a code point " +
        "(`U+6C34`, `u+6c34`, `U 6C34`, `6C34`) → that character; Hangul → characters with that exact reading, then characters whose `meaning_ko` contains it; " +
        "other text → full-text search of `definition_en` and `meaning_ko` (word prefix, one typo per word of four letters or more when nothing matches exactly: a letter added, left out or changed). " +
        "In these text searches a CJK compatibility ideograph matching with its unified counterpart comes directly after it (its `variants_detail.kCompatibilityVariant` names it).",
      required: false,
      schema: { type: "string", maxLength: 80, default: "" },
    },
    IdiomQuery: {
      name: "q",
      in: "query",
      description:
        "Search text, trimmed (spaces inside are ignored for the hanja/hangul/initial-consonant match); at most 80 code points. Empty: every idiom in idx order. " +
        "Matches `hanja` and `hangul` as substrings, `chosung` when the text is made only of initial consonants (`ㄱㄱㄴㅁ`), and `meaning` as full text (word prefix, all words).",
      required: false,
      schema: { type: "string", maxLength: 80, default: "" },
    },
    Page: intQuery("page", "Page number, from 1. A page past the end returns `200` with empty `data`.", 1, 10_000, 1),
    PerPage: intQuery("per_page", "Results per page.", 1, 50, 24),
    Strokes: intQuery("strokes", "Only characters whose first `kTotalStrokes` value is this.", 1, 64),
    RadicalNumber: intQuery("radical_number", "Only characters with this Kangxi radical number.", 1, 214),
    Starter: intQuery("starter", "`1`: only characters with an original Korean learning gloss; `0`: only those without.", 0, 1),
    Education: intQuery("education", "Extra filter. `1`: only the 1,800 basic hanja for education; `0`: only the others.", 0, 1),
    Character: {
      name: "character",
      in: "path",
      description:
        "Exactly one character (one Unicode code point, astral characters included), percent-encoded UTF-8 in the URL. No Unicode normalisation: " +
        "CJK compatibility ideographs are distinct records. More or fewer characters, or a malformed escape: `400`; not in the dataset: `404`.",
      required: true,
      schema: { type: "string", minLength: 1, maxLength: 1 },
    },
    QuizType: {
      name: "type",
      in: "query",
      description: "Quiz type. Omitted: a random type for each quiz. Another value: `400`.",
      required: false,
      schema: { type: "string", enum: [...QUIZ_TYPES] },
    },
    Choices: intQuery("choices", "Number of options per quiz; the wrong options are random idioms, the correct one is included.", 2, 6, 4),
    QuizCount: intQuery("count", "Number of quizzes (distinct answers). `1` returns `quiz`; more returns `quizzes`. One metered call whatever the count.", 1, 20, 1),
    Exclude: {
      name: "exclude",
      in: "query",
      description:
        "Extra: comma-separated idx values (at most 200, each 1–999999) kept out of the answers, e.g. the ones a learner has already seen. " +
        "An empty value (`exclude=`) excludes nothing; a value with no idiom, or given twice, is allowed. If fewer than `count` idioms are left to ask about: `400`.",
      required: false,
      style: "form",
      explode: false,
      schema: { type: "array", items: { type: "integer", minimum: 1, maximum: 999_999 }, maxItems: 200, default: [] },
    },
    // Difficulty, repeatable draws and withheld idioms on /quiz (and withheld idioms on /idiom).
    Difficulty: {
      name: "difficulty",
      in: "query",
      description:
        "Extra: how the wrong options are drawn. `normal`: at random. `hard`: options that look like the answer, from the idioms sharing a hanja character, " +
        "a hangul syllable or the first two initial consonants with it (`meaning_to_idiom`, `hangul_to_hanja`), or from the idioms whose meanings are closest to its own " +
        "(`idiom_to_meaning`); topped up at random when too few are left. Either way no wrong option is from the answer's synonym group. Another value: `400`.",
      required: false,
      schema: { type: "string", enum: [...DIFFICULTIES], default: "normal" },
    },
    Seed: {
      name: "seed",
      in: "query",
      description:
        "Extra: makes the draw repeatable, e.g. the same quiz for a whole class. The same seed with the same other parameters gives the same quizzes " +
        "(types, prompts, options and their order, answers); `quiz_id` still differs on every call. Limits: repeatable only while the service runs the same data " +
        "release and quiz method (interface A's `GET /meta`, `data.built_at`, tells a new release); anyone with the seed sees the same answers. Omitted: a fresh draw every call.",
      required: false,
      schema: { type: "integer", minimum: 0, maximum: 4_294_967_295 },
    },
    Mature: intQuery(
      "mature",
      "Extra: `1` also draws the idioms withheld from the school set (listed in `pipeline/data/idioms-withheld.csv`: today 177 路柳墻花, a term for women in sex work), as answers and as wrong options. `0`: leave them out. They are always served by `/idiom/{idx}` and `/search`.",
      0,
      1,
      0,
    ),
    IdiomCount: intQuery("count", "Number of distinct random idioms. One metered call whatever the count.", 1, 50, 1),
    Idx: {
      name: "idx",
      in: "path",
      description: "The idiom's idx (1 to the number of idioms). Not a positive whole number written in digits: `400`; any positive whole number that is no idiom's idx (however large): `404` (counted).",
      required: true,
      schema: { type: "integer", minimum: 1 },
    },
    SearchQuery: {
      name: "q",
      in: "query",
      description:
        "Search text, required, trimmed, 1–80 code points; missing or blank: `400`. Matches `hanja` and `hangul` (substring), " +
        "`chosung` when made only of initial consonants, and `meaning` (full text).",
      required: true,
      schema: { type: "string", minLength: 1, maxLength: 80 },
    },
    KeyStatusFilter: {
      name: "status",
      in: "query",
      description: "Only keys with this live status (`expired`: active keys past `expires_at`, which `active` leaves out). Omitted: every key.",
      required: false,
      schema: { type: "string", enum: ["pending_deposit", "active", "expired", "revoked"] },
    },
    KeyId: {
      name: "id",
      in: "path",
      description: "Public key id, `key_` and 12 letters and digits; another shape: `400`.",
      required: true,
      schema: { type: "string", pattern: "^key_[0-9A-Za-z]{12}$" },
    },
  };
}
