/**
 * The rules of class quizzes, written once (docs/api.md "Class quizzes"): the code's shape, the
 * bounds a teacher chooses within, the display name a student gives and how names are compared.
 */
import { codePointLength } from "../util/codePointLength.ts";
import { type Random, randomBase62 } from "../util/random.ts";

export { CLASS_BOUNDS } from "../../format/classSchemas.ts";

/** The server's limits (settings `CLASS_RESULTS_DAYS`, `CLASS_STUDENTS_MAX`, `CLASS_QUIZZES_PER_KEY`): their defaults. */
export const CLASS_LIMITS = { resultsDays: 30, studentsMax: 200, perKey: 100 } as const;

/** `cq_` and 22 base62 characters (about 131 random bits): nothing to guess, nothing to derive. */
export const CLASS_CODE_PATTERN = /^cq_[0-9A-Za-z]{22}$/;

/** A new class code from the platform CSPRNG. */
export function newClassCode(random: Random): string {
  return `cq_${randomBase62(random, 22)}`;
}

/**
 * What no name or title may hold: control characters, lone surrogates, and the bidirectional
 * overrides and isolates, which would make a name display as another in the teacher's list.
 */
const FORBIDDEN = /[\p{Cc}\p{Cs}\u202a-\u202e\u2066-\u2069]/u;

/** A short text a person types (a display name, a title), trimmed and checked: the text, or what is wrong with it. */
export function checkShortText(field: string, value: unknown, max: number, required: boolean): { text: string } | { problem: string } {
  if (value === undefined || value === null) return required ? { problem: `${field} is required` } : { text: "" };
  if (typeof value !== "string") return { problem: `${field} must be a string` };
  const text = value.trim().replace(/\s+/g, " ");
  if (text === "") return required ? { problem: `${field} must not be blank` } : { text: "" };
  if (FORBIDDEN.test(text)) return { problem: `${field} must not contain control characters, bidirectional overrides or unpaired surrogates` };
  if (codePointLength(text) > max) return { problem: `${field} may be at most ${max} characters` };
  if (!/[\p{L}\p{N}]/u.test(text)) return { problem: `${field} must contain a letter or digit` };
  return { text };
}

/**
 * How two display names are compared: NFKC (full-width and compatibility forms as their plain
 * letters, Hangul jamo composed), case folded, runs of spaces as one. `김 민준`, `김  민준` and
 * `ＫＩＭ` / `kim` are each one name.
 */
export function nameKey(name: string): string {
  return name.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}
