/**
 * The words as a learner meets them (docs/rules.md "Words"): each word's standard reading first
 * (the reader's rule, and `word-readings.csv` where the editors give another), never a 사이시옷
 * form first, and the education hanja's core words (`core-words.csv`) first in a character's
 * list, its detail and a search. Checked on the built data and the committed files.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCsvTable } from "../../pipeline/load/csvTable.ts";
import { CORE_WORD_COLUMNS, WORD_FILES, WORD_READING_COLUMNS } from "../../pipeline/parse/learnerWords.ts";
import { wordIndex } from "../../runtime/core/words/wordIndex.ts";
import { DIST_FILES, FLAG_EDUCATION, type Tables } from "../../runtime/format/dist.ts";
import { DETAIL_WORDS } from "../../runtime/format/recordSchemas.ts";
import { addsSaisiot } from "../../runtime/format/syllableRules.ts";
import { ROOT, distText, getJson, testApp } from "../helpers/app.ts";
import { BASE, fileRecords } from "../http/hanja-expect.ts";

const DATA = join(ROOT, "pipeline/data");
const app = testApp();
const tables = JSON.parse(distText(DIST_FILES.tables)) as Tables;
const education = new Set(tables.characters.filter((_, i) => ((tables.flags[i] ?? 0) & FLAG_EDUCATION) !== 0));
const index = wordIndex(distText(DIST_FILES.words), (codePoint) => education.has(String.fromCodePoint(codePoint)));
const readingsOf = new Map(fileRecords().map((r) => [r.character, [...r.readings, ...r.hunum.map((h) => h.eum)]]));
const first = (hanja: string) => index.lookup(hanja)?.readings[0];
const editorRows = await readCsvTable(join(DATA, WORD_FILES.readings), WORD_READING_COLUMNS);
const coreRows = await readCsvTable(join(DATA, WORD_FILES.core), CORE_WORD_COLUMNS);

describe("each word's standard reading first", () => {
  it.each([
    ["先生", "선생"],
    ["行爲", "행위"],
    ["電車", "전차"],
    ["下車", "하차"],
    ["自轉車", "자전거"],
    ["議論", "의논"],
    ["水道", "수도"],
    ["汽車", "기차"],
    ["沈菜", "김치"],
    ["便所", "변소"],
    ["寶貝", "보배"],
  ])("%s reads %s first", (hanja, reading) => {
    expect(first(hanja)).toBe(reading);
  });

  it("no word lists a 사이시옷 form first where it has a reading without one (수돗, 전깃, 기찻), unless the editors give it as the standard spelling (茶床 찻상, as 찻잔)", () => {
    const edited = new Set(editorRows.map(({ values }) => values.hanja));
    const saisiot = (hanja: string, reading: string) => [...reading].some((s, i) => addsSaisiot(s, readingsOf.get([...hanja][i] as string) ?? [], reading));
    const firstWithSaisiot: string[] = [];
    for (let position = 0; position < index.count; position++) {
      const { hanja, readings } = index.word(position);
      if (readings.length > 1 && saisiot(hanja, readings[0] as string) && readings.some((r) => !saisiot(hanja, r))) firstWithSaisiot.push(hanja);
    }
    expect(firstWithSaisiot.filter((hanja) => !edited.has(hanja))).toEqual([]);
    expect(firstWithSaisiot).toEqual(["茶床"]);
    expect(index.lookup("水道")?.readings).toEqual(["수도", "수돗"]);
  });

  it("every reading of the editors' list is its word's first, and the reader reads the word so", async () => {
    expect(editorRows.length).toBeGreaterThan(100);
    const wrong = editorRows.filter(({ values }) => first(values.hanja) !== values.reading).map(({ values }) => values.hanja);
    expect(wrong).toEqual([]);
    for (const hanja of ["沈菜", "寶貝", "使道"]) {
      const { body } = await getJson<{ hangul: string }>(app, `${BASE}/read?text=${encodeURIComponent(hanja)}`);
      expect(body.hangul, hanja).toBe(first(hanja));
    }
  });
});

describe("the core words of the education hanja", () => {
  const coreOf = new Map<string, string[]>();
  for (const { values } of coreRows) coreOf.set(values.character, [...(coreOf.get(values.character) ?? []), values.word]);

  it("cover nearly every education hanja, up to five each, each read as its row says", () => {
    expect(coreOf.size).toBeGreaterThan(1_750);
    expect(Math.max(...[...coreOf.values()].map((w) => w.length))).toBe(5);
    expect(coreRows.filter(({ values }) => first(values.word) !== values.reading).map(({ values }) => values.word)).toEqual([]);
  });

  it("are first in a character's list and its detail, in the editors' order (學: 學生, 學校, …; 車: 自動車 before 動車)", async () => {
    for (const character of ["學", "車", "水", "首"]) {
      const own = coreOf.get(character) as string[];
      expect(
        index
          .ofCharacter(character)
          .slice(0, own.length)
          .map((p) => index.word(p).hanja),
        character,
      ).toEqual(own);
      const { body } = await getJson<{ words: { hanja: string }[] }>(app, `${BASE}/hanja/${encodeURIComponent(character)}`);
      expect(
        body.words.map((w) => w.hanja),
        character,
      ).toEqual(own.slice(0, DETAIL_WORDS));
    }
    expect(coreOf.get("學")?.slice(0, 5)).toEqual(expect.arrayContaining(["學生", "學校"]));
    const car = index.ofCharacter("車").map((p) => index.word(p).hanja);
    expect(car.indexOf("自動車")).toBeLessThan(car.indexOf("動車"));
  });

  it("put the common word first in a words search: q=수도 → 首都 in the top 3, q=학교 → 學校 first", async () => {
    const search = async (q: string) =>
      (await getJson<{ data: { hanja: string }[] }>(app, `${BASE}/words?q=${encodeURIComponent(q)}&per_page=3`)).body.data.map((w) => w.hanja);
    expect(await search("수도")).toContain("首都");
    expect((await search("학교"))[0]).toBe("學校");
  });
});
