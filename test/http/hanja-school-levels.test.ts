/**
 * `school_level` (docs/rules.md "School levels"): each of the 1,800 education hanja is `middle` or
 * `high`, 900 each, every other record null; `GET /hanja?school_level=` keeps one half (with `q`
 * and the other filters, any other value a `400` naming it); `/meta` counts both halves and names
 * their licence; `/terms` ends with their attribution.
 */
import { describe, expect, test } from "vitest";
import { call, getJson, testApp } from "../helpers/app.ts";
import { BASE, expectProblem, fileRecords, qs } from "./hanja-expect.ts";

const app = testApp();

describe("school_level in the records", () => {
  test("the 1,800 education hanja are 900 middle and 900 high; every other record is null", () => {
    const records = fileRecords();
    const count = (level: string | null) => records.filter((r) => r.school_level === level).length;
    expect(count("middle")).toBe(900);
    expect(count("high")).toBe(900);
    for (const r of records) expect(r.school_level === null, r.character).toBe(!r.education_hanja);
  });

  test.each([
    ["水", "middle"],
    ["學", "middle"],
    ["節", "middle"],
    ["切", "high"],
    // The six the pinned list spells otherwise, levelled by the project's map.
    ["絕", "middle"],
    ["毁", "high"],
    ["腦", "high"],
    ["謂", "high"],
    ["隷", "high"],
    ["𮕩", "high"],
    // Outside the 1,800: their other forms, and a name hanja.
    ["絶", null],
    ["衰", null],
    ["㒚", null],
  ])("%s: the detail and the list item say %s", async (character, level) => {
    const detail = await getJson(app, `${BASE}/hanja/${encodeURIComponent(character)}`);
    expect(detail.status).toBe(200);
    expect(detail.body.school_level).toBe(level);
    const list = await getJson(app, `${BASE}/hanja${qs({ q: character })}`);
    expect(list.body.data[0]).toMatchObject({ character, school_level: level });
  });
});

describe("GET /hanja?school_level=", () => {
  test.each(["middle", "high"] as const)("%s: exactly the 900 of that level, in code point order", async (level) => {
    const expected = fileRecords().filter((r) => r.school_level === level);
    const first = await getJson(app, `${BASE}/hanja?school_level=${level}&per_page=50`);
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(900);
    expect(first.body.data.map((r: { character: string }) => r.character)).toEqual(expected.slice(0, 50).map((r) => r.character));
    const last = await getJson(app, `${BASE}/hanja?school_level=${level}&per_page=50&page=18`);
    expect(last.body.data.map((r: { character: string }) => r.character)).toEqual(expected.slice(850).map((r) => r.character));
  });

  test("is AND-ed with q and the other filters, and keys the search cache: one level's result is never served for the other", async () => {
    const middle = await getJson(app, `${BASE}/hanja?q=water&school_level=middle&per_page=50`);
    const high = await getJson(app, `${BASE}/hanja?q=water&school_level=high&per_page=50`);
    const education = await getJson(app, `${BASE}/hanja?q=water&education=1&per_page=50`);
    expect(middle.body.total).toBeGreaterThan(0);
    expect(high.body.total).toBeGreaterThan(0);
    expect(middle.body.total + high.body.total).toBe(education.body.total);
    for (const r of middle.body.data) expect(r.school_level, r.character).toBe("middle");
    for (const r of high.body.data) expect(r.school_level, r.character).toBe("high");
    // 水 is a middle-school character: first for water among them, absent among the high ones.
    expect(middle.body.data[0].character).toBe("水");
    expect(high.body.data.map((r: { character: string }) => r.character)).not.toContain("水");
    expect((await getJson(app, `${BASE}/hanja?school_level=high&education=0`)).body.total).toBe(0);
    expect((await getJson(app, `${BASE}/hanja?school_level=middle&strokes=4&per_page=50`)).body.total).toBe(
      fileRecords().filter((r) => r.school_level === "middle" && r.strokes === 4).length,
    );
  });

  test.each([["low"], ["Middle"], ["middle%20"], ["0"], ["1"], [""], ["middle,high"], ["%E4%B8%AD"]])(
    "school_level=%s → 400 naming it, listing the values",
    async (raw) => {
      const body = await expectProblem(await call(app, `${BASE}/hanja?school_level=${raw}`), 400, "invalid_parameter", "school_level");
      expect(body.detail).toContain("school_level must be one of middle, high");
    },
  );

  test("given twice → 400", async () => {
    const body = await expectProblem(await call(app, `${BASE}/hanja?school_level=middle&school_level=high`), 400, "invalid_parameter", "school_level");
    expect(body.detail).toBe("school_level is given 2 times; give it once");
  });

  test("is documented in /openapi.json as an enumerated parameter of GET /hanja", async () => {
    const document = (await getJson(app, "/openapi.json")).body;
    expect(document.components.parameters.SchoolLevel).toMatchObject({
      name: "school_level",
      in: "query",
      schema: { type: "string", enum: ["middle", "high"] },
    });
    expect(document.paths["/hanja/v1/hanja"].get.parameters).toContainEqual({ $ref: "#/components/parameters/SchoolLevel" });
  });
});

describe("/meta and /terms", () => {
  test("/meta counts 900 middle and 900 high and names their licence, CC BY-SA 4.0", async () => {
    const { body } = await getJson(app, `${BASE}/meta`);
    expect(body.counts).toMatchObject({ education_hanja: 1800, middle_school_hanja: 900, high_school_hanja: 900 });
    expect(body.licenses.school_levels).toMatchObject({
      name: expect.stringContaining("CC BY-SA 4.0"),
      url: "https://creativecommons.org/licenses/by-sa/4.0/",
    });
  });

  test("/terms ends with the school levels' attribution and licence, which the idiom terms do not restrict", async () => {
    const terms = await (await call(app, `${BASE}/terms`)).text();
    const section = terms.slice(terms.lastIndexOf("## School levels (the `school_level` field)"));
    expect(section).toContain("https://github.com/jjm4000/okpyeon");
    expect(section).toContain("https://creativecommons.org/licenses/by-sa/4.0/");
    expect(section).toContain("not under the terms above");
  });
});
