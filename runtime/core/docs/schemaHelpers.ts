/** Small builders for the JSON Schemas of the OpenAPI document, so each schema reads like its table. */
import { type Schema, ref } from "./types.ts";

/**
 * A closed object: every listed property is required except those in `optional`, and nothing else
 * may appear (`additionalProperties: false`), so a response check against it is meaningful.
 */
export function obj(description: string, properties: Record<string, Schema>, optional: readonly string[] = []): Schema {
  return {
    type: "object",
    description,
    properties,
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    additionalProperties: false,
  };
}

export function str(description: string, extra: Schema = {}): Schema {
  return { type: "string", description, ...extra };
}

export function int(description: string, extra: Schema = {}): Schema {
  return { type: "integer", description, ...extra };
}

export function bool(description: string): Schema {
  return { type: "boolean", description };
}

/** The schema, or null. */
export function nullable(schema: Schema): Schema {
  const type = schema.type;
  if (typeof type === "string") return { ...schema, type: [type, "null"] };
  return { description: schema.description, anyOf: [schema, { type: "null" }] };
}

export function arrayOf(description: string, items: Schema, extra: Schema = {}): Schema {
  return { type: "array", description, items, ...extra };
}

/** A `$ref` to a component schema, usable where a schema is expected. */
export function schemaRef(name: string): Schema {
  return { ...ref("schemas", name) };
}

/** `success: true` of every successful interface-B body. */
export const SUCCESS: Schema = { const: true, description: "Always true on success." };
