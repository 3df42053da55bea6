/**
 * `GET /hanja` (docs/rules.md "Interface A"): filters, the matching rules of `q`, ordering and paging, each checked
 * against what the test computes itself from `dist/characters.jsonl`.
 */
import { describe, expect, test } from "vitest";
import type { HanjaRecord } from "../../runtime/format/records.ts";
import { getJson, testApp } from "../helpers/app.ts";
import {
  BASE,
  type Envelope,
  type Filters,
  SOURCE,
  allPages,
  cp,
  expectEnvelope,
  fileRecords,
  hangulExpectation,
  passes,
  qs,
  recordOf,
  tieBreak,
} from "./hanja-expect.ts";
import { CHARACTERS, EDUCATION_HANJA, spotRecord } from "../helpers/pin.ts";

const app = testApp();
const byCodepoint = (a: HanjaRecord, b: HanjaRecord) => cp(a.character) - cp(b.character);
const chars = (items: HanjaRecord[]) => items.map((r) => r.character);

async function search(params: Record<string, string | number | undefined>): Promise<Envelope<HanjaRecord>> {
  const { status, body } = await getJson<Envelope<HanjaRecord>>(app, `${BASE}/hanja${qs(params)}`);
  expect(status).toBe(200);
  return body;
}

/** Every result of a search, in order. */
async function everything(params: Record<string, string | number | undefined>): Promise<HanjaRecord[]> {
  return (await allPages<HanjaRecord>(app, `${BASE}/hanja${qs(params)}`)).items;
}

/** MiniSearch's default tokenizer and term processing: split on spaces and punctuation, lower-case. */
/** Whether a record passes the given filters, as the API defines them. */
function keepsAll(r: HanjaRecord, filters: { starter?: number; radical_number?: number; strokes?: number; education?: number }): boolean {
  return (
    (filters.strokes === undefined || r.strokes === filters.strokes) &&
    (filters.radical_number === undefined || r.radical_number === filters.radical_number) &&
    (filters.starter === undefined || (r.starter ? 1 : 0) === filters.starter) &&
    (filters.education === undefined || (r.education_hanja ? 1 : 0) === filters.education)
  );
}

function words(text: string | null): string[] {
  return (text ?? "")
    .toLowerCase()
    .split(/[\n\r\p{Z}\p{P}]+/u)
    .filter((w) => w !== "");
}

describe("the data the tests compare with", () => {
  test("dist/characters.jsonl holds every record of the pinned release in code point order", () => {
    const records = fileRecords();
    expect(records).toHaveLength(CHARACTERS);
    expect(chars(records)).toEqual(chars([...records].sort(byCodepoint)));
    expect(new Set(chars(records)).size).toBe(CHARACTERS);
  });
});

describe("empty q", () => {
  test("defaults: page 1, 24 per page, every record counted, source label", async () => {
    const body = await search({});
    expectEnvelope(body, 1, 24);
    expect(body.total).toBe(CHARACTERS);
    expect(body.pages).toBe(Math.ceil(CHARACTERS / 24));
    expect(body.source).toBe(SOURCE);
    expect(body.data).toEqual(fileRecords().slice(0, 24));
  });

  test("every page together is every record, in code point order, equal to the file", async () => {
    const items = await everything({});
    expect(items).toEqual([...fileRecords()].sort(byCodepoint));
  });

  test("consecutive pages continue in code point order", async () => {
    const first = await search({ page: 1, per_page: 7 });
    const second = await search({ page: 2, per_page: 7 });
    const joined = [...first.data, ...second.data];
    expect(chars(joined)).toEqual(chars(fileRecords().slice(0, 14)));
    for (let i = 1; i < joined.length; i++) expect(cp(joined[i]!.character)).toBeGreaterThan(cp(joined[i - 1]!.character));
  });

  test("the last page is partial and a page past the end is empty with the same total", async () => {
    const pages = Math.ceil(CHARACTERS / 50);
    const last = await search({ page: pages, per_page: 50 });
    expectEnvelope(last, pages, 50);
    expect(last.data).toHaveLength(CHARACTERS - (pages - 1) * 50);
    expect(last.data.at(-1)).toEqual(fileRecords().at(-1));
    for (const page of [pages + 1, 10_000]) {
      const past = await search({ page, per_page: 50 });
      expect(past).toEqual({ data: [], total: CHARACTERS, page, per_page: 50, pages, source: SOURCE });
    }
  });

  test("per_page bounds 1 and 50", async () => {
    const one = await search({ per_page: 1, page: CHARACTERS });
    expectEnvelope(one, CHARACTERS, 1);
    expect(one.pages).toBe(CHARACTERS);
    expect(one.data).toEqual([fileRecords().at(-1)]);
    expectEnvelope(await search({ per_page: 50 }), 1, 50);
  });
});

describe("filters alone, against the file", () => {
  const cases: Filters[] = [
    { strokes: 4 },
    { strokes: 1 },
    { strokes: 30 },
    { strokes: 64 },
    { radical_number: 85 },
    { radical_number: 1 },
    { radical_number: 214 },
    { starter: 1 },
    { starter: 0 },
    { education: 1 },
    { education: 0 },
  ];
  test.each(cases)("%o", async (filters) => {
    const expected = fileRecords().filter((r) => passes(r, filters));
    const first = await search({ ...filters });
    expect(first.total).toBe(expected.length);
    expectEnvelope(first, 1, 24);
    expect(first.data).toEqual(expected.slice(0, 24));
    // The big sets are checked page by page only on their first pages (above); the others in full.
    if (expected.length <= 2000) expect(chars(await everything({ ...filters }))).toEqual(chars(expected));
  });

  test("known counts: 128 starters, the pinned release's education hanja", async () => {
    expect((await search({ starter: 1 })).total).toBe(128);
    expect((await search({ starter: 0 })).total).toBe(CHARACTERS - 128);
    expect((await search({ education: 1 })).total).toBe(EDUCATION_HANJA);
  });

  test("filters are AND-ed with each other", async () => {
    const filters: Filters = { strokes: 4, radical_number: 85, education: 1 };
    const expected = fileRecords().filter((r) => passes(r, filters));
    expect(expected.length).toBeGreaterThan(0);
    expect(chars(await everything({ ...filters }))).toEqual(chars(expected));
    const starters = fileRecords().filter((r) => passes(r, { starter: 1, education: 0 }));
    expect((await search({ starter: 1, education: 0 })).total).toBe(starters.length);
  });

  test("a filter that matches nothing is 200 with empty data", async () => {
    const strokes = [...Array(64).keys()].map((i) => i + 1).find((s) => !fileRecords().some((r) => r.strokes === s));
    expect(strokes).toBeDefined();
    expect(await search({ strokes })).toEqual({ data: [], total: 0, page: 1, per_page: 24, pages: 0, source: SOURCE });
  });
});

describe("q: one character", () => {
  test("水 → exactly 水", async () => {
    const body = await search({ q: "水" });
    expect(body).toEqual({ data: [recordOf("水")], total: 1, page: 1, per_page: 24, pages: 1, source: SOURCE });
  });

  test("an astral character (𮕩 U+2E569) → exactly it", async () => {
    const body = await search({ q: "𮕩" });
    expect(body.total).toBe(1);
    expect(body.data).toEqual([recordOf("𮕩")]);
  });

  test("a compatibility ideograph (U+F900) is its own record, not folded to U+8C48", async () => {
    const compat = "\uF900";
    const unified = compat.normalize("NFC");
    expect(unified).toBe("\u8C48");
    const a = await search({ q: compat });
    expect(a.total).toBe(1);
    expect(a.data[0]?.codepoint).toBe("U+F900");
    expect(a.data[0]?.character).toBe(compat);
    const b = await search({ q: unified });
    expect(b.total).toBe(1);
    expect(b.data[0]?.codepoint).toBe("U+8C48");
  });

  test("a Han character outside the dataset → 200, empty", async () => {
    const known = new Set(chars(fileRecords()));
    let missing = "";
    for (let c = 0x4e00; c <= 0x9fff && missing === ""; c++) if (!known.has(String.fromCodePoint(c))) missing = String.fromCodePoint(c);
    expect(missing).not.toBe("");
    expect(await search({ q: missing })).toMatchObject({ data: [], total: 0, pages: 0 });
  });

  test("q is trimmed", async () => {
    expect((await search({ q: "  水  " })).data).toEqual([recordOf("水")]);
    expect((await search({ q: "\u3000水\t" })).data).toEqual([recordOf("水")]);
  });

  test("with a filter: the character only when it passes", async () => {
    const { radical_number, strokes } = spotRecord("水");
    expect((await search({ q: "水", radical_number })).total).toBe(1);
    expect((await search({ q: "水", strokes, starter: 1, education: 1 })).total).toBe(1);
    expect((await search({ q: "水", radical_number: radical_number + 1 })).total).toBe(0);
    expect((await search({ q: "水", strokes: strokes + 1 })).total).toBe(0);
    expect((await search({ q: "水", starter: 0 })).total).toBe(0);
    expect((await search({ q: "水", education: 0 })).data).toEqual([]);
  });
});

describe("q: a code point", () => {
  test.each(["U+6C34", "u+6c34", "6C34", "6c34", "U+6c34"])("%s → 水", async (q) => {
    const body = await search({ q });
    expect(body.total).toBe(1);
    expect(body.data).toEqual([recordOf("水")]);
  });

  test("astral and compatibility code points", async () => {
    expect((await search({ q: "U+2E569" })).data).toEqual([recordOf("𮕩")]);
    expect((await search({ q: "2E569" })).data).toEqual([recordOf("𮕩")]);
    expect((await search({ q: "U+F900" })).data).toEqual([recordOf("\uF900")]);
  });

  test("a code point outside the dataset → empty", async () => {
    expect((await search({ q: "U+0041" })).total).toBe(0);
    expect((await search({ q: "U+10FFFF" })).total).toBe(0);
    expect((await search({ q: "U+FFFFFF" })).total).toBe(0);
  });

  test("an English word made of hex letters (face) is text, not U+FACE", async () => {
    const items = await everything({ q: "face" });
    expect(items.length).toBeGreaterThan(1);
    expect(chars(items)).toContain("顔");
    expect(items.map((r) => r.codepoint)).not.toContain("U+FACE");
    for (const r of items) expect([...words(r.definition_en), ...words(r.meaning_ko)].some((w) => w.startsWith("face"))).toBe(true);
  });
});

describe("q: Hangul", () => {
  test("수: every record whose readings contain 수, then gloss or 훈 matches, by tie-break; paging over all of them", async () => {
    const { byReading, byGloss, all } = hangulExpectation("수");
    expect(byReading.length).toBeGreaterThan(50);
    // 林 (수풀 림), 漢 (한수 한), 車 (수레 거) match by gloss or 훈 only: they count, after the readings.
    expect(chars(byGloss)).toEqual(expect.arrayContaining(["林", "漢", "車"]));
    const items = await everything({ q: "수" });
    expect(chars(items)).toEqual(chars(all));
    const first = await search({ q: "수" });
    expect(first.total).toBe(
      fileRecords().filter((r) => r.readings.includes("수") || (r.meaning_ko ?? "").includes("수") || r.hunum.some((h) => h.hun.includes("수"))).length,
    );
  });

  test("tie-break on a reading search: education first, then starters, then name hanja, then fewer strokes, then code point", async () => {
    const items = await everything({ q: "수" });
    const readingMatches = items.filter((r) => r.readings.includes("수"));
    // The relation holds pairwise along the list, and the list exercises every level of it.
    for (let i = 1; i < readingMatches.length; i++) expect(tieBreak(readingMatches[i - 1]!, readingMatches[i]!)).toBeLessThan(0);
    const firstNonEducation = readingMatches.findIndex((r) => !r.education_hanja);
    expect(firstNonEducation).toBeGreaterThan(0);
    expect(readingMatches.slice(firstNonEducation).every((r) => !r.education_hanja)).toBe(true);
    const education = readingMatches.slice(0, firstNonEducation);
    expect(education.some((r) => r.starter) && education.some((r) => !r.starter)).toBe(true);
    expect(chars(readingMatches.slice(0, 2))).toEqual(["手", "水"]); // both starters, 4 strokes: code point decides
  });

  test("tie-break past the education hanja: name hanja before the rest, even when the rest has fewer strokes (기)", async () => {
    const items = await everything({ q: "기" });
    const others = items.filter((r) => r.readings.includes("기") && !r.education_hanja);
    const firstOther = others.findIndex((r) => !r.name_hanja);
    expect(firstOther).toBeGreaterThan(0);
    expect(others.slice(firstOther).every((r) => !r.name_hanja)).toBe(true);
    expect(Math.min(...others.slice(firstOther).map((r) => r.strokes))).toBeLessThan(Math.max(...others.slice(0, firstOther).map((r) => r.strokes)));
    for (let i = 1; i < others.length; i++) expect(tieBreak(others[i - 1]!, others[i]!)).toBeLessThan(0);
  });

  test("물: reading matches, then 훈 matches (水 is 물 수), education hanja before the others, then gloss or 훈 containing 물", async () => {
    const { byReading, byHun, byGloss, all } = hangulExpectation("물");
    expect(byReading.length).toBeGreaterThan(0);
    expect(chars(byHun)).toContain("水");
    expect(byGloss.length).toBeGreaterThan(0);
    const items = await everything({ q: "물" });
    expect(chars(items)).toEqual(chars(all));
    const education = (group: HanjaRecord[]) => chars(group.filter((r) => r.education_hanja));
    expect(chars(items).indexOf("水")).toBe(education(byReading).length + education(byHun).indexOf("水"));
    expect(chars(items).slice(0, 3)).toEqual(["勿", "物", "水"]);
  });

  test("하늘: a 훈 match finds 天", async () => {
    const { byHun, all } = hangulExpectation("하늘");
    expect(chars(byHun)).toContain("天");
    const body = await search({ q: "하늘" });
    expect(body.total).toBe(all.length);
    expect(chars(body.data)).toEqual(chars(all).slice(0, 24));
  });

  test("a reading that no record has → 200 empty", async () => {
    expect(await search({ q: "뷁" })).toMatchObject({ data: [], total: 0, pages: 0 });
  });

  test.each<Filters>([{ strokes: 4 }, { radical_number: 85 }, { starter: 1 }, { education: 1 }, { education: 0, strokes: 12 }])(
    "수 with %o",
    async (filters) => {
      const items = await everything({ q: "수", ...filters });
      expect(chars(items)).toEqual(chars(hangulExpectation("수", filters).all));
      expect(items.length).toBeGreaterThan(0);
    },
  );
});

describe("q: English full text", () => {
  test("water ranks 水 first", async () => {
    expect((await search({ q: "water" })).data[0]?.character).toBe("水");
  });

  test("word prefix: wat finds exactly the records with a word starting with wat (水 among them)", async () => {
    const expected = fileRecords().filter((r) => [...words(r.definition_en), ...words(r.meaning_ko)].some((w) => w.startsWith("wat")));
    const items = await everything({ q: "wat" });
    expect(new Set(chars(items))).toEqual(new Set(chars(expected)));
    expect(items).toHaveLength(expected.length);
    expect(chars(items)).toContain("水");
  });

  test("case does not matter", async () => {
    expect(chars(await everything({ q: "WATER" }))).toEqual(chars(await everything({ q: "water" })));
  });

  test("several words are AND-ed", async () => {
    const expected = fileRecords().filter((r) => {
      const w = [...words(r.definition_en), ...words(r.meaning_ko)];
      return w.some((x) => x.startsWith("hot")) && w.some((x) => x.startsWith("water"));
    });
    expect(expected.length).toBeGreaterThan(0);
    const items = await everything({ q: "hot water" });
    expect(new Set(chars(items))).toEqual(new Set(chars(expected)));
    expect(chars(items)).toContain("湯");
  });

  test("a word of one letter matches whole words only (as a prefix it would match most of the index); two letters are a prefix", async () => {
    const whole = fileRecords().filter((r) => [...words(r.definition_en), ...words(r.meaning_ko)].includes("a"));
    expect(whole.length).toBeGreaterThan(0);
    expect(new Set(chars(await everything({ q: "a" })))).toEqual(new Set(chars(whole)));
    const prefix = fileRecords().filter((r) => [...words(r.definition_en), ...words(r.meaning_ko)].some((w) => w.startsWith("wa")));
    expect(new Set(chars(await everything({ q: "wa" })))).toEqual(new Set(chars(prefix)));
  });

  test("a repeated word counts once: forty one-letter words answer as their distinct words, in the same order", async () => {
    expect(chars(await everything({ q: "water Water WATER water" }))).toEqual(chars(await everything({ q: "water" })));
    const many = await search({ q: Array(40).fill("a").join(" "), per_page: 50 });
    const one = await search({ q: "a", per_page: 50 });
    expect(one.total).toBeGreaterThan(50);
    expect(many.total).toBe(one.total);
    expect(chars(many.data)).toEqual(chars(one.data));
  });

  test("typo tolerance: wter (no exact match) finds 水", async () => {
    const exact = fileRecords().filter((r) => [...words(r.definition_en), ...words(r.meaning_ko)].some((w) => w.startsWith("wter")));
    expect(exact).toEqual([]);
    const items = await everything({ q: "wter" });
    expect(chars(items)).toContain("水");
  });

  test("filters narrow the query's matches: never typo matches instead when none of them passes the filter", async () => {
    for (const [q, filters] of [
      ["horse", { starter: 1 }],
      ["hand", { radical_number: 85 }],
      ["tree", { strokes: 3 }],
      ["fire", { radical_number: 85 }],
      ["hand", { radical_number: 85, strokes: 7, education: 1 }],
    ] as const) {
      const all = new Set(chars(await everything({ q })));
      expect(all.size, q).toBeGreaterThan(0);
      const filtered = await everything({ q, ...filters });
      // Everything returned with a filter is among the query's own matches, and passes the filter.
      for (const r of filtered) {
        expect(all.has(r.character), `${q} ${JSON.stringify(filters)}: ${r.character}`).toBe(true);
        if ("radical_number" in filters) expect(r.radical_number).toBe(filters.radical_number);
      }
      // These filters leave none of the query's matches.
      expect(chars(filtered), `${q} ${JSON.stringify(filters)}`).toEqual(chars((await everything({ q })).filter((r) => keepsAll(r, filters))));
    }
    expect(chars(await everything({ q: "horse", starter: 1 }))).not.toContain("家");
    // The typo pass still runs when nothing in the dataset matches exactly, and is filtered like any match.
    expect(chars(await everything({ q: "wter", radical_number: 85 }))).toContain("水");
  });

  test("equal relevance falls back to the tie-break (records sharing one definition)", async () => {
    // Records with the same definition and no gloss score the same, apart from the education boost,
    // so among them the order must be the tie-break order.
    const groups = new Map<string, HanjaRecord[]>();
    for (const r of fileRecords()) {
      if (r.definition_en === null || r.meaning_ko !== null || [...r.definition_en].length > 80) continue;
      groups.set(r.definition_en, [...(groups.get(r.definition_en) ?? []), r]);
    }
    const tested = [...groups.entries()]
      .filter(([, group]) => group.length >= 3 && new Set(group.map((r) => r.strokes)).size > 1)
      .sort((a, b) => b[1].length - a[1].length)
      .slice(0, 5);
    expect(tested.length).toBeGreaterThan(0);
    for (const [definition, group] of tested) {
      const members = new Set(chars(group));
      const items = (await everything({ q: definition })).filter((r) => members.has(r.character));
      expect(chars(items)).toEqual(chars([...group].sort(tieBreak)));
    }
  });

  test.each<Filters>([{ education: 1 }, { starter: 1 }, { strokes: 4 }, { radical_number: 85 }, { education: 0, radical_number: 85 }])(
    "water with %o = the unfiltered results that pass, same order",
    async (filters) => {
      const all = await everything({ q: "water" });
      const expected = all.filter((r) => passes(r, filters));
      const items = await everything({ q: "water", ...filters });
      expect(chars(items)).toEqual(chars(expected));
      for (const r of items) expect(r).toEqual(recordOf(r.character));
    },
  );

  test("text that matches nothing → 200 empty envelope", async () => {
    expect(await search({ q: "qqqqzzzzxxxx" })).toEqual({ data: [], total: 0, page: 1, per_page: 24, pages: 0, source: SOURCE });
  });
});

describe("q length, counted in code points after trimming", () => {
  test("80 code points are accepted: BMP, astral (160 UTF-16 units) and mixed", async () => {
    const astral = "𮕩".repeat(80);
    expect(astral.length).toBe(160);
    for (const q of ["水".repeat(80), astral, "a".repeat(40) + "𮕩".repeat(40), `   ${astral}   `]) {
      const { status, body } = await getJson<Envelope<HanjaRecord>>(app, `${BASE}/hanja${qs({ q })}`);
      expect(status).toBe(200);
      expectEnvelope(body, 1, 24);
    }
  });
});
