/**
 * Builders for JSON Schemas (the 2020-12 dialect OpenAPI 3.1 uses) that carry the TypeScript type of
 * the values they describe: a record shape is written once, as a schema with its descriptions, and
 * its type is `Static<typeof SCHEMA>`. The OpenAPI document publishes the schemas as they are; the
 * code, the pipeline and the page use the types. The type rides on a property that exists only for
 * the compiler, so a schema is plain JSON at run time.
 */

/** A JSON Schema. */
export type Schema = { [keyword: string]: unknown };

declare const VALUE: unique symbol;

/** A JSON Schema describing values of type `T`. */
export type Typed<T> = Schema & { readonly [VALUE]?: T };

/** The type of the values a schema describes. */
export type Static<S> = S extends { readonly [VALUE]?: infer T } ? T : never;

/** `{ a: string } & { b?: number }` shown as one object type. */
type Flat<T> = { [K in keyof T]: T[K] } & {};

/** The type of a closed object of `properties`, of which those in `Optional` may be absent. */
type ObjectOf<P extends Record<string, Typed<unknown>>, Optional extends keyof P> = Flat<
  { [K in Exclude<keyof P, Optional>]: Static<P[K]> } & { [K in Optional]?: Static<P[K]> }
>;

/**
 * A closed object: every listed property is required except those in `optional`, and nothing else
 * may appear (`additionalProperties: false`), so a response check against it is meaningful.
 */
export function obj<P extends Record<string, Typed<unknown>>, Optional extends keyof P & string = never>(
  description: string,
  properties: P,
  optional: readonly Optional[] = [],
): Typed<ObjectOf<P, Optional>> {
  return {
    type: "object",
    description,
    properties,
    required: Object.keys(properties).filter((name) => !(optional as readonly string[]).includes(name)),
    additionalProperties: false,
  };
}

/** A string. */
export function str(description: string, extra: Schema = {}): Typed<string> {
  return { type: "string", description, ...extra };
}

/** A string that is one of `values`. */
export function oneOf<const V extends string>(values: readonly V[], description: string, extra: Schema = {}): Typed<V> {
  return { type: "string", description, enum: [...values], ...extra };
}

/** Exactly `value`. */
export function constant<const V extends string | number | boolean>(value: V, description: string): Typed<V> {
  return { const: value, description };
}

/** An integer. */
export function int(description: string, extra: Schema = {}): Typed<number> {
  return { type: "integer", description, ...extra };
}

/** A boolean. */
export function bool(description: string): Typed<boolean> {
  return { type: "boolean", description };
}

/** The schema, or null. */
export function nullable<T>(schema: Typed<T>): Typed<T | null> {
  const type = schema.type;
  if (typeof type === "string") return { ...schema, type: [type, "null"] };
  return { description: schema.description, anyOf: [schema, { type: "null" }] };
}

/** An array of `items`. */
export function arrayOf<T>(description: string, items: Typed<T>, extra: Schema = {}): Typed<T[]> {
  return { type: "array", description, items, ...extra };
}

/** An object whose property names are `names` (any of them may be absent), each value `values`. */
export function mapOf<const K extends string, T>(description: string, names: readonly K[], values: Typed<T>): Typed<Partial<Record<K, T>>> {
  return { type: "object", description, propertyNames: { enum: [...names] }, additionalProperties: values };
}

/**
 * A `$ref` to the component schema `name`, usable where a schema is expected. `target` is the
 * schema it names, for its type; the reference itself holds only the pointer.
 */
export function schemaRef<T>(name: string, _target?: Typed<T>): Typed<T> {
  return { $ref: `#/components/schemas/${name}` };
}
