/** The OpenAPI document itself: valid OpenAPI 3.1, references resolve, bases and admin paths as configured. */
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { VARIANT_PROPERTIES as PIPELINE_VARIANTS } from "../../pipeline/parse/fields.ts";
import { createApp } from "../../runtime/core/app.ts";
import { buildOpenApi } from "../../runtime/core/docs/openapi.ts";
import { describedOperations, describingOnly, mountInterfaces, referenceOrder } from "../../runtime/core/operations/interfaces.ts";
import type { Mounted } from "../../runtime/core/operations/operation.ts";
import { page } from "../../runtime/page/index.ts";
import { VARIANT_PROPERTIES } from "../../runtime/core/docs/schemas.ts";
import type { OpenApiDocument, Operation, Parameter } from "../../runtime/core/docs/types.ts";
import { call, distFiles, testApp } from "../helpers/app.ts";
import { Contract, exchange } from "./contract.ts";

const DEFAULT_BASES = { hanjaBase: "/hanja/v1", quizBase: "/quiz/v1", adminEnabled: true };

async function served(app: ReturnType<typeof testApp>): Promise<OpenApiDocument> {
  const response = await call(app, "/openapi.json");
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  return JSON.parse(await response.text()) as OpenApiDocument;
}

/** Every `$ref` string anywhere in a value. */
function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, out);
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key === "$ref" && typeof item === "string") out.push(item);
      else refsIn(item, out);
    }
  }
  return out;
}

function operationsOf(document: OpenApiDocument): [string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    (["get", "post"] as const).flatMap((m) => (item[m] ? [[path, item[m]] as [string, Operation]] : [])),
  );
}

describe("the OpenAPI document", () => {
  const app = testApp({ adminToken: "openapi-test-admin-token" });

  for (const [label, options] of [
    ["with admin routes", { adminToken: "openapi-test-admin-token" }],
    ["without admin routes", {}],
    ["with custom bases", { hanjaBase: "/api/chars", quizBase: "/api/quiz/v2" }],
  ] as const) {
    it(`is valid OpenAPI 3.1 (${label})`, async () => {
      const document = await served(testApp(options));
      const validator = new Validator();
      const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(validator.version).toBe("3.1");
    });
  }

  it("is what buildOpenApi returns for the app's data and bases", async () => {
    expect(await served(app)).toEqual(JSON.parse(JSON.stringify(buildOpenApi(app.data, DEFAULT_BASES, describedOperations(app.data, DEFAULT_BASES)))));
  });

  it("resolves every $ref and compiles every schema in strict mode", async () => {
    const document = await served(app);
    const contract = new Contract(document);
    for (const ref of refsIn(document)) expect(() => contract.resolve({ $ref: ref }), ref).not.toThrow();
    for (const name of Object.keys(document.components.schemas)) expect(() => contract.validator({ $ref: `#/components/schemas/${name}` }), name).not.toThrow();
    for (const [name, header] of Object.entries(document.components.headers)) expect(() => contract.validator(header.schema), name).not.toThrow();
  });

  it("declares every path parameter, names each operation once and gives each examples and a 5xx", async () => {
    const document = await served(app);
    const ids = new Set<string>();
    for (const [path, op] of operationsOf(document)) {
      expect(ids.has(op.operationId), op.operationId).toBe(false);
      ids.add(op.operationId);
      const parameters = (op.parameters ?? []).map((p) => new Contract(document).resolve<Parameter>(p));
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect(
        parameters
          .filter((p) => p.in === "path")
          .map((p) => p.name)
          .sort(),
        path,
      ).toEqual(inPath.sort());
      expect(op["x-request-examples"].length, op.operationId).toBeGreaterThan(0);
      expect(Object.keys(op.responses), op.operationId).toContain("500");
      expect(op.tags.length).toBe(1);
    }
  });

  it("lists every declared operation of both interfaces, the service routes and (only when enabled) the admin routes, each answered by the app", async () => {
    const withAdmin = Object.keys((await served(app)).paths);
    const mounted = mountInterfaces({ ...DEFAULT_BASES, mountPath: "" }, app.data, describingOnly(), page);
    const declared = referenceOrder(mounted).map(({ path }) => path);
    expect(withAdmin).toEqual([...new Set(declared)]);
    expect(mounted.admin.length).toBeGreaterThan(0);
    // Documented is routed: each path reaches an operation (a sample value in place of each parameter), never "No such route".
    for (const { path, operation } of referenceOrder(mounted)) {
      const response = await call(app, path.replace(/\{\w+\}/g, "x"), { method: operation.method });
      const problem = response.status >= 400 ? ((await response.json()) as { detail: string }) : undefined;
      expect(problem?.detail ?? "", `${operation.method} ${path}`).not.toMatch(/^No such route/);
    }
    // And routed is documented: the page and its assets are the only operations the reference leaves out.
    const undocumented = Object.values(mounted)
      .flat()
      .filter((entry: Mounted) => entry.operation.doc === undefined);
    expect(undocumented.map(({ path }) => path)).toEqual(["/", "/page/app.js", "/page/app.css"]);
    const without = await served(testApp());
    expect(Object.keys(without.paths).filter((p) => p.includes("/admin/"))).toEqual([]);
    expect(without.components.securitySchemes.AdminToken).toBeUndefined();
    expect(without.tags.map((t) => t.name)).not.toContain("Admin");
  });

  it("reflects custom base paths (createApp with hanjaBase /api/chars)", async () => {
    const custom = createApp({ dist: distFiles(), hanjaBase: "/api/chars", onError: () => {} });
    const document = await served(custom);
    const paths = Object.keys(document.paths);
    expect(paths).toEqual(
      expect.arrayContaining(["/api/chars/hanja", "/api/chars/hanja/{character}", "/api/chars/idioms", "/api/chars/meta", "/api/chars/terms", "/quiz/v1/quiz"]),
    );
    expect(paths.some((p) => p.startsWith("/hanja/v1"))).toBe(false);
    expect(document.info.description).toContain("/api/chars");
    // The documented paths are the ones the app serves.
    expect((await call(custom, "/api/chars/hanja/%E6%B0%B4")).status).toBe(200);
    expect((await call(custom, "/hanja/v1/hanja/%E6%B0%B4")).status).toBe(404);
  });

  it("documents parameter bounds, defaults and the security schemes", async () => {
    const document = await served(app);
    const p = document.components.parameters;
    expect(p.PerPage?.schema).toEqual({ type: "integer", minimum: 1, maximum: 50, default: 24 });
    expect(p.Page?.schema).toEqual({ type: "integer", minimum: 1, maximum: 10_000, default: 1 });
    expect(p.CharacterQuery?.schema).toMatchObject({ type: "string", maxLength: 80 });
    expect(p.Choices?.schema).toEqual({ type: "integer", minimum: 2, maximum: 6, default: 4 });
    expect(p.QuizCount?.schema).toEqual({ type: "integer", minimum: 1, maximum: 20, default: 1 });
    expect(p.IdiomCount?.schema).toEqual({ type: "integer", minimum: 1, maximum: 50, default: 1 });
    expect(document.components.securitySchemes).toMatchObject({
      ApiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key" },
      ApiKeyQuery: { type: "apiKey", in: "query", name: "api_key" },
      AdminToken: { type: "http", scheme: "bearer" },
    });
    const keyOnly = ["/quiz/v1/classes", "/quiz/v1/classes/{code}/results"];
    const noKey = ["/quiz/v1/classes/{code}", "/quiz/v1/classes/{code}/submissions"];
    for (const [path, op] of operationsOf(document)) {
      // A class quiz is made and read with the teacher's key; students need none.
      if (keyOnly.includes(path)) expect(op.security, path).toEqual([{ ApiKeyHeader: [] }, { ApiKeyQuery: [] }]);
      else if (noKey.includes(path)) expect(op.security, path).toEqual([{}]);
      else if (path.startsWith("/quiz/v1/") && !path.includes("/admin/") && !path.endsWith("/subscribe") && !path.endsWith("/grade"))
        expect(op.security, path).toEqual([{}, { ApiKeyHeader: [] }, { ApiKeyQuery: [] }]);
      if (path.includes("/admin/")) expect(op.security, path).toEqual([{ AdminToken: [] }]);
    }
  });

  it("keeps its variant property list in step with the pipeline", () => {
    expect([...VARIANT_PROPERTIES]).toEqual([...PIPELINE_VARIANTS]);
  });

  it("the response check is not vacuous: it rejects an extra field, a wrong type and a missing header", async () => {
    const contract = new Contract(await served(app));
    const real = await exchange(app, "GET", "/hanja/v1/hanja/%E6%B0%B4");
    expect(() => contract.check(real)).not.toThrow();
    const body = JSON.parse(real.text);
    expect(() => contract.check({ ...real, text: JSON.stringify({ ...body, surprise: 1 }) })).toThrow();
    expect(() => contract.check({ ...real, text: JSON.stringify({ ...body, strokes: "4" }) })).toThrow();
    const noEtag = new Headers(real.headers);
    noEtag.delete("etag");
    expect(() => contract.check({ ...real, headers: noEtag })).toThrow();
    expect(() => contract.check({ ...real, status: 418 })).toThrow();
  });
});
