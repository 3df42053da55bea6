/**
 * Every parameter of both interfaces as the reference documents it, derived from the specs the
 * routes parse with (`routes/hanjaParams.ts`, `routes/quizParams.ts`): type, bounds, default and
 * description are written there once. Shared as `components.parameters`.
 */
import { type ParamSpec, type PathSpec, RAW_TEXT_FACTOR, rawTextLimit, type TextSpec } from "../http/params.ts";
import { READ_PARAMS, READ_POST_PARAMS } from "../routes/readParams.ts";
import { CHARACTER_PATH, HANJA_LIST_PARAMS, IDIOMS_LIST_PARAMS, WORDS_LIST_PARAMS } from "../routes/hanjaParams.ts";
import { IDIOM_PARAMS, IDX_PATH, KEY_ID_PATH, KEY_LIST_PARAMS, QUIZ_PARAMS, SEARCH_PARAMS } from "../routes/quizParams.ts";
import { type Parameter, type Reference, ref } from "./types.ts";

const DIGITS = "Plain decimal digits; anything else (signs, decimals, blanks) or out of bounds is `400`. Given twice: `400`.";

/** A spec's OpenAPI parameter under `name`. */
export function documented(name: string, spec: ParamSpec | PathSpec): Parameter {
  if ("in" in spec) return { name, in: "path", description: spec.description, required: true, schema: pathSchema(spec) };
  const base = { name, in: "query" as const, description: spec.description, required: false };
  switch (spec.kind) {
    case "int":
      return {
        ...base,
        description: `${spec.description} ${DIGITS}`,
        schema: { type: "integer", minimum: spec.min, maximum: spec.max, ...(spec.default === undefined ? {} : { default: spec.default }) },
      };
    case "text": {
      const note = spec.verbatim
        ? `Taken as sent (not trimmed nor normalised), at most ${spec.maxLength} code points; more, a control character other than tab and line breaks, or a malformed escape: \`400\`.`
        : rawTextNote(spec);
      const text = { ...base, description: `${spec.description} ${note}` };
      return spec.required
        ? { ...text, required: true, schema: { type: "string", minLength: 1, maxLength: spec.maxLength } }
        : { ...text, schema: { type: "string", maxLength: spec.maxLength, default: "" } };
    }
    case "enum":
      return {
        ...base,
        schema: { type: "string", enum: [...spec.values], ...(spec.documentedDefault === undefined ? {} : { default: spec.documentedDefault }) },
      };
    case "enumList":
      return {
        ...base,
        style: "form",
        explode: false,
        schema: { type: "array", items: { type: "string", enum: [...spec.values] }, uniqueItems: true, minItems: 1, maxItems: spec.values.length },
      };
    case "intList":
      return {
        ...base,
        style: "form",
        explode: false,
        schema: { type: "array", items: { type: "integer", minimum: spec.min, maximum: spec.max }, maxItems: spec.maxItems, default: [] },
      };
  }
}

/** What the schema's `maxLength` (after trimming) does not say: the bound on the value as sent. */
function rawTextNote(spec: TextSpec): string {
  return `As sent, before trimming, at most ${rawTextLimit(spec)} code points (${RAW_TEXT_FACTOR} × the limit); longer: \`400\`.`;
}

function pathSchema(spec: PathSpec): Parameter["schema"] {
  switch (spec.kind) {
    case "character":
      return { type: "string", minLength: 1, maxLength: 1 };
    case "positiveId":
      return { type: "integer", minimum: 1 };
    case "pattern":
      return { type: "string", pattern: spec.pattern.source };
  }
}

/** Every spec by route, in the order the reference lists them. */
const SPECS: Record<string, ParamSpec | PathSpec>[] = [
  HANJA_LIST_PARAMS,
  IDIOMS_LIST_PARAMS,
  WORDS_LIST_PARAMS,
  { character: CHARACTER_PATH },
  READ_PARAMS,
  READ_POST_PARAMS,
  QUIZ_PARAMS,
  IDIOM_PARAMS,
  { idx: IDX_PATH },
  SEARCH_PARAMS,
  KEY_LIST_PARAMS,
  { id: KEY_ID_PATH },
];

/** The parameters, keyed by component name (a spec shared by two routes is one component). */
export function parameters(): Record<string, Parameter> {
  const out: Record<string, Parameter> = {};
  for (const specs of SPECS) for (const [name, spec] of Object.entries(specs)) out[spec.component] ??= documented(name, spec);
  return out;
}

/** References to the components of a route's specs, in spec order. */
export function parameterRefs(specs: Record<string, ParamSpec | PathSpec>): Reference[] {
  return Object.values(specs).map((spec) => ref("parameters", spec.component));
}
