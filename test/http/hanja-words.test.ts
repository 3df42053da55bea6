/**
 * `GET /hanja/v1/words` and the detail's `words` (docs/rules.md "Words"): `q` exact → prefix →
 * containing by hanja or hangul, `char` in the listed order, the standard reading first, idioms
 * linked, paging as `/hanja`, and a 400 naming the parameter for anything else.
 */
import { describe, expect, test } from "vitest";
import { wordIndex } from "../../runtime/core/words/wordIndex.ts";
import { decodeWords } from "../../runtime/format/wordsDecode.ts";
import { DIST_FILES, FLAG_EDUCATION, type Tables } from "../../runtime/format/dist.ts";
import { HUNUM_SOURCE, type WordItem } from "../../runtime/format/records.ts";
import { call, distText, getJson, testApp } from "../helpers/app.ts";
import { BASE, expectProblem, idiomsInOrder } from "./hanja-expect.ts";

const app = testApp();
const tables = JSON.parse(distText(DIST_FILES.tables)) as Tables;
const education = new Set(tables.characters.filter((_, i) => ((tables.flags[i] ?? 0) & FLAG_EDUCATION) !== 0));
const index = wordIndex(distText(DIST_FILES.words), (codePoint) => education.has(String.fromCodePoint(codePoint)));

interface WordPage {
  data: WordItem[];
  total: number;
  page: number;
  per_page: number;
  pages: number;
  source: string;
}

async function words(query: string): Promise<WordPage> {
  const { status, body } = await getJson<WordPage>(app, `${BASE}/words?${query}`);
  expect(status).toBe(200);
  return body;
}

const hanjaOf = (page: WordPage) => page.data.map((w) => w.hanja);

describe("GET /words?char=", () => {
  test("lists every word holding the character in the listed order, in the list envelope", async () => {
    const page = await words(`char=${encodeURIComponent("水")}&per_page=50&page=2`);
    const all = index.ofCharacter("水");
    expect(page).toMatchObject({ total: all.length, page: 2, per_page: 50, pages: Math.ceil(all.length / 50), source: HUNUM_SOURCE });
    expect(hanjaOf(page)).toEqual(all.slice(50, 100).map((p) => index.word(p).hanja));
    expect(page.data.every((w) => w.hanja.includes("水"))).toBe(true);
  });

  test("the order a learner meets words in: the character's core words, other core words, then shorter words first, place names last", async () => {
    expect(hanjaOf(await words(`char=${encodeURIComponent("水")}&per_page=5`))).toEqual(["水道", "水泳", "水準", "水曜日", "生水"]);
    const listed = index.ofCharacter("洞").map((p) => index.word(p));
    const firstPlace = listed.findIndex((w) => w.note === "지명");
    expect(firstPlace).toBeGreaterThan(0);
    expect(listed.slice(firstPlace).every((w) => w.note === "지명")).toBe(true);
    // The core words (洞's own, then other characters' holding 洞) first, then shorter words first.
    const core = new Set([...decodeWords(distText(DIST_FILES.words)).core.values()].flat());
    const firstOther = listed.findIndex((w) => !core.has(w.hanja));
    expect(listed.slice(0, 5).map((w) => w.hanja)).toEqual(["洞窟", "洞察", "洞長", "洞里", "空洞"]);
    expect(listed.slice(firstOther).filter((w) => core.has(w.hanja))).toEqual([]);
    const lengths = listed.slice(firstOther, firstPlace).map((w) => [...w.hanja].length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
  });

  test('a learner\'s words first (docs/rules.md "Words"): 學 → 學生 and 學校 in the first five, 車 → 自動車 before 動車', async () => {
    const first = hanjaOf(await words(`char=${encodeURIComponent("學")}&per_page=5`));
    expect(first).toContain("學生");
    expect(first).toContain("學校");
    const car = index.ofCharacter("車").map((p) => index.word(p).hanja);
    expect(hanjaOf(await words(`char=${encodeURIComponent("車")}&per_page=50`))).toEqual(car.slice(0, 50));
    expect(car.indexOf("自動車")).toBeGreaterThanOrEqual(0);
    expect(car.indexOf("自動車")).toBeLessThan(car.indexOf("動車"));
  });

  test("a Han character outside the dataset, or a character that is not Han, holds no word", async () => {
    const outside = String.fromCodePoint(
      [...Array(0x100).keys()].map((i) => 0x4e00 + i).find((c) => !tables.characters.includes(String.fromCodePoint(c))) as number,
    );
    expect(await words(`char=${encodeURIComponent(outside)}`)).toMatchObject({ data: [], total: 0, pages: 0 });
    expect(await words(`char=${encodeURIComponent("수")}`)).toMatchObject({ data: [], total: 0, pages: 0 });
  });

  test("neither q nor char: every word, in the listed order", async () => {
    const page = await words("per_page=3");
    expect(page.total).toBe(index.count);
    expect(hanjaOf(page)).toEqual([0, 1, 2].map((p) => index.word(p).hanja));
  });
});

describe("GET /words?q=", () => {
  test("hanja: the word itself, then words starting with it, then words containing it", async () => {
    const found = hanjaOf(await words(`q=${encodeURIComponent("水道")}&per_page=50`));
    expect(found[0]).toBe("水道");
    const firstContaining = found.findIndex((h) => !h.startsWith("水道"));
    expect(found.slice(1, firstContaining).every((h) => h.startsWith("水道"))).toBe(true);
    expect(found.slice(firstContaining)).toContain("下水道");
    expect(found.slice(firstContaining).every((h) => !h.startsWith("水道") && h.includes("水道"))).toBe(true);
  });

  test("hangul matches every reading, and a word shows the South Korean standard reading first (歷史, 比率)", async () => {
    const history = await words(`q=${encodeURIComponent("역사")}&per_page=1`);
    expect(history.data[0]).toEqual({
      hanja: "歷史",
      readings: ["역사", "력사"],
      note: null,
      idiom_idx: null,
      meaning_en: expect.stringMatching(/^history \(the process/),
    });
    expect(hanjaOf(await words(`q=${encodeURIComponent("력사")}`))).toContain("歷史");
    expect((await words(`q=${encodeURIComponent("비율")}&per_page=1`)).data[0]).toMatchObject({ hanja: "比率", readings: ["비율", "비률"] });
  });

  test("an idiom among the words links to its idx", async () => {
    const idiom = idiomsInOrder(app).find((i) => index.positionOf(i.hanja) !== -1);
    if (idiom === undefined) throw new Error("test data: no idiom is a dictionary word");
    const page = await words(`q=${encodeURIComponent(idiom.hanja)}&per_page=1`);
    expect(page.data[0]).toMatchObject({ hanja: idiom.hanja, idiom_idx: String(idiom.idx) });
    const { body } = await getJson(app, `${BASE}/idioms?q=${encodeURIComponent(idiom.hanja)}`);
    expect(body.data[0].idx).toBe(page.data[0]?.idiom_idx);
  });

  test("a search without match, or a page past the end, is an empty page", async () => {
    expect(await words(`q=${encodeURIComponent("뷁뷁")}`)).toMatchObject({ data: [], total: 0, pages: 0 });
    expect(await words(`q=${encodeURIComponent("水道")}&page=10000`)).toMatchObject({ data: [], total: 33, page: 10000 });
  });
});

describe("GET /words: a 400 naming the parameter", () => {
  test.each([
    [`q=${encodeURIComponent("水")}&char=${encodeURIComponent("水")}`, "char"],
    ["q=water", "q"],
    [`q=${encodeURIComponent("水 道")}`, "q"],
    [`q=${encodeURIComponent("水도")}`, "q"],
    [`q=${encodeURIComponent("水".repeat(41))}`, "q"],
    [`q=${encodeURIComponent("水")}&q=${encodeURIComponent("道")}`, "q"],
    [`char=${encodeURIComponent("水道")}`, "char"],
    ["char=%E6%B0", "char"],
    [`char=${encodeURIComponent("水")}&per_page=51`, "per_page"],
    [`char=${encodeURIComponent("水")}&page=0`, "page"],
  ])("?%s → param %s", async (query, param) => {
    await expectProblem(await call(app, `${BASE}/words?${query}`), 400, "invalid_parameter", param);
  });
});

describe("the detail's words", () => {
  test.each(["水", "學", "歷", "率"])("%s: the first three words of /words?char= and their count", async (character) => {
    const { body } = await getJson(app, `${BASE}/hanja/${encodeURIComponent(character)}`);
    const list = await words(`char=${encodeURIComponent(character)}&per_page=3`);
    // The same words; /words adds their English meaning (`meaning_en`), which the detail's bytes leave out.
    expect(body.words).toEqual(list.data.map(({ meaning_en: _, ...word }: { meaning_en?: string | null }) => word));
    expect(body.word_count).toBe(list.total);
    expect(body.word_count).toBeGreaterThan(3);
  });

  test("a character in no word has none", async () => {
    const lonely = tables.characters.find((c) => index.ofCharacter(c).length === 0) as string;
    const { body } = await getJson(app, `${BASE}/hanja/${encodeURIComponent(lonely)}`);
    expect(body).toMatchObject({ words: [], word_count: 0 });
  });
});
