/**
 * The kinds of server setting and how each reads its environment variable: the builders the table
 * of settings (`settings.ts`) is written with. A setting that feeds a `createApp` option takes its
 * type, default and bounds from the option's rule (`OPTION_RULES` in `core/appOptions.ts`), so the variable and the
 * option accept the same values.
 */
import { OPTION_RULES, type OptionRule, type RuleValues, type RuledOption, SECRETS_RULE, secretList } from "../core/appOptions.ts";
import { strongAdminToken } from "../core/quota/apiKeys.ts";
import { parseOffset } from "../core/quota/clock.ts";

/** A value read, or what a valid value is (`must be 0 or 1`), said without the value. */
export type Parsed<T> = { value: T } | { problem: string };

/** One environment variable of the server. */
export interface Setting<T = unknown> {
  /** The variable, e.g. `TRUST_PROXY_HOPS`. */
  readonly variable: string;
  /** The `createApp` option it sets, when it sets one: the server passes the value on as it is. */
  readonly option?: RuledOption;
  /** What kind of value it takes (for the docs; `parse` is what checks it). */
  readonly type: "integer" | "path" | "offset" | "token" | "secrets" | "text" | "host" | "flag" | "choice";
  /** The value used when it is unset or empty, as it would be written in the environment. */
  readonly default?: string;
  /** What happens when it is unset, in words, where there is no default value (`none`, `unset`). */
  readonly unset?: string;
  /** The bounds of a whole number. */
  readonly min?: number;
  readonly max?: number;
  /** A secret: its value is never repeated in an error, `--help` or a log. */
  readonly secret: boolean;
  /** `--help` text after the name; later lines are indented under the first. The default and bounds are added at `{default}`, else at its end. */
  readonly help: string;
  /** Reads a value that is set (never called with an empty one, nor for an unset one without a default). */
  readonly parse: (raw: string) => Parsed<T>;
}

/** What every builder takes besides its type's own fields. */
interface Described {
  help: string;
  unset?: string;
}

/** A whole number from `min` to `max`; `scale` turns it into the value kept (seconds into milliseconds). */
export function integer(variable: string, spec: Described & { default: number; min: number; max: number; scale?: number }): Setting<number> {
  const { min, max, scale = 1 } = spec;
  return {
    variable,
    type: "integer",
    default: String(spec.default),
    min,
    max,
    secret: false,
    help: spec.help,
    parse: (raw) =>
      /^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max
        ? { value: Number(raw) * scale }
        : { problem: `must be a whole number from ${min} to ${max}` },
  };
}

/** A path such as `/hanja/v1`, its trailing slash dropped; `""` only as a default (none). */
export function path(variable: string, spec: Described & { default: string; example: string }): Setting<string> {
  return {
    variable,
    type: "path",
    default: spec.default,
    unset: spec.unset,
    secret: false,
    help: spec.help,
    parse: (raw) => {
      if (raw === "") return { value: "" };
      return /^(\/[A-Za-z0-9._~-]+)+\/?$/.test(raw) ? { value: raw.replace(/\/$/, "") } : { problem: `must be a path like ${spec.example}` };
    },
  };
}

/** A UTC offset such as `+09:00`. */
export function offset(variable: string, spec: Described & { default: string }): Setting<string> {
  const parse = (raw: string): Parsed<string> => (parseOffset(raw) === null ? { problem: "must be an offset like +09:00" } : { value: raw });
  return { variable, type: "offset", default: spec.default, secret: false, help: spec.help, parse };
}

/** A secret of at least 16 characters, not counting spaces around them. */
export function token(variable: string, spec: Described): Setting<string | undefined> {
  const parse = (raw: string): Parsed<string> =>
    strongAdminToken(raw) ? { value: raw } : { problem: "must be at least 16 characters, not counting spaces around them" };
  return { variable, type: "token", unset: spec.unset ?? "unset", secret: true, help: spec.help, parse };
}

/** Secrets separated by commas, each at least 16 characters (`secretList`): kept as written, never repeated. */
export function secrets(variable: string, spec: Described): Setting<string | undefined> {
  const parse = (raw: string): Parsed<string> => (secretList(raw) === null ? { problem: SECRETS_RULE } : { value: raw });
  return { variable, type: "secrets", unset: spec.unset ?? "unset", secret: true, help: spec.help, parse };
}

/** Any text, kept as it is. */
export function text(variable: string, spec: Described): Setting<string | undefined> {
  return { variable, type: "text", unset: spec.unset ?? "none", secret: false, help: spec.help, parse: (raw) => ({ value: raw }) };
}

/** A host name or address to bind: no spaces. */
export function host(variable: string, spec: Described & { default: string }): Setting<string> {
  const parse = (raw: string): Parsed<string> => (/\s/.test(raw) ? { problem: "must be a host name or address" } : { value: raw });
  return { variable, type: "host", default: spec.default, secret: false, help: spec.help, parse };
}

/** `1` (on) or `0` (off). */
export function flag(variable: string, spec: Described & { default: boolean }): Setting<boolean> {
  const parse = (raw: string): Parsed<boolean> => (raw === "0" || raw === "1" ? { value: raw === "1" } : { problem: "must be 0 or 1" });
  return { variable, type: "flag", default: spec.default ? "1" : "0", secret: false, help: spec.help, parse };
}

/** One of `choices`, the first unless set. */
export function choice<C extends string>(variable: string, spec: Described & { choices: readonly C[]; default: C }): Setting<C> {
  const parse = (raw: string): Parsed<C> =>
    (spec.choices as readonly string[]).includes(raw) ? { value: raw as C } : { problem: `must be ${spec.choices.join(" or ")}` };
  return { variable, type: "choice", default: spec.default, secret: false, help: spec.help, parse };
}

/**
 * The variable behind a `createApp` option: its type, default and bounds are the option's rule,
 * so that both accept the same values. `example` is the path a path's message shows.
 */
export function forOption<O extends RuledOption>(
  variable: string,
  option: O,
  spec: Described & { example?: string },
): Setting<RuleValues[(typeof OPTION_RULES)[O]["type"]]> {
  return { ...settingFor(variable, OPTION_RULES[option], spec), option } as Setting<RuleValues[(typeof OPTION_RULES)[O]["type"]]>;
}

function settingFor(variable: string, rule: OptionRule, spec: Described & { example?: string }): Setting<unknown> {
  switch (rule.type) {
    case "integer":
      return integer(variable, { ...spec, default: rule.default, min: rule.min, max: rule.max });
    case "path":
      return path(variable, { ...spec, default: rule.default, example: spec.example ?? rule.default });
    case "offset":
      return offset(variable, { ...spec, default: rule.default });
    case "token":
      return token(variable, spec);
    case "text":
      return text(variable, spec);
    case "secrets":
      return secrets(variable, spec);
  }
}
