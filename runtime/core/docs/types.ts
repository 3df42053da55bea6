/**
 * The parts of the OpenAPI 3.1 object model this project writes and its reference page reads.
 * Deliberately small: only the fields used here, each open to the rest of the specification.
 */

/** A JSON Schema (2020-12 dialect, as OpenAPI 3.1 uses it). */
export type { Schema } from "../../format/schema.ts";
import type { Schema } from "../../format/schema.ts";

/** `{ $ref }` to a reusable component. */
export interface Reference {
  $ref: string;
}

export interface Parameter {
  name: string;
  in: "query" | "path" | "header";
  description: string;
  required?: boolean;
  schema: Schema;
  style?: "form" | "simple";
  explode?: boolean;
  example?: unknown;
}

export interface Header {
  description: string;
  required?: boolean;
  schema: Schema;
}

export interface MediaType {
  schema: Schema;
  example?: unknown;
}

export interface Response {
  description: string;
  headers?: Record<string, Header | Reference>;
  content?: Record<string, MediaType>;
}

export interface RequestBody {
  description: string;
  required: boolean;
  content: Record<string, MediaType>;
}

/** One list entry of `security`: scheme name → scopes; `{}` means "no credentials". */
export type SecurityRequirement = Record<string, string[]>;

export interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters?: (Parameter | Reference)[];
  requestBody?: RequestBody;
  responses: Record<string, Response | Reference>;
  security?: SecurityRequirement[];
  /** Example requests, rendered as curl commands by the reference page (and run by the tests). */
  "x-request-examples": RequestExample[];
}

/** One example request of an operation. Values are unencoded; the renderer encodes them. */
export interface RequestExample {
  description: string;
  path?: Record<string, string>;
  query?: Record<string, string>;
  /** Header values; `$API_KEY` and `$ADMIN_TOKEN` stand for the caller's secrets. */
  headers?: Record<string, string>;
  body?: unknown;
}

export type Method = "get" | "post";

export type PathItem = { description?: string } & { [M in Method]?: Operation };

export interface SecurityScheme {
  type: "apiKey" | "http";
  description: string;
  name?: string;
  in?: "header" | "query";
  scheme?: string;
}

/** One stable error code as the reference page lists it (`x-error-codes`). */
export interface ErrorCodeDoc {
  code: string;
  status: number[];
  title: string;
  description: string;
}

/** One plan of interface B as the reference page lists it (`x-plans`). */
export interface PlanDoc {
  plan: string;
  who: string;
  daily_limit: number;
  statuses: string;
}

export interface OpenApiDocument {
  openapi: "3.1.0";
  jsonSchemaDialect: string;
  info: { title: string; version: string; description: string; license?: { name: string; url: string } };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, Schema>;
    parameters: Record<string, Parameter>;
    headers: Record<string, Header>;
    responses: Record<string, Response>;
    securitySchemes: Record<string, SecurityScheme>;
  };
  "x-error-codes": ErrorCodeDoc[];
  "x-plans": PlanDoc[];
}

/** A `$ref` to a component: `ref("schemas", "Hanja")`. */
export function ref(kind: keyof OpenApiDocument["components"], name: string): Reference {
  return { $ref: `#/components/${kind}/${name}` };
}

export function isReference(value: unknown): value is Reference {
  return typeof value === "object" && value !== null && typeof (value as Reference).$ref === "string";
}
