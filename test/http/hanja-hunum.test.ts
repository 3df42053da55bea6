/**
 * `hunum` (docs/rules.md "훈음"): the 훈음 of libhangul's hanja dictionary on the records and the
 * detail, its counts and licence in `/meta`, its notice in the served terms, and search by 훈
 * (docs/rules.md "Interface A"), each checked against what the test reads itself from the records
 * or the dictionary file.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { HUNUM_LICENSE_NAME, HUNUM_SOURCE, type HanjaRecord } from "../../runtime/format/records.ts";
import { ROOT, call, getJson, testApp } from "../helpers/app.ts";
import { BASE, type Envelope, allPages, fileRecords, hangulExpectation, qs } from "./hanja-expect.ts";

const app = testApp();

async function detail(character: string): Promise<HanjaRecord> {
  const { status, body } = await getJson<HanjaRecord>(app, `${BASE}/hanja/${encodeURIComponent(character)}`);
  expect(status).toBe(200);
  return body;
}

const chars = (items: HanjaRecord[]) => items.map((r) => r.character);
const everything = async (q: string) => chars((await allPages<HanjaRecord>(app, `${BASE}/hanja${qs({ q })}`)).items);

describe("hunum on the records", () => {
  test("水: 물 수 (its 대표훈음, marked), then 고를 수, its source named; the starter gloss unchanged", async () => {
    const water = await detail("水");
    expect(water.hunum).toEqual([
      { hun: "물", eum: "수", representative: true },
      { hun: "고를", eum: "수" },
    ]);
    expect(water.hunum_source).toBe(HUNUM_SOURCE);
    expect([water.starter, water.meaning_ko]).toEqual([true, "물 수"]);
    // The page of results carries the same record.
    const { body } = await getJson<Envelope<HanjaRecord>>(app, `${BASE}/hanja?q=${encodeURIComponent("水")}`);
    expect(body.data[0]?.hunum).toEqual(water.hunum);
  });

  test("樂: its 대표훈음 즐길 락 first, then every reading's 훈음 in the dictionary's order (두음법칙 form first as it lists it), without 즐길 락 again and without the corrected-away 즐길 악, 즐길 요", async () => {
    expect((await detail("樂")).hunum.map((h) => `${h.hun} ${h.eum}`)).toEqual(["즐길 락", "즐길 낙", "즐거울 락", "풍류 악", "좋아할 요"]);
  });

  test("仮 U+4EEE, whose only gloss is a note on a variant (反과 同字): no 훈음, source null; 謌 (歌와 同字) has the one the overlay adds", async () => {
    const record = await detail("\u4EEE");
    expect([record.hunum, record.hunum_source]).toEqual([[], null]);
    expect((await detail("\u8B0C")).hunum).toEqual([{ hun: "노래", eum: "가" }]);
  });

  test("a 음 Unihan does not list is kept: 乾 마를 간 (readings 건), 郎 U+90CE 사나이 낭 (readings 랑)", async () => {
    const dry = await detail("乾");
    expect(dry.readings).toEqual(["건"]);
    expect(dry.hunum).toContainEqual({ hun: "마를", eum: "간" });
    const man = await detail("\u90CE");
    expect(man.readings).toEqual(["랑"]);
    expect(man.hunum).toContainEqual({ hun: "사나이", eum: "낭" });
  });

  test("a gloss without a 음 of its own takes the entry's reading: 強 U+5F37 `강할` → 강할 강", async () => {
    expect((await detail("\u5F37")).hunum).toEqual([{ hun: "강할", eum: "강", representative: true }]);
  });
});

describe("coverage, counted apart from the build", () => {
  // Straight from the file: single-character entries of the dataset's characters, a gloss part
  // that names no Han character being a 훈음 (notes such as `歌와 同字` name one).
  const dataset = new Set(fileRecords().map((r) => r.character));
  const withGloss = new Set<string>();
  const withHunum = new Set<string>();
  for (const line of readFileSync(join(ROOT, "pipeline/data/libhangul/hanja.txt"), "utf8").split("\n")) {
    const [, hanja = "", gloss = ""] = line.split(":");
    if (line.startsWith("#") || [...hanja].length !== 1 || !dataset.has(hanja) || gloss === "") continue;
    withGloss.add(hanja);
    if (gloss.split(", ").some((part) => !/\p{Script=Han}/u.test(part))) withHunum.add(hanja);
  }
  // The project's overlay adds 훈음: every education hanja has its 대표훈음, and a correction may add one (姊, 絕, 豐 had none).
  const overlayRows = (file: string) =>
    readFileSync(join(ROOT, "pipeline/data", file), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split(","));
  const withOverlay = new Set([
    ...withHunum,
    ...overlayRows("representative-hunum.csv").map(([character]) => character as string),
    ...overlayRows("hunum-corrections.csv")
      .filter(([, asGiven, corrected]) => asGiven === "" && corrected !== "")
      .map(([character]) => character as string),
  ]);
  const count = (set: Set<string>, flag?: "education_hanja" | "name_hanja") => fileRecords().filter((r) => set.has(r.character) && (!flag || r[flag])).length;

  test("the issue's measure: 7,319 characters with a gloss (1,795 education, 5,467 name hanja)", () => {
    expect([count(withGloss), count(withGloss, "education_hanja"), count(withGloss, "name_hanja")]).toEqual([7319, 1795, 5467]);
  });

  test("7,501 characters have 훈음 (all 1,800 education, 5,677 name): those with a gloss less the 146 glossed only by notes, plus 328 the overlay gives one", () => {
    const records = fileRecords().filter((r) => r.hunum.length > 0);
    expect(withHunum.size).toBe(7173);
    expect(new Set(chars(records))).toEqual(withOverlay);
    expect([records.length, records.filter((r) => r.education_hanja).length, records.filter((r) => r.name_hanja).length]).toEqual([7501, 1800, 5677]);
    expect(withOverlay.size - withHunum.size).toBe(328);
    expect(records.every((r) => r.hunum_source === HUNUM_SOURCE)).toBe(true);
    expect(fileRecords().every((r) => r.hunum.length > 0 || r.hunum_source === null)).toBe(true);
  });

  test("/meta counts them and names the dictionary's licence, its url the served terms that end with its notice", async () => {
    const { body } = await getJson<{ counts: Record<string, number>; licenses: Record<string, Record<string, string>> }>(app, `${BASE}/meta`);
    expect(body.counts.with_hunum).toBe(withOverlay.size);
    expect(body.licenses.hanja_dictionary).toEqual({ name: HUNUM_LICENSE_NAME, url: `${BASE}/terms`, notice: expect.stringContaining("hunum") });
    const terms = await (await call(app, `${BASE}/terms`)).text();
    expect(terms).toContain("Copyright (c) 2005,2006 Choe Hwanjin");
    expect(terms).toContain("Redistributions in binary form must reproduce the above copyright notice");
    expect(terms.indexOf("Choe Hwanjin")).toBeGreaterThan(terms.indexOf("Unicode"));
  });
});

describe("q: search by 훈", () => {
  test.each([
    ["물 수", "水"],
    ["배울 학", "學"],
  ])("%s: the record with that 훈음 comes first, then the groups as computed", async (q, first) => {
    const { byHunum, all } = hangulExpectation(q);
    expect(chars(byHunum)[0]).toBe(first);
    const items = await everything(q);
    expect(items[0]).toBe(first);
    expect(items).toEqual(chars(all));
  });

  test("물 finds 水 (물 수) and 집 finds 家 (집 가) after the education hanja read 물 or 집, before the name hanja and rarer ones read so", async () => {
    for (const [q, character, within] of [
      ["물", "水", 3],
      ["집", "家", 5],
    ] as const) {
      const items = await everything(q);
      const readAs = fileRecords().filter((r) => r.readings.includes(q));
      const educationReadAs = readAs.filter((r) => r.education_hanja).length;
      expect(items.indexOf(character)).toBeLessThan(within);
      expect(items.indexOf(character)).toBeGreaterThanOrEqual(educationReadAs);
      expect(items.slice(0, educationReadAs)).toEqual(chars(readAs.filter((r) => r.education_hanja)).sort((a, b) => items.indexOf(a) - items.indexOf(b)));
      for (const r of readAs.filter((r) => !r.education_hanja)) expect(items.indexOf(r.character)).toBeGreaterThan(items.indexOf(character));
      expect(items).toEqual(chars(hangulExpectation(q).all));
    }
  });

  test("spaces inside a 훈음 query count as one: `물   수` is `물 수`", async () => {
    expect(await everything("물   수")).toEqual(await everything("물 수"));
  });
});
