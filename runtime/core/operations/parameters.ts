/**
 * An operation's declared parameters compiled into the one parse the router runs before its
 * handler: the path's segments by their specs, then the query's parameters in declaration order.
 * The handler gets the values and nothing else, so what it reads is what the reference documents.
 */
import { type ParamSpec, type ParsedParams, type PathSpec, parsePath, parseQuery, queryOf } from "../http/params.ts";
import type { RequestContext } from "../routes/context.ts";
import type { Operation, ParameterSpecs } from "./operation.ts";

/** The values a handler gets, for any declaration (each declaration's handler sees its own, typed). */
type Values = ParsedParams<ParameterSpecs>;

/** Parses a request's parameters for one operation: its URL, the path's raw segments by name, its context. */
export type ParseParameters = (url: string, segments: Readonly<Record<string, string>>, ctx: RequestContext) => Values;

const NONE: Values = Object.freeze({});

/**
 * The parse of `operation` mounted at `path`. Throws when the path's `{names}` and the declared
 * path specs differ: a segment nothing parses, or a spec no segment fills, is a declaration error.
 */
export function compileParameters(operation: Operation, path: string): ParseParameters {
  const query: Record<string, ParamSpec> = {};
  const segments: [string, PathSpec][] = [];
  for (const [name, spec] of Object.entries(operation.parameters ?? {})) {
    if ("in" in spec) segments.push([name, spec]);
    else query[name] = spec;
  }
  const inTemplate = [...path.matchAll(/\{(\w+)\}/g)].map((found) => found[1]).sort();
  const declared = segments.map(([name]) => name).sort();
  if (inTemplate.join() !== declared.join()) {
    throw new Error(`${operation.method} ${path}: its path parameters {${inTemplate.join(", ")}} and its declared path specs (${declared.join(", ")}) differ`);
  }
  const hasQuery = Object.keys(query).length > 0;
  return (url, raw, ctx) => {
    let values: Record<string, unknown> | undefined;
    for (const [name, spec] of segments) {
      const segment = parsePath(name, raw[name] ?? "", spec);
      (values ??= {})[name] = spec.kind === "positiveId" ? segment : segment.value;
    }
    // Most operations read no query: its text is then not even split.
    if (!hasQuery) return (values as Values | undefined) ?? NONE;
    const parsed = parseQuery((ctx.rawQuery = queryOf(url)), query) as Values;
    return values === undefined ? parsed : { ...(values as Values), ...parsed };
  };
}
