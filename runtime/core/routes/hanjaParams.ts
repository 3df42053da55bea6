/**
 * The parameters of interface A, each written once: type, bounds, default, description and, for a
 * character filter, its predicate. The routes parse with these specs, the search and page caches
 * key on them, and the reference documents them (`docs/parameters.ts`). Adding a filter to
 * `GET /hanja` is one entry in `CHARACTER_FILTERS`: its bounds, description and predicate.
 */
import type { CharacterData } from "../data/load.ts";
import { FLAG_EDUCATION, FLAG_HIGH_SCHOOL, FLAG_MIDDLE_SCHOOL, FLAG_STARTER } from "../../format/dist.ts";
import { SCHOOL_LEVELS } from "../../format/recordSchemas.ts";
import type { FilterPredicate } from "../hanja/searchCharacters.ts";
import { SORTS } from "../hanja/sortOrders.ts";
import { invalidParameter } from "../http/errors.ts";
import type { EnumSpec, IntSpec, PathSpec, TextSpec } from "../http/params.ts";
import type { WordQuery } from "../words/wordQuery.ts";

/** A filter of `GET /hanja`: a whole-number or enumerated parameter and the records it keeps. */
export type CharacterFilter = (IntSpec | EnumSpec) & FilterPredicate;

/** The flag of each `school_level`. */
const SCHOOL_LEVEL_FLAG: Record<string, number> = { middle: FLAG_MIDDLE_SCHOOL, high: FLAG_HIGH_SCHOOL };

const flag = (data: CharacterData, position: number, bit: number) => ((data.flags[position] ?? 0) & bit ? 1 : 0);

/** The filters of `GET /hanja`, AND-ed, in the order of the search cache key. */
export const CHARACTER_FILTERS = {
  strokes: {
    kind: "int",
    min: 1,
    max: 64,
    component: "Strokes",
    description: "Only characters whose first `kTotalStrokes` value is this.",
    keep: (data, i, value) => data.strokes[i] === value,
  },
  radical_number: {
    kind: "int",
    min: 1,
    max: 214,
    component: "RadicalNumber",
    description: "Only characters with this Kangxi radical number.",
    keep: (data, i, value) => data.radical[i] === value,
  },
  starter: {
    kind: "int",
    min: 0,
    max: 1,
    component: "Starter",
    description: "`1`: only characters with an original Korean learning gloss; `0`: only those without.",
    keep: (data, i, value) => flag(data, i, FLAG_STARTER) === value,
  },
  education: {
    kind: "int",
    min: 0,
    max: 1,
    component: "Education",
    description: "Extra filter. `1`: only the 1,800 basic hanja for education; `0`: only the others.",
    keep: (data, i, value) => flag(data, i, FLAG_EDUCATION) === value,
  },
  school_level: {
    kind: "enum",
    values: SCHOOL_LEVELS,
    component: "SchoolLevel",
    description:
      "Extra filter. `middle`: only the 900 education hanja taught in middle school (중학교용); `high`: only the 900 taught in high school (고등학교용) " +
      "(`school_level`, the 2000 교육부 고시 list). Another value: `400`.",
    keep: (data, i, value) => flag(data, i, SCHOOL_LEVEL_FLAG[value] ?? 0) === 1,
  },
} satisfies Record<string, CharacterFilter>;

/** The paging of both list routes; part of the page cache key, not of the search's. */
export const PAGING = {
  page: {
    kind: "int",
    min: 1,
    max: 10_000,
    default: 1,
    component: "Page",
    description: "Page number, from 1. A page past the end returns `200` with empty `data`.",
  },
  per_page: { kind: "int", min: 1, max: 50, default: 24, component: "PerPage", description: "Results per page." },
} as const satisfies Record<string, IntSpec>;

/** `GET /hanja`: parsed in this order (the first bad one is named) and documented in it; every parameter but the paging keys the search cache. */
export const HANJA_LIST_PARAMS = {
  q: {
    kind: "text",
    maxLength: 80,
    component: "CharacterQuery",
    description:
      "Search text, trimmed; at most 80 code points. Empty: no text filter. One Han character → that character; a code point " +
      "(`U+6C34`, `u+6c34`, `U 6C34`, `6C34`) → that character; Hangul (runs of spaces read as one) → characters with it as one of their 훈음 (`물 수`, `배울 학`), then characters with that exact reading, then characters with a 훈 equal to it (`물` → 水), then characters whose `meaning_ko` or a 훈 contains it; " +
      "other text → full-text search of `definition_en` and `meaning_ko` (word prefix, one typo per word of four letters or more when nothing matches exactly: a letter added, left out or changed). " +
      "In these text searches a CJK compatibility ideograph matching with its unified counterpart comes directly after it (its `variants_detail.kCompatibilityVariant` names it).",
  },
  ...PAGING,
  ...CHARACTER_FILTERS,
  sort: {
    kind: "enum",
    values: SORTS,
    documentedDefault: "relevance",
    component: "CharacterSort",
    description:
      "The order of the matches (applied before paging, with any `q` and filters). `relevance`: the search's own order (code point order for an empty `q`); " +
      "`reading`: 가나다 order of each character's `reading`, then fewer strokes, then code point — the order of the textbooks' and the 교육부 list of the 1,800; " +
      "`strokes`: fewer strokes, then `reading` in 가나다 order, then code point; `codepoint`: code point order. Another value: `400`.",
  },
} as const satisfies Record<string, TextSpec | IntSpec | EnumSpec>;

/** `GET /idioms`, as `HANJA_LIST_PARAMS`. */
export const IDIOMS_LIST_PARAMS = {
  q: {
    kind: "text",
    maxLength: 80,
    component: "IdiomQuery",
    description:
      "Search text, trimmed (spaces inside are ignored for the hanja/hangul/initial-consonant match); at most 80 code points. Empty: every idiom in idx order. " +
      "Matches `hanja` and `hangul` as substrings, `chosung` when the text is made only of initial consonants (`ㄱㄱㄴㅁ`), and `meaning` as full text (word prefix, all words).",
  },
  ...PAGING,
} as const satisfies Record<string, TextSpec | IntSpec>;

/** `GET /words` (docs/rules.md "Words"), as `HANJA_LIST_PARAMS`: `q` or `char`, not both. */
export const WORDS_LIST_PARAMS = {
  q: {
    kind: "text",
    maxLength: 40,
    component: "WordQuery",
    description:
      "A word or part of one, trimmed; at most 40 code points: Han characters (`水道`) are matched against the words' hanja, Hangul syllables (`수도`) against each of their readings. " +
      "The words equal to it come first, then the words starting with it, then the words containing it, each group in the words' listed order. " +
      "Other text (Latin letters, spaces inside, Han and Hangul mixed) is a `400`, as is giving both `q` and `char`. Neither: every word, in the listed order.",
  },
  char: {
    kind: "text",
    maxLength: 1,
    component: "WordCharacter",
    description:
      "One character: every word holding it, in the words' listed order (a character's detail shows the first three and `word_count`). " +
      "A character outside the dataset, or not a Han character, holds no word (`200`, empty `data`); more than one character is a `400`.",
  },
  ...PAGING,
} as const satisfies Record<string, TextSpec | IntSpec>;

const HAN = /^\p{Script=Han}+$/u;
const HANGUL_SYLLABLES = /^[\uAC00-\uD7A3]+$/;

/**
 * The words query of `GET /words`'s `q` and `char` as parsed (trimmed, `char` one character at most): not both; `q`
 * all Han characters or all Hangul syllables, else a `400` naming it. Neither: every word.
 */
export function wordQuery(q: string, char: string): WordQuery {
  if (q !== "" && char !== "") throw invalidParameter("char", "give q or char, not both");
  if (char !== "") return { by: "char", value: char };
  if (q === "") return { by: "all" };
  if (!HAN.test(q) && !HANGUL_SYLLABLES.test(q)) {
    throw invalidParameter("q", `q must be Han characters (水道) or Hangul syllables (수도), not both and nothing else; got ${JSON.stringify(q)}`);
  }
  return { by: "q", value: q };
}

/** `GET /hanja/{character}`. */
export const CHARACTER_PATH = {
  kind: "character",
  in: "path",
  component: "Character",
  description:
    "Exactly one character (one Unicode code point, astral characters included), percent-encoded UTF-8 in the URL. No Unicode normalisation: " +
    "CJK compatibility ideographs are distinct records. More or fewer characters, or a malformed escape: `400`; not in the dataset: `404`.",
} as const satisfies PathSpec;
