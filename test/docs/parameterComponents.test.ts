/**
 * The reference's parameters are the operations' own declarations (`docs/parameters.ts`): an
 * operation declared with a parameter nothing else lists is documented, component and reference,
 * in `/openapi.json` and on `/docs`; two declarations that would document one component
 * differently stop the app as it starts, so that no request meets them; and the document and the
 * page build for every shape the options give them (admin routes on or off, a mount path).
 */
import { describe, expect, it } from "vitest";
import type { IntSpec, PathSpec } from "../../runtime/core/http/params.ts";
import { buildOpenApi } from "../../runtime/core/docs/openapi.ts";
import { parameterComponents } from "../../runtime/core/docs/parameters.ts";
import { renderDocs } from "../../runtime/core/docs/renderDocs.ts";
import type { OpenApiDocument, Parameter } from "../../runtime/core/docs/types.ts";
import { describedOperations } from "../../runtime/core/operations/interfaces.ts";
import { type Mounted, defineOperation } from "../../runtime/core/operations/operation.ts";
import { HANJA_LIST_PARAMS } from "../../runtime/core/routes/hanjaParams.ts";
import { call, testApp } from "../helpers/app.ts";
import { Contract } from "./contract.ts";

const BASES = { hanjaBase: "/hanja/v1", quizBase: "/quiz/v1", adminEnabled: false };

const shelf: PathSpec = { in: "path", kind: "positiveId", component: "PlantedShelf", description: "The planted shelf's number." };
const depth: IntSpec = { kind: "int", min: 1, max: 9, default: 3, component: "PlantedDepth", description: "How deep the planted operation looks." };

/** An operation declared only here, with a path and a query parameter no other declaration has. */
const planted: Mounted = {
  path: "/hanja/v1/shelves/{shelf}",
  operation: defineOperation({
    method: "GET",
    path: "/shelves/{shelf}",
    parameters: { shelf, depth },
    metering: "public",
    doc: {
      operationId: "getPlantedShelf",
      summary: "A planted shelf",
      description: "Declared by a test only.",
      tags: ["Characters"],
      responses: { "200": { description: "The shelf." } },
      examples: [{ description: "A shelf", path: { shelf: "1" } }],
      pathNote: "Also answers `HEAD`.",
    },
    handler: () => {
      throw new Error("a planted operation is only described");
    },
  }),
};

describe("the reference's parameters come from the operations' declarations", () => {
  it("documents a parameter an operation declares and nothing else lists: its component, the operation's reference, its row on /docs", () => {
    const { data } = testApp();
    const document = buildOpenApi(data, BASES, [...describedOperations(data, BASES), planted]);
    expect(document.components.parameters.PlantedShelf).toEqual({
      name: "shelf",
      in: "path",
      description: shelf.description,
      required: true,
      schema: { type: "integer", minimum: 1 },
    });
    expect(document.components.parameters.PlantedDepth).toMatchObject({
      name: "depth",
      in: "query",
      schema: { type: "integer", minimum: 1, maximum: 9, default: 3 },
    });
    expect(document.paths["/hanja/v1/shelves/{shelf}"]?.get?.parameters).toEqual([
      { $ref: "#/components/parameters/PlantedShelf" },
      { $ref: "#/components/parameters/PlantedDepth" },
    ]);
    const html = renderDocs(document);
    expect(html).toContain(`<tr><td><code>shelf</code> <strong>required</strong></td><td>path</td>`);
    expect(html).toContain(depth.description);
  });

  it("has a component for each declared parameter and none besides, the admin routes' whether they are mounted or not", async () => {
    const { data } = testApp();
    const withAdmin = describedOperations(data, { ...BASES, adminEnabled: true });
    const declared = [...new Set(withAdmin.flatMap(({ operation }) => Object.values(operation.parameters ?? {}).map((spec) => spec.component)))].sort();
    expect(declared).toContain("KeyId");
    expect(Object.keys(parameterComponents(withAdmin)).sort()).toEqual(declared);
    for (const options of [{}, { adminToken: "parameter-components-admin-token" }]) {
      const served = (await (await call(testApp(options), "/openapi.json")).json()) as OpenApiDocument;
      expect(Object.keys(served.components.parameters).sort(), JSON.stringify(options)).toEqual(declared);
    }
  });

  it("stops the app as it starts when two declarations would document one component differently, naming both", () => {
    const list = HANJA_LIST_PARAMS as Record<string, unknown>;
    // A second `per_page`-like parameter under the component name `PerPage`, with other bounds.
    list.planted_size = { kind: "int", min: 1, max: 5, default: 2, component: "PerPage", description: "Not the PerPage the reference has." };
    try {
      expect(() => testApp()).toThrow(
        /^parameter component PerPage: GET \/hanja\/v1\/hanja \(planted_size\) documents it otherwise than GET \/hanja\/v1\/hanja \(per_page\); give one of them its own component name$/,
      );
      // The same spec under another name is documented otherwise too (a component carries its name).
      list.planted_size = HANJA_LIST_PARAMS.per_page;
      expect(() => testApp()).toThrow(/PerPage: GET \/hanja\/v1\/hanja \(planted_size\) documents it otherwise/);
    } finally {
      delete list.planted_size;
    }
    expect(() => testApp()).not.toThrow();
  });

  for (const [label, options] of [
    ["admin routes off", {}],
    ["admin routes on", { adminToken: "parameter-components-admin-token" }],
    ["under a mount path, custom bases", { mountPath: "/lexicon", hanjaBase: "/h", quizBase: "/q", adminToken: "parameter-components-admin-token" }],
  ] as const) {
    it(`builds /openapi.json and /docs with every reference resolved (${label})`, async () => {
      const app = testApp(options);
      const openapi = await call(app, "/openapi.json");
      expect(openapi.status).toBe(200);
      const document = (await openapi.json()) as OpenApiDocument;
      const contract = new Contract(document);
      for (const [path, item] of Object.entries(document.paths)) {
        for (const operation of [item.get, item.post]) {
          for (const parameter of operation?.parameters ?? []) expect(contract.resolve<Parameter>(parameter).name, path).toMatch(/^\w+$/);
        }
      }
      expect((await call(app, "/docs")).status).toBe(200);
    });
  }
});

describe("list parameters in /openapi.json", () => {
  it("say both forms: the comma list (style form, not exploded) and the parameter repeated, which the router reads alike", async () => {
    const app = testApp();
    const document = (await (await call(app, "/openapi.json")).json()) as OpenApiDocument;
    for (const [component, name] of [
      ["QuizType", "type"],
      ["Exclude", "exclude"],
    ] as const) {
      const parameter = document.components.parameters[component] as Parameter;
      expect(parameter).toMatchObject({ name, in: "query", style: "form", explode: false, schema: { type: "array" } });
      expect(parameter.description).toContain(`\`${name}=a&${name}=b\``);
      expect(parameter.description).toContain(`\`${name}=a,b\``);
    }
    // A single-valued parameter says a repetition is refused.
    expect((document.components.parameters.QuizCount as Parameter).description).toContain("Given twice: `400`.");
  });
});
