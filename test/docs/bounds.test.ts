/**
 * The documented parameter bounds, enums, lengths and defaults are the ones the code enforces:
 * every bounded parameter of the document is probed at and just past its limits. And the record
 * schemas hold for the whole dataset, not only for the responses other tests happen to see.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { OpenApiDocument, Operation, Parameter, Schema } from "../../runtime/core/docs/types.ts";
import { call, testApp } from "../helpers/app.ts";
import { Contract, exchange, target } from "./contract.ts";

const app = testApp({ adminToken: "bounds-test-admin-token-000" });
const document = JSON.parse(await (await call(app, "/openapi.json")).text()) as OpenApiDocument;
const contract = new Contract(document);
const auth = { Authorization: "Bearer bounds-test-admin-token-000" };
let ipCounter = 0;

async function probe(method: string, url: string, headers: Record<string, string>) {
  const result = await exchange(app, method, url, { headers, ip: `10.30.${++ipCounter >> 8}.${ipCounter & 255}` });
  return { status: result.status, body: contract.check(result) as any };
}

interface Case {
  value: string;
  ok: boolean;
}

/** Values at and past the documented limits of a parameter schema; `verbatim`: a text taken as sent, which spaces alone are. */
function casesFor(schema: Schema, verbatim = false): Case[] {
  const cases: Case[] = [];
  if (schema.type === "integer") {
    const min = schema.minimum as number;
    const max = schema.maximum as number | undefined;
    cases.push({ value: String(min), ok: true });
    // Without a documented maximum every larger whole number is accepted (an unknown id is a 404).
    if (max === undefined) cases.push({ value: "99999999999999999999", ok: true });
    else cases.push({ value: String(max), ok: true }, { value: String(max + 1), ok: false });
    if (min > 0) cases.push({ value: String(min - 1), ok: false });
    cases.push({ value: `${min}.0`, ok: false }, { value: `+${min}`, ok: false }, { value: "", ok: false }, { value: "1e1", ok: false });
  }
  if (schema.type === "string" && typeof schema.pattern === "string") {
    // Values the documented pattern takes (drawn from it) and near misses; the pattern itself says which are ok.
    const pattern = new RegExp(schema.pattern);
    const taken = fc.sample(fc.stringMatching(pattern), { numRuns: 4, seed: 48 });
    const near = taken.flatMap((value) => [`${value}x`, value.slice(1), value.slice(0, -1), value.toUpperCase()]);
    for (const value of [...taken, ...near, "x", "%", "水"]) cases.push({ value, ok: pattern.test(value) });
  }
  if (Array.isArray(schema.enum)) {
    for (const value of schema.enum as string[]) cases.push({ value, ok: true });
    cases.push({ value: "bogus", ok: false });
  }
  if (schema.type === "string" && typeof schema.maxLength === "number") {
    cases.push({ value: "가".repeat(schema.maxLength), ok: true }, { value: "가".repeat(schema.maxLength + 1), ok: false });
    if (schema.minLength === 1) cases.push({ value: "", ok: false }, { value: "  ", ok: verbatim });
  }
  if (schema.type === "array" && (schema.items as Schema).type === "string") {
    // A comma-separated list of an enum's values: each, all of them, none twice, nothing else.
    const values = (schema.items as Schema).enum as string[];
    for (const value of values) cases.push({ value, ok: true });
    cases.push({ value: values.join(","), ok: true }, { value: `${values[0]},${values[0]}`, ok: false });
    cases.push({ value: `${values[0]},bogus`, ok: false }, { value: "", ok: false });
  } else if (schema.type === "array") {
    const items = schema.items as Schema;
    // Values above every idx, so the most the list may hold still leaves idioms to ask about.
    const max = items.maximum as number;
    const many = Array.from({ length: schema.maxItems as number }, (_, i) => max - i);
    cases.push({ value: many.join(","), ok: true }, { value: [...many, max - many.length].join(","), ok: false });
    cases.push({ value: String(items.minimum), ok: true }, { value: String(max + 1), ok: false }, { value: "0", ok: false }, { value: "1,x", ok: false });
  }
  return cases;
}

const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  (["get", "post"] as const).flatMap((method) => (item[method] ? [{ path, method: method.toUpperCase(), op: item[method] as Operation }] : [])),
);

describe("documented parameter bounds are enforced exactly", () => {
  for (const { path, method, op } of operations) {
    const parameters = (op.parameters ?? []).map((p) => contract.resolve<Parameter>(p));
    for (const parameter of parameters.filter((p) => p.in === "query" || p.in === "path")) {
      // The reference says "Taken as sent (not trimmed …)" of a verbatim text (docs/parameters.ts).
      const cases = casesFor(parameter.schema, parameter.description?.includes("not trimmed") ?? false);
      if (cases.length === 0) continue;
      it(`${op.operationId}: ${parameter.name} ${JSON.stringify(parameter.schema)}`, async () => {
        const example = op["x-request-examples"][0] ?? { description: "" };
        const headers = op.tags.includes("Admin") ? auth : {};
        // The other required query parameters keep their example values.
        const base = Object.fromEntries(
          parameters.filter((p) => p.in === "query" && p.required && p !== parameter).map((p) => [p.name, example.query?.[p.name] ?? "가"]),
        );
        const urlWith = (values: [string, string][]) => {
          const query = new URLSearchParams(base);
          for (const [name, value] of values) query.append(name, value);
          return `${target(path, example.path)}?${query}`;
        };
        for (const { value, ok } of cases) {
          if (parameter.in === "path" && value === "") continue; // `/idiom/` is the list route
          const url = parameter.in === "path" ? target(path, { ...example.path, [parameter.name]: value }, base) : urlWith([[parameter.name, value]]);
          const { status, body } = await probe(method, url, headers);
          const label = `${parameter.name}=${value.slice(0, 30)}${value.length > 30 ? "…" : ""}`;
          if (ok) expect(status, `${label}: ${JSON.stringify(body)?.slice(0, 200)}`).not.toBe(400);
          else {
            expect(status, label).toBe(400);
            expect(body.param, label).toBe(parameter.name);
          }
        }
        if (parameter.in === "query") {
          const value = cases.find((c) => c.ok)?.value ?? "";
          const { status, body } = await probe(
            method,
            urlWith([
              [parameter.name, value],
              [parameter.name, value],
            ]),
            headers,
          );
          expect(status, `${parameter.name} twice`).toBe(400);
          expect(body.param).toBe(parameter.name);
        }
      });
    }
  }

  it("the documented defaults are the ones used", async () => {
    const param = (name: string) => document.components.parameters[name]?.schema.default;
    const list = await probe("GET", "/hanja/v1/hanja", {});
    expect(list.body).toMatchObject({ page: param("Page"), per_page: param("PerPage") });
    expect(list.body.data).toHaveLength(param("PerPage") as number);
    const idioms = await probe("GET", "/hanja/v1/idioms", {});
    expect(idioms.body).toMatchObject({ page: param("Page"), per_page: param("PerPage") });
    const quiz = await probe("GET", "/quiz/v1/quiz", {});
    expect(param("QuizCount")).toBe(1);
    expect(quiz.body.quiz.choices).toHaveLength(param("Choices") as number);
    const random = await probe("GET", "/quiz/v1/idiom", {});
    expect(random.body.idioms).toHaveLength(param("IdiomCount") as number);
  });

  it("the quiz and search limits in the response schemas hold at their bounds", async () => {
    const many = await probe("GET", "/quiz/v1/quiz?count=20&choices=6", {});
    expect(many.body.quizzes).toHaveLength(20);
    const search = await probe("GET", `/quiz/v1/search?q=${encodeURIComponent("이")}`, {});
    expect(search.body.count).toBeLessThanOrEqual(30);
    const idioms = await probe("GET", "/quiz/v1/idiom?count=50", {});
    expect(idioms.body.idioms.length).toBe(Math.min(50, app.data.counts.idioms));
  });
});

describe("the record schemas hold for the whole dataset", () => {
  it("every Hanja record (all pages of GET /hanja) and every detail record", async () => {
    let pages = 1;
    let seen = 0;
    for (let page = 1; page <= pages; page++) {
      const result = await exchange(app, "GET", `/hanja/v1/hanja?per_page=50&page=${page}`);
      const body = contract.check(result) as { pages: number; data: unknown[] };
      pages = body.pages;
      seen += body.data.length;
    }
    expect(seen).toBe(app.data.counts.characters);
    const detail = contract.validator({ $ref: "#/components/schemas/HanjaDetail" });
    for (const text of app.data.characters.details) {
      const record = JSON.parse(text);
      expect(detail(record) ? [] : detail.errors, record.character).toEqual([]);
    }
  });

  it("every idiom in both interfaces' shapes", async () => {
    const a = contract.validator({ $ref: "#/components/schemas/IdiomA" });
    const b = contract.validator({ $ref: "#/components/schemas/Idiom" });
    for (const text of app.data.idioms.itemsA) expect(a(JSON.parse(text)) ? [] : a.errors, text).toEqual([]);
    for (const text of app.data.idioms.itemsB) expect(b(JSON.parse(text)) ? [] : b.errors, text).toEqual([]);
  });
});
