/**
 * The rules of the `createApp` options a server setting may feed (`AppOptions` in `appOptions.ts`
 * says what each does): default and bounds, and the types of each option as given and as checked.
 * Kept apart from `appOptions.ts` (which checks them) so that the operations can name the checked
 * options' type without importing the module whose `AppOptions` names the operations' own types:
 * that would be an import loop.
 */
import { DEFAULT_CACHE_MB, MAX_CACHE_MB, MIN_CACHE_MB } from "./util/cacheBudget.ts";
import { DEFAULT_RETENTION_DAYS } from "./quota/retention.ts";
import { CLASS_LIMITS } from "./classes/classRules.ts";

/** What one option accepts. */
export type OptionRule =
  /** A path such as `/hanja/v1` (a trailing slash dropped), or `""` for the root where the default is `""`. */
  | { readonly type: "path"; readonly default: string }
  /** A UTC offset such as `+09:00`. */
  | { readonly type: "offset"; readonly default: string }
  /** A whole number from `min` to `max`. */
  | { readonly type: "integer"; readonly default: number; readonly min: number; readonly max: number }
  /** A secret of at least 16 characters, not counting spaces around them; unset by default. */
  | { readonly type: "token" }
  /** Free text; unset by default. */
  | { readonly type: "text" }
  /** Secrets separated by commas, each at least 16 characters (the first signs, each verifies); unset by default. */
  | { readonly type: "secrets" };

/** The rules, by `AppOptions` field. */
export const OPTION_RULES = {
  hanjaBase: { type: "path", default: "/hanja/v1" },
  quizBase: { type: "path", default: "/quiz/v1" },
  mountPath: { type: "path", default: "" },
  quotaTzOffset: { type: "offset", default: "+09:00" },
  trustProxyHops: { type: "integer", default: 0, min: 0, max: 10 },
  adminToken: { type: "token" },
  metricsToken: { type: "token" },
  bankAccount: { type: "text" },
  quizSecret: { type: "secrets" },
  retentionDays: { type: "integer", default: DEFAULT_RETENTION_DAYS, min: 1, max: 3650 },
  classResultsDays: { type: "integer", default: CLASS_LIMITS.resultsDays, min: 1, max: 365 },
  classStudentsMax: { type: "integer", default: CLASS_LIMITS.studentsMax, min: 1, max: 1000 },
  classQuizzesPerKey: { type: "integer", default: CLASS_LIMITS.perKey, min: 1, max: 10_000 },
  cacheMegabytes: { type: "integer", default: DEFAULT_CACHE_MB, min: MIN_CACHE_MB, max: MAX_CACHE_MB },
} as const satisfies Record<string, OptionRule>;

/** An option with a rule: one a server setting may feed. */
export type RuledOption = keyof typeof OPTION_RULES;

/** What an option of each rule is given as. */
export interface RuleInputs {
  path: string;
  offset: string;
  integer: number;
  token: string;
  text: string;
  secrets: string;
}

/** The ruled options as `createApp` takes them, each optional. */
export type RuledInputs = { [K in RuledOption]?: RuleInputs[(typeof OPTION_RULES)[K]["type"]] };

/** What a rule's option holds once checked: a token or text left unset stays undefined. */
export interface RuleValues {
  path: string;
  offset: string;
  integer: number;
  token: string | undefined;
  text: string | undefined;
  secrets: string | undefined;
}

/** The ruled options, checked, their defaults filled in. */
export type RuledValues = { [K in RuledOption]: RuleValues[(typeof OPTION_RULES)[K]["type"]] };
