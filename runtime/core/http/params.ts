/**
 * The one query-parameter parser of both interfaces (docs/rules.md "Interface A"): integers are plain decimal digits
 * within bounds, a single-valued parameter given twice is an error while a list given several times
 * is read as its values joined with commas (`type=a&type=b` is `type=a,b`), unknown parameters are ignored.
 */
import { invalidParameter } from "./errors.ts";
import { codePointLength, longerThan } from "../util/codePointLength.ts";
import { verbatimTextProblem } from "./verbatimText.ts";
import { type RawQuery, assertWellFormed } from "./query.ts";

export { type RawQuery, assertWellFormed, decodedName, queryOf } from "./query.ts";

/**
 * What every parameter spec carries besides its type and bounds: the reference documents it from
 * this (`docs/parameters.ts` derives the OpenAPI parameter), so a parameter is written once.
 */
export interface ParamDoc {
  /** The name of its entry in the OpenAPI `components.parameters` (`Strokes`). */
  component: string;
  /** What it does; the reference adds what its type implies (digits only, a `400` past the bounds). */
  description: string;
}

export interface IntSpec extends ParamDoc {
  kind: "int";
  min: number;
  max: number;
  default?: number;
}
export interface TextSpec extends ParamDoc {
  kind: "text";
  /** Maximum length in code points, after trimming; the value as sent may be `RAW_TEXT_FACTOR` times as long. */
  maxLength: number;
  /** Reject a missing or blank value. */
  required?: boolean;
  /**
   * Taken as sent: not trimmed nor normalised, `maxLength` counted on the value itself, and a
   * control character (other than tab and line breaks) refused (`verbatimText.ts`).
   */
  verbatim?: true;
}
export interface EnumSpec<T extends string = string> extends ParamDoc {
  kind: "enum";
  values: readonly T[];
  /** What the route does when it is omitted, for the reference (the parser gives undefined). */
  documentedDefault?: T;
}
/**
 * Comma-separated values of a list, each given at most once (`type=a,b`); the parameter repeated
 * (`type=a&type=b`, OpenAPI's `explode: true`) is read the same.
 */
export interface EnumListSpec<T extends string = string> extends ParamDoc {
  kind: "enumList";
  values: readonly T[];
  /** What the route does when it is omitted, for the reference (the parser gives an empty list). */
  documentedDefault?: string;
}
export interface IntListSpec extends ParamDoc {
  kind: "intList";
  min: number;
  max: number;
  maxItems: number;
}
/** A query parameter. */
export type ParamSpec = IntSpec | TextSpec | EnumSpec | EnumListSpec | IntListSpec;

/** A path segment: exactly one character (code point), or a positive whole number (an id), or text of a pattern. */
export type PathSpec = ParamDoc & { in: "path" } & ({ kind: "character" } | { kind: "positiveId" } | { kind: "pattern"; pattern: RegExp; shape: string });

type Value<S> = S extends IntSpec
  ? S extends { default: number }
    ? number
    : number | undefined
  : S extends TextSpec
    ? string
    : S extends EnumSpec<infer T>
      ? T | undefined
      : S extends EnumListSpec<infer T>
        ? T[]
        : S extends IntListSpec
          ? number[]
          : never;

/** A path segment's value: the decoded text, and for an id its number too (`Infinity` when too large to be one). */
type PathValue<S> = S extends { kind: "positiveId" } ? { raw: string; value: number } : string;

/** The values of parsed parameters, by name: a query spec's value, or a path segment's. */
export type ParsedParams<S> = { readonly [K in keyof S]: S[K] extends PathSpec ? PathValue<S[K]> : Value<S[K]> };

const DIGITS = /^\d+$/;

/**
 * How many times a text parameter's `maxLength` its value may be as sent, in code points, before
 * trimming and composition: room for a query at the limit typed as conjoining jamo (three per
 * syllable) with spaces or punctuation around it, while a 15,000-character value is refused unread.
 */
export const RAW_TEXT_FACTOR = 4;

/** The most code points a text parameter's value may have as sent (docs/rules.md "Interface A"). */
export function rawTextLimit(spec: TextSpec): number {
  return spec.maxLength * RAW_TEXT_FACTOR;
}

/**
 * The values of the parameters of `specs` in spec order, leaving out those named in `except`, for
 * a cache key: a parameter added to a spec is part of the key without another edit.
 */
export function keyValues<S extends Record<string, ParamSpec>>(specs: S, values: { [K in keyof S]: unknown }, except: object = {}): unknown[] {
  const out: unknown[] = [];
  for (const name in specs) if (!Object.hasOwn(except, name)) out.push(values[name]);
  return out;
}

/** Parses the named parameters of `query`; throws `400 invalid_parameter` naming the first bad one. */
export function parseQuery<S extends Record<string, ParamSpec>>(query: RawQuery, specs: S): { [K in keyof S]: Value<S[K]> } {
  const out: Record<string, unknown> = {};
  for (const name in specs) {
    const spec = specs[name] as ParamSpec;
    const given = query[name];
    let raw: string | undefined;
    if (!Array.isArray(given)) raw = given;
    else if (spec.kind === "enumList" || spec.kind === "intList") raw = given.join(",");
    else throw invalidParameter(name, `${name} is given ${given.length} times; give it once`);
    assertWellFormed(query, name);
    out[name] = parseOne(name, raw, spec);
  }
  return out as { [K in keyof S]: Value<S[K]> };
}

function parseOne(name: string, raw: string | undefined, spec: ParamSpec): unknown {
  switch (spec.kind) {
    case "int":
      if (raw === undefined) return spec.default;
      return parseInteger(name, raw, spec.min, spec.max);
    case "text": {
      if (spec.verbatim) {
        if (raw === undefined && !spec.required) return "";
        const problem = verbatimTextProblem(name, raw, spec.maxLength);
        if (problem) throw invalidParameter(name, problem.detail);
        return raw;
      }
      const rawLimit = rawTextLimit(spec);
      // Before any pattern runs: the work below is then bounded whatever a client sends.
      if (raw !== undefined && longerThan(raw, rawLimit))
        throw invalidParameter(
          name,
          `${name} is longer than ${rawLimit} characters as sent; the limit is ${spec.maxLength} after trimming the spaces and punctuation around it`,
        );
      const text = trimQuery(searchForm(raw ?? ""));
      if (spec.required && text.length === 0) throw invalidParameter(name, `${name} is required and must not be blank`);
      const length = codePointLength(text);
      if (length > spec.maxLength) throw invalidParameter(name, `${name} is ${length} characters long; the limit is ${spec.maxLength}`);
      return text;
    }
    case "enum":
      if (raw === undefined) return undefined;
      if (!spec.values.includes(raw)) throw invalidParameter(name, `${name} must be one of ${spec.values.join(", ")}; got ${JSON.stringify(raw)}`);
      return raw;
    case "enumList": {
      if (raw === undefined) return [];
      const items = raw.split(",").map((item) => item.trim());
      for (const item of items) {
        if (!spec.values.includes(item))
          throw invalidParameter(name, `${name} must list values of ${spec.values.join(", ")}, separated by commas; got ${JSON.stringify(item)}`);
      }
      if (new Set(items).size < items.length) throw invalidParameter(name, `${name} lists a value twice`);
      return items;
    }
    case "intList": {
      if (raw === undefined || raw === "") return [];
      const items = raw.split(",");
      if (items.length > spec.maxItems) throw invalidParameter(name, `${name} lists ${items.length} values; the limit is ${spec.maxItems}`);
      return items.map((item) => parseInteger(name, item.trim(), spec.min, spec.max));
    }
  }
}

/** Runs of text outside the CJK compatibility ideographs, which NFC would turn into other characters. */
const OUTSIDE_COMPATIBILITY_IDEOGRAPHS = /[^\uF900-\uFAFF\u{2F800}-\u{2FA1F}]+/gu;
const FULL_WIDTH_ASCII = /[\uFF01-\uFF5E]/g;

/**
 * A text query as it is matched: composed (NFC, so Hangul typed or pasted as conjoining jamo, as
 * macOS keeps it, is the syllables it spells) except the CJK compatibility ideographs, which stay
 * themselves (docs/rules.md "Interface A": they are records of their own); full-width ASCII (ＷＡＴＥＲ) read as ASCII.
 */
export function searchForm(text: string): string {
  const composed = text.replace(OUTSIDE_COMPATIBILITY_IDEOGRAPHS, (run) => run.normalize("NFC"));
  return composed.replace(FULL_WIDTH_ASCII, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
}

/** One space or punctuation character: a single class with no quantifier, so each test is constant time. */
const SPACE_OR_PUNCTUATION = /^[\s\p{P}]$/u;

/**
 * A query without the spaces and punctuation around it, as pasted from a sentence or a list
 * (`“각골난망.”` is 각골난망, `(水)` is 水); a query of nothing but punctuation is only trimmed, so
 * that it matches nothing rather than everything. One pass over the code points from each end: a
 * pattern with a quantified run at the end (`[\s\p{P}]+$`) is retried from every position of a
 * long run inside the text, quadratic in its length.
 */
export function trimQuery(text: string): string {
  const trimmed = text.trim();
  let start = 0;
  while (start < trimmed.length) {
    const c = String.fromCodePoint(trimmed.codePointAt(start) as number);
    if (!SPACE_OR_PUNCTUATION.test(c)) break;
    start += c.length;
  }
  if (start === trimmed.length) return trimmed;
  let end = trimmed.length;
  for (;;) {
    // A low surrogate preceded by a high one is the second half of one astral character.
    const low = trimmed.charCodeAt(end - 1);
    const width = end - 2 >= start && low >= 0xdc00 && low <= 0xdfff && isHighSurrogate(trimmed.charCodeAt(end - 2)) ? 2 : 1;
    if (!SPACE_OR_PUNCTUATION.test(trimmed.slice(end - width, end))) break;
    end -= width;
  }
  return trimmed.slice(start, end);
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/** A plain decimal integer within [min, max]; signs, decimals, exponents and blanks are rejected. */
export function parseInteger(name: string, raw: string, min: number, max: number): number {
  if (!DIGITS.test(raw)) throw invalidParameter(name, `${name} must be a whole number from ${min} to ${max} written in digits; got ${JSON.stringify(raw)}`);
  const value = Number(raw);
  if (value < min || value > max) throw invalidParameter(name, `${name} must be from ${min} to ${max}; got ${raw}`);
  return value;
}

/**
 * A positive whole number written in digits (docs/rules.md "Interface B": anything else is a 400), as a number, or
 * as `Infinity` when it is too large to be an id; the caller answers an unknown one with 404.
 */
export function parsePositiveId(name: string, raw: string): number {
  if (!DIGITS.test(raw) || /^0+$/.test(raw))
    throw invalidParameter(name, `${name} must be a positive whole number written in digits; got ${JSON.stringify(raw)}`);
  const value = Number(raw);
  return Number.isSafeInteger(value) ? value : Number.POSITIVE_INFINITY;
}

/** Percent-decodes a path segment; a malformed escape is a 400 naming the parameter. */
export function decodeSegment(segment: string, param: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalidParameter(param, `${param} is not valid percent-encoded UTF-8`);
  }
}

/**
 * A path segment as its spec says: percent-decoded; for `character` exactly one code point, for
 * `positiveId` a positive whole number (`Infinity` when too large to be an id), for `pattern` text
 * of the pattern. Anything else is a `400` naming the parameter.
 */
export function parsePath(name: string, segment: string, spec: PathSpec & { kind: "positiveId" }): { raw: string; value: number };
export function parsePath(name: string, segment: string, spec: PathSpec): { raw: string; value: string };
export function parsePath(name: string, segment: string, spec: PathSpec): { raw: string; value: string | number } {
  const raw = decodeSegment(segment, name);
  switch (spec.kind) {
    case "character": {
      const length = codePointLength(raw);
      if (length !== 1) throw invalidParameter(name, `${name} must be exactly one character; got ${length}`);
      return { raw, value: raw };
    }
    case "positiveId":
      return { raw, value: parsePositiveId(name, raw) };
    case "pattern":
      if (!spec.pattern.test(raw)) throw invalidParameter(name, `${name} must look like ${spec.shape}`);
      return { raw, value: raw };
  }
}
