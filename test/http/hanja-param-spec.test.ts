/**
 * A parameter is written once, in its route's spec: a filter added to `GET /hanja`'s spec (here
 * `grade`, with its bounds, description and predicate, as an entry of `CHARACTER_FILTERS` would
 * be) is parsed, documented in /openapi.json and /docs, and part of the search cache key, with no
 * other edit.
 */
import { describe, expect, it } from "vitest";
import type { CharacterData } from "../../runtime/core/data/load.ts";
import { type CharacterFilter, HANJA_LIST_PARAMS } from "../../runtime/core/routes/hanjaParams.ts";
import { call, getJson, testApp } from "../helpers/app.ts";

/** Grade 1: an odd number of strokes; grade 2: an even number. */
const grade: CharacterFilter = {
  kind: "int",
  min: 1,
  max: 2,
  component: "Grade",
  description: "Only characters of this test grade (1: odd stroke count, 2: even).",
  keep: (data: CharacterData, position: number, value: number) => ((data.strokes[position] ?? 0) % 2 === 0 ? 2 : 1) === value,
};
(HANJA_LIST_PARAMS as Record<string, unknown>).grade = grade;
const app = testApp();

describe("a filter added to the spec of GET /hanja", () => {
  it("is parsed: bounds and digits enforced with a 400 naming it", async () => {
    for (const value of ["0", "3", "1.0", "x"]) {
      const { status, body } = await getJson(app, `/hanja/v1/hanja?grade=${value}`);
      expect(status, value).toBe(400);
      expect(body.param).toBe("grade");
    }
    const twice = await getJson(app, "/hanja/v1/hanja?grade=1&grade=2");
    expect(twice.status).toBe(400);
    expect(twice.body.detail).toBe("grade is given 2 times; give it once");
  });

  it("filters with its predicate, and keys the search cache: one grade's result is never served for another", async () => {
    const all = await getJson(app, "/hanja/v1/hanja?q=water&per_page=50");
    const odd = await getJson(app, "/hanja/v1/hanja?q=water&grade=1&per_page=50");
    const even = await getJson(app, "/hanja/v1/hanja?q=water&grade=2&per_page=50");
    expect(odd.status).toBe(200);
    expect(odd.body.total).toBeGreaterThan(0);
    expect(even.body.total).toBeGreaterThan(0);
    expect(odd.body.total + even.body.total).toBe(all.body.total);
    for (const item of odd.body.data) expect(item.strokes % 2, item.character).toBe(1);
    for (const item of even.body.data) expect(item.strokes % 2, item.character).toBe(0);
  });

  it("is documented in /openapi.json (component and operation) and on /docs", async () => {
    const document = (await getJson(app, "/openapi.json")).body;
    expect(document.components.parameters.Grade).toEqual({
      name: "grade",
      in: "query",
      description: `${grade.description} Plain decimal digits; anything else (signs, decimals, blanks) or out of bounds is \`400\`. Given twice: \`400\`.`,
      required: false,
      schema: { type: "integer", minimum: 1, maximum: 2 },
    });
    expect(document.paths["/hanja/v1/hanja"].get.parameters).toContainEqual({ $ref: "#/components/parameters/Grade" });
    const docs = await (await call(app, "/docs")).text();
    expect(docs).toContain(grade.description);
  });
});
