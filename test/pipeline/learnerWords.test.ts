/**
 * The words as a learner meets them (docs/rules.md "Words", `pipeline/parse/learnerWords.ts`):
 * the reading a word is read with first, by the reader's rule or the editors' list, and each
 * education hanja's core words; every bad row of either list named by file, line and value.
 */
import { describe, expect, test } from "vitest";
import { parseCsvTable } from "../../pipeline/load/csvTable.ts";
import { InputError } from "../../pipeline/load/types.ts";
import { CORE_WORD_COLUMNS, WORD_FILES, WORD_READING_COLUMNS, type WordLists, learnerWords } from "../../pipeline/parse/learnerWords.ts";
import type { HanjaRecord } from "../../runtime/format/records.ts";
import type { Word } from "../../runtime/format/words.ts";
import { hanja } from "./helpers.ts";

const record = (character: string, readings: string[], reading: string, education = true): HanjaRecord => ({
  ...hanja(character, readings),
  education_hanja: education,
  reading,
});
const records = [
  record("先", ["선"], "선"),
  record("生", ["생", "상"], "생"),
  record("電", ["전"], "전"),
  record("車", ["거", "차"], "거"),
  record("沈", ["침", "심"], "침"),
  record("菜", ["채"], "채"),
  record("水", ["수"], "수"),
  record("道", ["도"], "도"),
  record("學", ["학"], "학"),
  record("校", ["교"], "교"),
  record("汽", ["기"], "기"),
  record("磧", ["적"], "적", false),
];
const words: Word[] = [
  { hanja: "先生", readings: ["선상", "선생"], note: null },
  { hanja: "電車", readings: ["전거", "전차"], note: null },
  { hanja: "沈菜", readings: ["침채", "김치"], note: null },
  { hanja: "水道", readings: ["수돗", "수도"], note: null },
  { hanja: "汽車", readings: ["기찻", "기차"], note: null },
  { hanja: "學生", readings: ["학생"], note: null },
  { hanja: "學校", readings: ["학교"], note: null },
  { hanja: "磧水", readings: ["적수"], note: null },
];
const csv = (file: string, columns: readonly string[], rows: string[]) => parseCsvTable(file, [columns.join(","), ...rows].join("\n"), columns);
const lists = (readings: string[], core: string[] = []): WordLists => ({
  readings: csv(WORD_FILES.readings, WORD_READING_COLUMNS, readings),
  core: csv(WORD_FILES.core, CORE_WORD_COLUMNS, core),
});
const firstReadings = (ws: readonly Word[]) => Object.fromEntries(ws.map((w) => [w.hanja, w.readings[0]]));
const problemsOf = (l: WordLists): string[] => {
  try {
    learnerWords(words, records, l);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message
      .split("\n")
      .slice(1)
      .map((line) => line.trim());
  }
  throw new Error("no problem found");
};

describe("the reading each word is read with, first", () => {
  test("the reader's rule: the characters' usual sounds (先生 선생), never an added 사이시옷 (水道 수도, 汽車 기차); the others keep their order", () => {
    const { words: ordered, counts } = learnerWords(words, records, lists([]));
    expect(firstReadings(ordered)).toMatchObject({ 先生: "선생", 水道: "수도", 汽車: "기차", 電車: "전거" });
    expect(ordered.find((w) => w.hanja === "先生")?.readings).toEqual(["선생", "선상"]);
    expect(counts).toMatchObject({ several: 5, byRule: 3, byEditors: 0 });
  });

  test("the editors' list gives the standard reading where the rule picks another (電車 전차, 沈菜 김치)", () => {
    const { words: ordered, counts } = learnerWords(
      words,
      records,
      lists(["電車,전차,표준국어대사전: 전차 (electric car)", "沈菜,김치,표준국어대사전: 김치 (침채 is the archaic form)"]),
    );
    expect(ordered.find((w) => w.hanja === "電車")?.readings).toEqual(["전차", "전거"]);
    expect(firstReadings(ordered)).toMatchObject({ 沈菜: "김치", 先生: "선생" });
    expect(counts).toMatchObject({ several: 5, byEditors: 2 });
  });

  test("a row for a word the dictionary lacks, a reading it does not give, a reading the rule already picks, a repeat or no reason fails, each named", () => {
    expect(problemsOf(lists(["學問,학문,x", "電車,전자,x", "先生,선생,x", "電車,전차,x", "電車,전차,again", "沈菜,김치, "]))).toEqual([
      'word-readings.csv:2: "學問" is not a word of the dictionary',
      'word-readings.csv:3: 電車: reading "전자" is not one of its readings (전거, 전차)',
      "word-readings.csv:4: 先生: the rule already reads it 선생; remove the row",
      "word-readings.csv:5: 電車 repeats line 3",
      "word-readings.csv:6: 電車 repeats line 3",
      "word-readings.csv:7: 沈菜: reason is empty (say why the standard reading is 김치)",
    ]);
  });
});

describe("the core words of the education hanja", () => {
  test("kept per character in rank order, a word listed by two characters counted once", () => {
    const { core, counts } = learnerWords(
      words,
      records,
      lists(["電車,전차,electric car"], ["學,1,學生,학생", "學,2,學校,학교", "車,1,電車,전차", "電,1,電車,전차"]),
    );
    expect(Object.fromEntries(core)).toEqual({ 學: ["學生", "學校"], 車: ["電車"], 電: ["電車"] });
    expect(counts).toMatchObject({ coreCharacters: 3, coreWords: 3 });
  });

  test("each bad row is named: not an education hanja, a rank out of turn, a word not holding it or unknown, a reading not its own or not its first, a repeat, a sixth word", () => {
    const six = ["生", "生", "生", "生", "生", "生"].map((c, i) => `${c},${i + 1},先生,선생`);
    expect(problemsOf(lists([], ["磧,1,磧水,적수", "學,2,學生,학생", "校,1,學生,학생", "水,1,水學,수학", "道,1,水道,수두", "車,1,電車,전차", ...six]))).toEqual(
      [
        'core-words.csv:2: character "磧" is not one of the education hanja in the character dataset',
        'core-words.csv:3: 學: rank "2", expected 1 (ranks run 1, 2, … per character)',
        'core-words.csv:4: 校: "學生" does not hold 校',
        'core-words.csv:5: 水: "水學" is not a word of the dictionary',
        'core-words.csv:6: 道: 水道 reading "수두" is not one of its readings (수돗, 수도)',
        "core-words.csv:7: 車: 電車 reads 전차 here but 전거 first (the rule's choice): list 電車,전차 in word-readings.csv",
        "core-words.csv:9: 生: 先生 repeats line 8",
        "core-words.csv:10: 生: 先生 repeats line 8",
        "core-words.csv:11: 生: 先生 repeats line 8",
        "core-words.csv:12: 生: 先生 repeats line 8",
        "core-words.csv:13: 生: more than 5 core words",
        "core-words.csv:13: 生: 先生 repeats line 8",
      ],
    );
  });
});
