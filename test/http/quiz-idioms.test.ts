/** GET /idiom, GET /idiom/{idx} and GET /search (docs/rules.md "Interface B"): raw idiom records, bounds, errors. */
import { describe, expect, it } from "vitest";
import type { IdiomRecord } from "../../runtime/format/records.ts";
import { getJson, testApp } from "../helpers/app.ts";
import { Q, expectProblem, ipFor, me } from "./quiz-helpers.ts";
import { englishOf } from "./hanja-expect.ts";

const app = testApp();
const idioms = app.data.idioms.idioms;
const byIdx = new Map(idioms.map((i) => [i.idx, i]));
let calls = 0;
const get = (path: string) => getJson(app, `${Q}${path}`, { clientAddress: ipFor(++calls) });

/** A raw record (docs/rules.md "Records"): the five fields plus `literal` and `meaning_en`, equal to the loaded idiom. */
function expectRaw(item: any): IdiomRecord {
  expect(Object.keys(item).sort()).toEqual(["chosung", "hangul", "hanja", "idx", "literal", "meaning", "meaning_en"]);
  expect(typeof item.idx).toBe("number");
  const loaded = byIdx.get(item.idx) as IdiomRecord;
  expect(loaded).toBeDefined();
  expect(item).toEqual({
    idx: loaded.idx,
    hanja: loaded.hanja,
    hangul: loaded.hangul,
    chosung: loaded.chosung,
    literal: loaded.literal,
    meaning: loaded.meaning,
    meaning_en: englishOf(loaded.idx),
  });
  return loaded;
}

/** Expects a 400 naming `param` that left the caller's count where it was. */
async function expectUnmetered400(path: string, param: string): Promise<void> {
  const ip = ipFor(50_000 + ++calls);
  expectProblem(await getJson(app, `${Q}${path}`, { clientAddress: ip }), 400, "invalid_parameter", param);
  expect((await me(app, { clientAddress: ip })).used_today).toBe(0);
}

describe("GET /idiom", () => {
  it("gives one raw idiom by default", async () => {
    const { status, body } = await get("/idiom");
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["idioms", "quota", "success"]);
    expect(body.success).toBe(true);
    expect(body.quota).toEqual({ plan: "demo", remaining: 29 });
    expect(body.idioms).toHaveLength(1);
    expectRaw(body.idioms[0]);
  });

  it("count=1 and count=50 give distinct idioms", async () => {
    expect((await get("/idiom?count=1")).body.idioms).toHaveLength(1);
    for (let n = 0; n < 5; n++) {
      const { status, body } = await get("/idiom?count=50");
      expect(status).toBe(200);
      expect(body.idioms).toHaveLength(Math.min(50, idioms.length));
      const seen = body.idioms.map((i: any) => expectRaw(i).idx);
      expect(new Set(seen).size).toBe(seen.length);
    }
  });

  it("is random: many calls see many idioms", async () => {
    const seen = new Set<number>();
    for (let n = 0; n < 200; n++) seen.add((await get("/idiom")).body.idioms[0].idx);
    expect(seen.size).toBeGreaterThan(Math.min(idioms.length, 200) / 3);
  });

  for (const bad of ["0", "51", "-1", "abc", "1.5", ""]) {
    it(`count=${bad} → 400 naming count, not metered`, () => expectUnmetered400(`/idiom?count=${bad}`, "count"));
  }
  it("count given twice → 400", () => expectUnmetered400("/idiom?count=1&count=1", "count"));
});

describe("GET /idiom/{idx}", () => {
  it("gives that idiom, for the first, the last and some in between", async () => {
    const picks = [idioms[0], idioms[Math.floor(idioms.length / 2)], idioms.at(-1)] as IdiomRecord[];
    for (const idiom of picks) {
      const { status, body } = await get(`/idiom/${idiom.idx}`);
      expect(status).toBe(200);
      expect(Object.keys(body).sort()).toEqual(["idiom", "quota", "success"]);
      expect(expectRaw(body.idiom)).toBe(idiom);
      expect(body.quota).toEqual({ plan: "demo", remaining: 29 });
    }
  });

  // An empty idx is no longer one: `/idiom/` is `/idiom` under the trailing-slash rule (test/http/trailingSlash.test.ts).
  for (const bad of ["0", "00", "-1", "1.5", "abc", "1e3", "%20", "%2B1", "0x1"]) {
    it(`idx ${JSON.stringify(bad)} → 400 naming idx, not metered`, () => expectUnmetered400(`/idiom/${bad}`, "idx"));
  }

  it("an unknown idx → 404 naming idx, metered (with the rate-limit headers)", async () => {
    const ip = ipFor(40_000);
    const missing = Math.max(99_999, ...idioms.map((i) => i.idx + 1));
    const result = await getJson(app, `${Q}/idiom/${missing}`, { clientAddress: ip });
    expectProblem(result, 404, "not_found", "idx");
    expect(result.headers.get("x-ratelimit-remaining")).toBe("29");
    expect(result.headers.get("ratelimit-policy")).toBe('"daily";q=30;w=86400');
    expect((await me(app, { clientAddress: ip })).used_today).toBe(1);
  });

  it("any positive whole number is an idx (docs/rules.md, Interface B): past every bound it is 404, not 400", async () => {
    for (const missing of ["1000000", "9007199254740993", "99999999999999999999"]) {
      const result = await getJson(app, `${Q}/idiom/${missing}`, { clientAddress: ipFor(40_001) });
      expectProblem(result, 404, "not_found", "idx");
      expect(result.body.detail).toContain(`idx ${missing} `);
    }
    // Leading zeros are still digits: 007 is idiom 7.
    const seven = await get("/idiom/007");
    expect(seven.status).toBe(200);
    expect(seven.body.idiom.idx).toBe(7);
  });
});

describe("GET /search", () => {
  /** The searched items, checked as raw records and against the envelope. */
  async function search(q: string): Promise<IdiomRecord[]> {
    const { status, body } = await get(`/search?q=${encodeURIComponent(q)}`);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["count", "idioms", "query", "quota", "success", "total"]);
    expect(body.query).toBe(q.trim());
    expect(body.count).toBe(body.idioms.length);
    expect(body.idioms.length).toBeLessThanOrEqual(30);
    return body.idioms.map(expectRaw);
  }

  it("finds an idiom by its hanja (exact first) and by part of it", async () => {
    for (const idiom of [idioms[0], idioms.at(-1)] as IdiomRecord[]) {
      expect((await search(idiom.hanja))[0]).toBe(idiom);
      const part = [...idiom.hanja].slice(1, 3).join("");
      const found = await search(part);
      expect(found).toContain(idiom);
      for (const i of found.filter((f) => f.hanja.includes(part))) expect(i.hanja).toContain(part);
    }
  });

  it("finds an idiom by its hangul (exact first) and by part of it", async () => {
    for (const idiom of [idioms[1], idioms.at(-2)] as IdiomRecord[]) {
      expect((await search(idiom.hangul))[0]).toBe(idiom);
      expect((await search(` ${idiom.hangul} `))[0]).toBe(idiom);
      expect(await search([...idiom.hangul].slice(1).join(""))).toContain(idiom);
    }
  });

  it("finds idioms by initial consonants: exactly those whose chosung holds the query, prefixes first", async () => {
    for (const q of [(idioms[2] as IdiomRecord).chosung, (idioms[2] as IdiomRecord).chosung.slice(1, 3), "ㄱ"]) {
      const prefix = idioms.filter((i) => i.chosung.startsWith(q));
      const inner = idioms.filter((i) => !i.chosung.startsWith(q) && i.chosung.includes(q));
      expect(await search(q)).toEqual([...prefix, ...inner].slice(0, 30));
    }
  });

  it("finds an idiom by a word of its meaning", async () => {
    // For a few idioms, the rarest word (3+ characters) of the meaning.
    for (const idiom of [idioms[0], idioms[Math.floor(idioms.length / 3)], idioms.at(-1)] as IdiomRecord[]) {
      const words = idiom.meaning.split(/[\s,.]+/).filter((w) => [...w].length >= 3);
      const rarity = (w: string) => idioms.filter((i) => i.meaning.includes(w)).length;
      const word = words.sort((x, y) => rarity(x) - rarity(y))[0] as string;
      const found = await search(word);
      expect(found, `searching ${word}`).toContain(idiom);
    }
  });

  it("returns at most 30 items, count = their number, total = every match (interface A's total for the same q)", async () => {
    for (const q of ["ㄱ", "ㄱㄱ", (idioms[5] as IdiomRecord).hanja]) {
      const expected = idioms.filter((i) => i.chosung.includes(q) || i.hanja.includes(q)).length;
      const { body } = await get(`/search?q=${encodeURIComponent(q)}`);
      expect(body.count, q).toBe(Math.min(30, expected));
      expect(body.total, q).toBe(expected);
      const a = await getJson(app, `/hanja/v1/idioms?q=${encodeURIComponent(q)}`);
      expect(a.body.total, q).toBe(expected);
    }
    expect((await get(`/search?q=${encodeURIComponent("ㄱ")}`)).body.total).toBeGreaterThan(30);
  });

  it("a valid query without a match → 200, empty", async () => {
    const { status, body } = await get(`/search?q=${encodeURIComponent("zzqxj")}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, query: "zzqxj", count: 0, total: 0, idioms: [] });
  });

  it("80 code points are accepted (astral ones count once); 81 → 400", async () => {
    for (const ch of ["가", "x", "𠀀"]) {
      expect((await get(`/search?q=${encodeURIComponent(ch.repeat(80))}`)).status).toBe(200);
      await expectUnmetered400(`/search?q=${encodeURIComponent(ch.repeat(81))}`, "q");
    }
  });

  for (const [label, query] of [
    ["missing", ""],
    ["empty", "?q="],
    ["blank", "?q=%20%20%09"],
    ["given twice", "?q=a&q=b"],
  ] as const) {
    it(`q ${label} → 400 naming q, not metered`, () => expectUnmetered400(`/search${query}`, "q"));
  }
});
