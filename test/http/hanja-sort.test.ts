/**
 * `GET /hanja?sort=` (docs/rules.md "Interface A"): `relevance` (the default), `reading` (가나다 order
 * of `reading`, then fewer strokes, then code point), `strokes` (then reading, then code point) and
 * `codepoint`, over the matches of any `q` and filters, before paging. The expected orders are
 * computed here with Intl.Collator("ko") over the records (`sortedBy`); any other value, or `sort`
 * given twice, is a `400` naming it.
 */
import { describe, expect, test } from "vitest";
import type { HanjaRecord } from "../../runtime/format/records.ts";
import { call, getJson, testApp } from "../helpers/app.ts";
import { BASE, type Envelope, type FixedSort, expectEnvelope, expectProblem, fileRecords, qs, sortedBy } from "./hanja-expect.ts";

const app = testApp();
const characters = (records: readonly { character: string }[]) => records.map((r) => r.character);

/** Every page of a list, `perPage` at a time, concatenated. */
async function allPages(params: Record<string, string | number>, perPage = 50): Promise<HanjaRecord[]> {
  const out: HanjaRecord[] = [];
  for (let page = 1; ; page++) {
    const { status, body } = await getJson<Envelope<HanjaRecord>>(app, `${BASE}/hanja${qs({ ...params, per_page: perPage, page })}`);
    expect(status).toBe(200);
    expectEnvelope(body, page, perPage);
    out.push(...body.data);
    if (page >= body.pages) {
      expect(out).toHaveLength(body.total);
      return out;
    }
  }
}

describe("GET /hanja?sort=", () => {
  test("the dataset's readings in code point order are in 가나다 order (Intl.Collator ko)", () => {
    const readings = [...new Set(fileRecords().map((r) => r.reading))];
    expect(readings.length).toBeGreaterThan(400);
    const byCodePoint = [...readings].sort((a, b) => (a.codePointAt(0) ?? 0) - (b.codePointAt(0) ?? 0));
    expect(byCodePoint).toEqual([...readings].sort(new Intl.Collator("ko").compare));
  });

  test.each(["middle", "high"] as const)(
    "school_level=%s&sort=reading: the 900 in 가나다 order of their reading, then strokes, then code point",
    async (level) => {
      const expected = sortedBy(
        fileRecords().filter((r) => r.school_level === level),
        "reading",
      );
      const got = await allPages({ school_level: level, sort: "reading" });
      expect(got).toHaveLength(900);
      expect(characters(got)).toEqual(characters(expected));
      if (level === "middle") expect(characters(got.slice(0, 8))).toEqual([..."加可佳家假街歌價"]);
    },
  );

  test.each([
    ["strokes", "수"],
    ["strokes", "water"],
    ["reading", "water"],
    ["codepoint", "수"],
  ] as const)("sort=%s with q=%s: the same matches as relevance, in that order", async (sort, q) => {
    const relevance = await allPages({ q });
    expect(relevance.length).toBeGreaterThan(50);
    const got = await allPages({ q, sort });
    expect(characters(got)).toEqual(characters(sortedBy(relevance, sort as FixedSort)));
    expect(characters(got)).not.toEqual(characters(relevance));
  });

  test("sort=strokes with q and a filter: the filtered matches, fewest strokes first", async () => {
    const got = await allPages({ q: "수", education: 1, sort: "strokes" });
    const relevance = await allPages({ q: "수", education: 1 });
    expect(characters(got)).toEqual(characters(sortedBy(relevance, "strokes")));
    expect(characters(got.slice(0, 3))).toEqual([..."手水丑"]);
  });

  test("paging is consistent: pages of 7 concatenated are the pages of 50, in the order asked for", async () => {
    const cases = [
      [{ q: "수", sort: "reading" }, () => allPages({ q: "수" })],
      [{ school_level: "high", strokes: 9, sort: "codepoint" }, async () => fileRecords().filter((r) => r.school_level === "high" && r.strokes === 9)],
      [{ radical_number: 85, sort: "strokes" }, async () => fileRecords().filter((r) => r.radical_number === 85)],
    ] as const;
    for (const [params, matches] of cases) {
      const small = await allPages(params, 7);
      expect(small.length).toBeGreaterThan(7);
      expect(characters(small)).toEqual(characters(await allPages(params, 50)));
      expect(characters(small)).toEqual(characters(sortedBy(await matches(), params.sort)));
    }
  });

  test("relevance is the default: sort=relevance answers what no sort does", async () => {
    for (const q of ["", "수", "water"]) {
      const plain = await getJson(app, `${BASE}/hanja${qs({ q, per_page: 50 })}`);
      const relevance = await getJson(app, `${BASE}/hanja${qs({ q, per_page: 50, sort: "relevance" })}`);
      expect(relevance.body).toEqual(plain.body);
    }
  });

  test("sort keys the list's caches: an unsorted page is never served for a sorted one, nor one order for another", async () => {
    const fresh = testApp();
    const page = (sort?: string) => getJson<Envelope<HanjaRecord>>(fresh, `${BASE}/hanja${qs({ school_level: "middle", per_page: 20, page: 2, sort })}`);
    const plain = await page();
    const reading = await page("reading");
    const strokes = await page("strokes");
    const all = fileRecords().filter((r) => r.school_level === "middle");
    expect(characters(plain.body.data)).toEqual(characters(all.slice(20, 40)));
    expect(characters(reading.body.data)).toEqual(characters(sortedBy(all, "reading").slice(20, 40)));
    expect(characters(strokes.body.data)).toEqual(characters(sortedBy(all, "strokes").slice(20, 40)));
    expect(plain.headers.get("etag")).toBe(reading.headers.get("etag"));
    expect(characters((await page()).body.data)).toEqual(characters(plain.body.data));
  });

  test.each([["bogus"], ["Reading"], ["reading%20"], [""], ["reading,strokes"], ["0"], ["%EA%B0%80"]])(
    "sort=%s → 400 naming sort, listing the values",
    async (raw) => {
      const body = await expectProblem(await call(app, `${BASE}/hanja?sort=${raw}`), 400, "invalid_parameter", "sort");
      expect(body.detail).toContain("sort must be one of relevance, reading, strokes, codepoint");
    },
  );

  test("sort given twice → 400 naming it, as other single-valued parameters", async () => {
    for (const query of ["sort=reading&sort=reading", "sort=reading&sort=strokes&q=water"]) {
      const body = await expectProblem(await call(app, `${BASE}/hanja?${query}`), 400, "invalid_parameter", "sort");
      expect(body.detail).toBe("sort is given 2 times; give it once");
    }
  });

  test("the reference documents sort: an enum with its default, on GET /hanja only", async () => {
    const spec = (await getJson(app, "/openapi.json")).body;
    const parameters = (operation: { parameters: { $ref?: string; name?: string }[] }) =>
      operation.parameters.map((p) => (p.$ref ? spec.components.parameters[p.$ref.split("/").pop() ?? ""] : p));
    const sort = parameters(spec.paths["/hanja/v1/hanja"].get).find((p: { name: string }) => p.name === "sort");
    expect(sort).toMatchObject({ in: "query", schema: { type: "string", enum: ["relevance", "reading", "strokes", "codepoint"], default: "relevance" } });
    expect(parameters(spec.paths["/hanja/v1/idioms"].get).map((p: { name: string }) => p.name)).not.toContain("sort");
  });
});
