/**
 * What each `createApp` option that a server setting feeds accepts, declared once: its default
 * and, for a whole number, its bounds. `resolveOptions` checks the options by these rules, and the
 * server's table of settings (`runtime/entry/settings.ts`) reads the variable behind each option by
 * the same rule, so an option and its variable cannot accept different values. The rules live in
 * the core because the core must not import the server programs.
 */
import { DEFAULT_RETENTION_DAYS } from "./quota/retention.ts";

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
  | { readonly type: "text" };

/** The rules, by `AppOptions` field. */
export const OPTION_RULES = {
  hanjaBase: { type: "path", default: "/hanja/v1" },
  quizBase: { type: "path", default: "/quiz/v1" },
  mountPath: { type: "path", default: "" },
  quotaTzOffset: { type: "offset", default: "+09:00" },
  trustProxyHops: { type: "integer", default: 0, min: 0, max: 10 },
  adminToken: { type: "token" },
  bankAccount: { type: "text" },
  retentionDays: { type: "integer", default: DEFAULT_RETENTION_DAYS, min: 1, max: 3650 },
} as const satisfies Record<string, OptionRule>;

/** An option with a rule: one a server setting may feed. */
export type RuledOption = keyof typeof OPTION_RULES;

/** The options whose rule is a whole number with bounds. */
export type IntegerOption = { [K in RuledOption]: (typeof OPTION_RULES)[K]["type"] extends "integer" ? K : never }[RuledOption];
