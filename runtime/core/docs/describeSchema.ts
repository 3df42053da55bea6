/**
 * Short HTML summaries of JSON Schemas for the reference page: a type label with links to the
 * named schemas, the bounds in words, and property rows with dotted names for nested objects.
 */
import { escapeHtml } from "../util/escapeHtml.ts";
import { inline } from "./markdown.ts";
import { type Schema, isReference } from "./types.ts";

const SCHEMA_REF = /^#\/components\/schemas\/(.+)$/;

/** The component name a `$ref` points at, or undefined. */
export function schemaName(schema: Schema): string | undefined {
  return isReference(schema) ? SCHEMA_REF.exec(schema.$ref)?.[1] : undefined;
}

function link(name: string): string {
  return `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>`;
}

function literal(value: unknown): string {
  return `<code>${escapeHtml(JSON.stringify(value))}</code>`;
}

/** A type label: `string`, `integer or null`, `array of Hanja`, `"free"`, `QuizResponse or QuizzesResponse`. */
export function typeLabel(schema: Schema): string {
  const name = schemaName(schema);
  if (name) return link(name);
  if ("const" in schema) return literal(schema.const);
  const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (alternatives) return alternatives.map(typeLabel).join(" or ");
  const allOf = schema.allOf as Schema[] | undefined;
  if (allOf) {
    const restricted = schema.properties as Record<string, Schema> | undefined;
    const notes = restricted ? Object.entries(restricted).map(([key, sub]) => `${escapeHtml(key)} ${"const" in sub ? literal(sub.const) : boundsOf(sub)}`) : [];
    return `${allOf.map(typeLabel).join(" and ")}${notes.length ? ` (${notes.join(", ")})` : ""}`;
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  return types
    .map((type) => {
      if (type === "array") return `array of ${typeLabel((schema.items as Schema | undefined) ?? {})}`;
      if (type === "object" && schema.additionalProperties && typeof schema.additionalProperties === "object") {
        return `object of ${typeLabel(schema.additionalProperties as Schema)}`;
      }
      return escapeHtml(type ?? "any");
    })
    .join(" or ");
}

/** The constraints of a schema in words: `1–50`, `length ≤ 80`, `one of a, b`, `pattern ^x$`. */
export function boundsOf(schema: Schema): string {
  const parts: string[] = [];
  const { minimum, maximum, minLength, maxLength, minItems, maxItems, pattern, format } = schema as Record<string, number | string | undefined>;
  if (minimum !== undefined && maximum !== undefined) parts.push(`${minimum}–${maximum}`);
  else if (minimum !== undefined) parts.push(`≥ ${minimum}`);
  else if (maximum !== undefined) parts.push(`≤ ${maximum}`);
  if (minLength !== undefined && maxLength !== undefined)
    parts.push(minLength === maxLength ? `exactly ${minLength} character${minLength === 1 ? "" : "s"}` : `length ${minLength}–${maxLength}`);
  else if (maxLength !== undefined) parts.push(`length ≤ ${maxLength}`);
  else if (minLength !== undefined) parts.push(`length ≥ ${minLength}`);
  if (minItems !== undefined || maxItems !== undefined) parts.push(`${minItems ?? 0}–${maxItems ?? "∞"} items`);
  if (Array.isArray(schema.enum)) parts.push(`one of ${(schema.enum as unknown[]).map(literal).join(", ")}`);
  if ("const" in schema && schema.const !== undefined && schema.properties === undefined) parts.push(`exactly ${literal(schema.const)}`);
  if (pattern !== undefined) parts.push(`pattern <code>${escapeHtml(String(pattern))}</code>`);
  if (format !== undefined) parts.push(`format ${escapeHtml(String(format))}`);
  const items = schema.items as Schema | undefined;
  if (items && !schemaName(items)) {
    const inner = boundsOf(items);
    if (inner) parts.push(`each ${inner}`);
  }
  if (schema.propertyNames && typeof schema.propertyNames === "object") {
    const names = (schema.propertyNames as Schema).enum as unknown[] | undefined;
    if (names) parts.push(`keys: ${names.map((n) => escapeHtml(String(n))).join(", ")}`);
  }
  return parts.join("; ");
}

/** One row of a property table. */
export interface PropertyRow {
  name: string;
  type: string;
  required: boolean;
  bounds: string;
  description: string;
}

/** Rows for the properties of an object schema; inline nested objects become `parent.child` rows. */
export function propertyRows(schema: Schema, prefix = "", depth = 0): PropertyRow[] {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const rows: PropertyRow[] = [];
  for (const [key, sub] of Object.entries(properties)) {
    const name = `${prefix}${key}`;
    const nested = sub.type === "object" && sub.properties ? sub : undefined;
    rows.push({
      name,
      type: nested ? "object" : typeLabel(sub),
      required: required.has(key),
      bounds: boundsOf(sub),
      description: inline(String(sub.description ?? "")),
    });
    if (nested && depth < 4) rows.push(...propertyRows(nested, `${name}.`, depth + 1));
    const items = sub.items as Schema | undefined;
    if (items?.type === "object" && items.properties && depth < 4) rows.push(...propertyRows(items, `${name}[].`, depth + 1));
  }
  return rows;
}

/** A property table, or an empty string for a schema without properties. */
export function propertyTable(schema: Schema): string {
  const rows = propertyRows(schema);
  if (rows.length === 0) return "";
  const body = rows
    .map(
      (r) =>
        `<tr><td><code>${escapeHtml(r.name)}</code></td><td>${r.type}</td><td>${r.required ? "yes" : "no"}</td><td>${r.bounds}</td><td>${r.description}</td></tr>`,
    )
    .join("\n");
  return `<table><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Bounds</th><th>Description</th></tr></thead><tbody>\n${body}\n</tbody></table>`;
}
