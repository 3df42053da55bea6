/**
 * Every parameter of both interfaces as the reference documents it, derived from the parameters the
 * operations declare (`defineOperation`), which the router parses with: type, bounds, default and
 * description are written once, in the spec (`routes/hanjaParams.ts`, `routes/quizParams.ts`, …).
 * Shared as `components.parameters`; there is no other list of them.
 */
import { type ParamSpec, type PathSpec, RAW_TEXT_FACTOR, rawTextLimit, type TextSpec } from "../http/params.ts";
import type { Mounted } from "../operations/operation.ts";
import { type Parameter, type Reference, ref } from "./types.ts";

const DIGITS = "Plain decimal digits; anything else (signs, decimals, blanks) or out of bounds is `400`. Given twice: `400`.";

/** What a list parameter's style (`form`, not exploded: commas) does not say: the repeated form is read too. */
const REPEATED =
  "The values may also be given by repeating the parameter (`explode: true`: `{name}=a&{name}=b`, as openapi-fetch sends an array), read as the comma list `{name}=a,b`; the two forms may be mixed.";

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
        description: `${spec.description} ${REPEATED.replaceAll("{name}", name)}`,
        style: "form",
        explode: false,
        schema: { type: "array", items: { type: "string", enum: [...spec.values] }, uniqueItems: true, minItems: 1, maxItems: spec.values.length },
      };
    case "intList":
      return {
        ...base,
        description: `${spec.description} ${REPEATED.replaceAll("{name}", name)}`,
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

/**
 * The parameters of these operations, keyed by component name, in declaration order: a spec two
 * operations share (or two specs documented alike) is one component. Two that would be documented
 * differently under one name throw, naming both: the app checks this as it starts (`operations/interfaces.ts`),
 * so that the reference, built on its first request, cannot fail on it.
 */
export function parameterComponents(operations: readonly Mounted[]): Record<string, Parameter> {
  const out: Record<string, Parameter> = {};
  const where = new Map<string, string>();
  for (const { path, operation } of operations) {
    const { method } = operation;
    for (const [name, spec] of Object.entries(operation.parameters ?? {})) {
      const parameter = documented(name, spec);
      const found = out[spec.component];
      if (found === undefined) {
        out[spec.component] = parameter;
        where.set(spec.component, `${method} ${path} (${name})`);
      } else if (JSON.stringify(found) !== JSON.stringify(parameter)) {
        throw new Error(
          `parameter component ${spec.component}: ${method} ${path} (${name}) documents it otherwise than ${where.get(spec.component)}; give one of them its own component name`,
        );
      }
    }
  }
  return out;
}

/** References to the components of a route's specs, in spec order. */
export function parameterRefs(specs: Record<string, ParamSpec | PathSpec>): Reference[] {
  return Object.values(specs).map((spec) => ref("parameters", spec.component));
}
