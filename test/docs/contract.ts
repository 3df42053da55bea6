/**
 * Checks real responses against the OpenAPI document: finds the documented response for a
 * request, validates its body with Ajv (JSON Schema 2020-12, strict) and its headers, and records
 * which (operation, status) pairs were exercised.
 */
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import type { Header, Method, OpenApiDocument, Operation, Reference, Response, Schema } from "../../runtime/core/docs/types.ts";
import { isReference } from "../../runtime/core/docs/types.ts";
import type { App } from "../../runtime/core/app.ts";
import { call } from "../helpers/app.ts";

const SCHEMAS_ID = "urn:hanja-api:schemas";

/** Rewrites `#/components/schemas/X` references to the registered schema bundle. */
function rewriteRefs<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', `"${SCHEMAS_ID}#/$defs/`)) as T;
}

/** A request as the contract sees it. */
export interface Exchange {
  method: string;
  /** Path and query as requested. */
  target: string;
  status: number;
  headers: Headers;
  /** Raw body text. */
  text: string;
}

export class Contract {
  readonly ajv: Ajv2020;
  /** `METHOD template status` of every checked exchange. */
  readonly seen = new Set<string>();
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: [RegExp, string][];

  constructor(readonly document: OpenApiDocument) {
    this.ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: SCHEMAS_ID, $defs: rewriteRefs(document.components.schemas) });
    this.templates = Object.keys(document.paths).map((path) => [
      new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+")}$`),
      path,
    ]);
  }

  /** Compiles a schema (cached), with component references resolved. */
  validator(schema: Schema): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(rewriteRefs(schema));
      this.compiled.set(key, validate);
    }
    return validate;
  }

  resolve<T>(value: T | Reference): T {
    if (!isReference(value)) return value;
    const [, , kind, name] = value.$ref.split("/");
    const found = (this.document.components as Record<string, Record<string, unknown>>)[kind ?? ""]?.[name ?? ""];
    if (found === undefined) throw new Error(`unresolved ${value.$ref}`);
    return found as T;
  }

  /** The path template a request path matches (a trailing slash is ignored, as the router ignores it). */
  templateOf(path: string): string | undefined {
    const plain = path.length > 1 ? path.replace(/\/$/, "") : path;
    return this.templates.find(([pattern]) => pattern.test(plain))?.[1];
  }

  operation(template: string, method: string): Operation | undefined {
    return this.document.paths[template]?.[method.toLowerCase() as Method];
  }

  /** The documented response for an exchange; fails the test when there is none. */
  responseFor(exchange: Exchange): { key: string; response: Response } {
    const path = exchange.target.split("?")[0] ?? "";
    const template = this.templateOf(path);
    const op = template ? this.operation(template, exchange.method === "HEAD" ? "GET" : exchange.method) : undefined;
    if (!template || !op) {
      // Outside the operations: an unknown route, or a known path with another method.
      const name = template ? "MethodNotAllowed" : "NotFoundRoute";
      expect(exchange.status, `${exchange.method} ${exchange.target}`).toBe(template ? 405 : 404);
      this.seen.add(`components ${name}`);
      return { key: name, response: this.document.components.responses[name] as Response };
    }
    const documented = op.responses[String(exchange.status)];
    expect(documented, `${exchange.method} ${exchange.target} → ${exchange.status} is not documented; body ${exchange.text.slice(0, 300)}`).toBeDefined();
    const key = `${op.operationId} ${exchange.status}`;
    this.seen.add(key);
    return { key, response: this.resolve(documented as Response | Reference) };
  }

  /** Checks status, content type, body and headers of an exchange against the document. */
  check(exchange: Exchange): unknown {
    const { key, response } = this.responseFor(exchange);
    const where = `${exchange.method} ${exchange.target} (${key})`;
    const content = response.content ?? {};
    const contentType = (exchange.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
    let body: unknown;
    if (Object.keys(content).length === 0) {
      expect(exchange.text, `${where}: documented without a body`).toBe("");
    } else {
      expect(Object.keys(content), `${where}: content type ${contentType}`).toContain(contentType);
      const media = content[contentType];
      if (contentType.endsWith("json") && exchange.method !== "HEAD") {
        body = JSON.parse(exchange.text);
        const validate = this.validator(media?.schema ?? {});
        expect(validate(body) ? [] : validate.errors, `${where}: body ${exchange.text.slice(0, 400)}`).toEqual([]);
      }
    }
    for (const [name, value] of Object.entries(response.headers ?? {})) {
      const header = this.resolve<Header>(value);
      const actual = exchange.headers.get(name);
      if (header.required) expect(actual, `${where}: header ${name}`).not.toBeNull();
      if (actual === null) continue;
      const typed = header.schema.type === "integer" ? Number(actual) : actual;
      const validate = this.validator(header.schema);
      expect(validate(typed) ? [] : validate.errors, `${where}: header ${name}: ${actual}`).toEqual([]);
    }
    if (contentType === "application/problem+json" && body) this.checkProblem(body as Record<string, unknown>, exchange, where);
    return body;
  }

  private checkProblem(body: Record<string, unknown>, exchange: Exchange, where: string): void {
    const entry = this.document["x-error-codes"].find((e) => e.code === body.code);
    expect(entry, `${where}: code ${String(body.code)} is in the error table`).toBeDefined();
    expect(body.status, where).toBe(exchange.status);
    expect(entry?.status, `${where}: the error table lists status ${exchange.status} for ${String(body.code)}`).toContain(exchange.status);
    expect(body.title, where).toBe(entry?.title);
    expect(body.type, where).toBe(`/docs#error-${String(body.code)}`);
    expect(exchange.headers.get("x-request-id"), where).toBe(body.request_id);
  }

  /** Every `operationId status` the document lists. */
  documentedPairs(): string[] {
    return Object.values(this.document.paths).flatMap((item) =>
      (["get", "post"] as const).flatMap((method) => {
        const op = item[method];
        return op ? Object.keys(op.responses).map((status) => `${op.operationId} ${status}`) : [];
      }),
    );
  }
}

/** Sends a request to the app and returns the exchange. */
export async function exchange(
  app: App,
  method: string,
  target: string,
  init: { headers?: Record<string, string>; body?: string; ip?: string } = {},
): Promise<Exchange> {
  const response = await call(app, target, { method, headers: init.headers, body: init.body, clientAddress: init.ip ?? "127.0.0.1" });
  return { method, target, status: response.status, headers: response.headers, text: await response.text() };
}

/** A request target from a path template, path values and query values (encoded). */
export function target(template: string, path: Record<string, string> = {}, query: Record<string, string> = {}): string {
  const filled = template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(path[name] ?? ""));
  const search = new URLSearchParams(query).toString();
  return search ? `${filled}?${search}` : filled;
}
