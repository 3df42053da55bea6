/**
 * `GET /idioms` and `GET /meta` of interface A (docs/rules.md "Interface A"). Idiom queries are built from whatever
 * idioms are loaded (`app.data`), so these tests hold for the sample and the full 910 rows alike.
 */
import { describe, expect, test } from "vitest";
import type { IdiomRecord } from "../../runtime/format/records.ts";
import { call, distFiles, getJson, testApp } from "../helpers/app.ts";
import { BASE, type Envelope, IDIOMS_SOURCE, SOURCE, allPages, expectEnvelope, fileRecords, idiomItem, idiomsInOrder, initials, qs } from "./hanja-expect.ts";
import { CHARACTERS, EDUCATION_HANJA, PIN } from "../helpers/pin.ts";

const app = testApp();
const idioms = idiomsInOrder(app);
type Item = ReturnType<typeof idiomItem>;

async function everything(q: string): Promise<Item[]> {
  return (await allPages<Item>(app, `${BASE}/idioms${qs({ q })}`)).items;
}

const idxs = (items: { idx: string | number }[]) => items.map((i) => String(i.idx));
const item = (idiom: IdiomRecord) => idiomItem(idiom);

/** An idiom picked by position in idx order, spread over the loaded set. */
function pick(fraction: number): IdiomRecord {
  return idioms[Math.min(idioms.length - 1, Math.floor(idioms.length * fraction))]!;
}

describe("the loaded idioms", () => {
  test("idx order, unique idx, four hanja and four hangul, chosung from the hangul", () => {
    expect(idioms.length).toBeGreaterThan(0);
    expect(new Set(idioms.map((i) => i.idx)).size).toBe(idioms.length);
    for (const idiom of idioms) {
      expect([...idiom.hanja]).toHaveLength(4);
      expect([...idiom.hangul]).toHaveLength(4);
      expect(idiom.chosung).toBe(initials(idiom.hangul));
    }
  });
});

describe("empty q", () => {
  test("every idiom in idx order, items with idx as a string and chosung", async () => {
    const items = await everything("");
    expect(items).toEqual(idioms.map(item));
    for (const i of items) {
      expect(Object.keys(i).sort()).toEqual(["chosung", "hangul", "hanja", "idx", "literal", "meaning", "meaning_en"]);
      expect(typeof i.idx).toBe("string");
    }
  });

  test("defaults and paging arithmetic", async () => {
    const { status, body } = await getJson<Envelope<Item>>(app, `${BASE}/idioms`);
    expect(status).toBe(200);
    expectEnvelope(body, 1, 24, IDIOMS_SOURCE);
    expect(body.total).toBe(idioms.length);
    expect(body.source).toBe(IDIOMS_SOURCE);
    expect(body.data).toEqual(idioms.slice(0, 24).map(item));

    const perPage = 7;
    const pages = Math.ceil(idioms.length / perPage);
    const last = await getJson<Envelope<Item>>(app, `${BASE}/idioms?per_page=${perPage}&page=${pages}`);
    expectEnvelope(last.body, pages, perPage, IDIOMS_SOURCE);
    expect(last.body.data).toEqual(idioms.slice((pages - 1) * perPage).map(item));

    const past = await getJson<Envelope<Item>>(app, `${BASE}/idioms?per_page=${perPage}&page=${pages + 1}`);
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ data: [], total: idioms.length, page: pages + 1, per_page: perPage, pages, source: IDIOMS_SOURCE });
  });

  test("page 2 continues page 1", async () => {
    const one = await getJson<Envelope<Item>>(app, `${BASE}/idioms?per_page=3&page=1`);
    const two = await getJson<Envelope<Item>>(app, `${BASE}/idioms?per_page=3&page=2`);
    expect(idxs([...one.body.data, ...two.body.data])).toEqual(idxs(idioms.slice(0, 6)));
  });
});

describe("q", () => {
  test("a whole hanja idiom → that idiom first", async () => {
    const idiom = pick(0.5);
    const items = await everything(idiom.hanja);
    expect(items[0]).toEqual(item(idiom));
  });

  test("a whole hangul idiom → that idiom first", async () => {
    const idiom = pick(0.3);
    const items = await everything(idiom.hangul);
    expect(items[0]).toEqual(item(idiom));
  });

  /** Substring matches first (as a set), then only idioms whose meaning holds the query. */
  function expectSubstringResults(items: Item[], q: string): void {
    const bySubstring = idioms.filter((i) => i.hangul.includes(q) || i.hanja.includes(q));
    expect(bySubstring.length).toBeGreaterThan(0);
    expect(new Set(idxs(items.slice(0, bySubstring.length)))).toEqual(new Set(idxs(bySubstring)));
    for (const other of items.slice(bySubstring.length)) expect(other.meaning).toContain(q);
  }

  test("hanja substring: every idiom containing it comes first; anything after only by meaning", async () => {
    for (const idiom of [pick(0), pick(0.4), pick(0.99)]) {
      const sub = idiom.hanja.slice(1, 3);
      const items = await everything(sub);
      expectSubstringResults(items, sub);
      expect(idxs(items)).toContain(String(idiom.idx));
    }
  });

  test("a single hanja: every idiom containing it", async () => {
    const character = [...pick(0.6).hanja][2]!;
    expectSubstringResults(await everything(character), character);
  });

  test("hangul substring: every idiom containing it comes first; anything after only by meaning", async () => {
    for (const idiom of [pick(0.1), pick(0.7)]) {
      const sub = idiom.hangul.slice(1, 3);
      const items = await everything(sub);
      expectSubstringResults(items, sub);
      expect(idxs(items)).toContain(String(idiom.idx));
    }
  });

  test("chosung prefix: exactly the idioms whose chosung starts with it, then those containing it, idx order within each", async () => {
    const idiom = pick(0.2);
    const q = idiom.chosung.slice(0, 2);
    const starts = idioms.filter((i) => i.chosung.startsWith(q));
    const contains = idioms.filter((i) => !i.chosung.startsWith(q) && i.chosung.includes(q));
    const items = await everything(q);
    expect(items).toEqual([...starts, ...contains].map(item));
    expect(idxs(items)).toContain(String(idiom.idx));
  });

  test("whole chosung → that idiom", async () => {
    const idiom = pick(0.8);
    const items = await everything(idiom.chosung);
    expect(items).toEqual(idioms.filter((i) => i.chosung === idiom.chosung).map(item));
  });

  test("chosung substring (not a prefix) → the idioms containing it", async () => {
    const idiom = pick(0.9);
    const q = idiom.chosung.slice(1, 4);
    const expected = idioms.filter((i) => i.chosung.includes(q));
    const items = await everything(q);
    expect(new Set(idxs(items))).toEqual(new Set(idxs(expected)));
    expect(idxs(items)).toContain(String(idiom.idx));
  });

  test("chosung that no idiom has → 200 empty", async () => {
    const q = "ㅃㅃㅃㅃ";
    expect(idioms.some((i) => i.chosung.includes(q))).toBe(false);
    const { status, body } = await getJson<Envelope<Item>>(app, `${BASE}/idioms${qs({ q })}`);
    expect(status).toBe(200);
    expect(body).toEqual({ data: [], total: 0, page: 1, per_page: 24, pages: 0, source: IDIOMS_SOURCE });
  });

  test("meaning full text: a word of a loaded meaning finds that idiom; every hit contains the word", async () => {
    for (const idiom of [pick(0.15), pick(0.55), pick(0.85)]) {
      const word = idiom.meaning.split(/\s+/).find((w) => /^[가-힣]{2,}$/.test(w) && w !== idiom.hangul)!;
      expect(word).toBeDefined();
      const items = await everything(word);
      expect(idxs(items)).toContain(String(idiom.idx));
      for (const i of items) expect(`${i.meaning} ${i.hangul} ${i.hanja}`).toContain(word);
      // A word prefix finds it too.
      const prefix = word.slice(0, 2);
      expect(idxs(await everything(prefix))).toContain(String(idiom.idx));
    }
  });

  test("q is trimmed", async () => {
    const idiom = pick(0.5);
    expect(await everything(`  ${idiom.hanja}  `)).toEqual(await everything(idiom.hanja));
  });

  test("nothing matches → 200 empty", async () => {
    const { status, body } = await getJson<Envelope<Item>>(app, `${BASE}/idioms${qs({ q: "zzqqxx" })}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ data: [], total: 0, pages: 0 });
  });

  test("every item of every search is the loaded idiom, idx as a string", async () => {
    const byIdx = new Map(idioms.map((i) => [String(i.idx), item(i)]));
    for (const q of [pick(0.5).hanja.slice(0, 1), pick(0.5).hangul.slice(0, 1), pick(0.5).chosung.slice(0, 1)]) {
      for (const i of await everything(q)) expect(i).toEqual(byIdx.get(i.idx));
    }
  });
});

describe("GET /meta", () => {
  test("counts measured from the data, versions, licences", async () => {
    const { status, body, headers } = await getJson(app, `${BASE}/meta`);
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe("application/json; charset=utf-8");
    const records = fileRecords();
    expect(body.counts).toMatchObject({
      characters: CHARACTERS,
      starters: 128,
      education_hanja: EDUCATION_HANJA,
      idioms: app.data.idioms.idioms.length,
    });
    expect(body.counts.characters).toBe(records.length);
    expect(body.counts.starters).toBe(records.filter((r) => r.starter).length);
    expect(body.counts.education_hanja).toBe(records.filter((r) => r.education_hanja).length);
    expect(body.api_version).toBe("1.0.0");
    expect(body.data.unihan_version).toBe(PIN.version);
    expect(body.data.source).toBe(SOURCE);
    expect(typeof body.data.built_at).toBe("string");
    expect(body.licenses.unihan.url).toBe("https://www.unicode.org/license.txt");
    expect(body.licenses.idioms.url).toBe(`${BASE}/terms`);
  });

  test("the idiom terms are served at the URL /meta gives", async () => {
    const { body } = await getJson(app, `${BASE}/meta`);
    const response = await call(app, body.licenses.idioms.url as string);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/markdown; charset=utf-8/);
    const text = await response.text();
    expect(text).toBe(distFiles()["terms.md"]);
    expect(text.length).toBeGreaterThan(100);
  });
});
