/** The dictionary's words (docs/rules.md "Words"): which entries become words, the standard reading first, the file's round trip and the listed order. */
import { describe, expect, test } from "vitest";
import { wordSyllables } from "../../pipeline/build/words.ts";
import { parseHanjaDictionary } from "../../pipeline/load/hanjaDictionary.ts";
import { collectWords, compoundCounts, northernSpellings, standardFirst } from "../../pipeline/parse/words.ts";
import { type PackedStrings, unpack } from "../../runtime/format/packedStrings.ts";
import { type Word, encodeWords, listedOrder } from "../../runtime/format/words.ts";
import { decodeWords } from "../../runtime/format/wordsDecode.ts";
import { hanja } from "./helpers.ts";

describe("the standard spelling first", () => {
  test.each([
    ["역사", 0],
    ["력사", 1], // initial ㄹ
    ["녀자", 1], // initial ㄴ before ㅕ
    ["노인", 0], // ㄴ before ㅗ stays
    ["비율", 0],
    ["비률", 1], // 률 after a vowel
    ["선률", 1], // 률 after ㄴ
    ["확률", 0], // 률 after another final stays
    ["렬률", 1],
  ])("%s breaks the South Korean spelling %i times", (reading, count) => {
    expect(northernSpellings(reading)).toBe(count);
  });

  test("歷史 and 比率 list the standard reading first whatever the dictionary's order; a tie keeps it", () => {
    expect(standardFirst(["력사", "역사"])).toEqual(["역사", "력사"]);
    expect(standardFirst(["비률", "비율"])).toEqual(["비율", "비률"]);
    expect(standardFirst(["음락", "음악"])).toEqual(["음락", "음악"]);
  });
});

const DICTIONARY = [
  "# notice",
  "력사:歷史:",
  "역사:歷史:",
  "비률:比率:",
  "비율:比率:",
  "역사:歷史:", // a repeat
  "수:水:물 수", // one character: a 훈음, not a word
  "수도:水道:",
  "수도관:水道管:",
  "수각집:水閣집:", // Hangul inside: not a word
  "수도:水稻:",
  "가경동:佳景洞:지명",
  "하수도:下水道:",
  "독도:獨島:", // 島 is not in the dataset
].join("\n");
const CHARACTERS = new Set(["歷", "史", "比", "率", "水", "道", "管", "稻", "佳", "景", "洞", "下", "獨"]);

describe("collectWords", () => {
  const words = collectWords(parseHanjaDictionary("hanja.txt", DICTIONARY).entries, CHARACTERS);
  const byHanja = new Map(words.map((w) => [w.hanja, w]));

  test("takes entries of two or more of the dataset's characters, one word per written form, its readings standard first", () => {
    expect([...byHanja.keys()].sort()).toEqual(["下水道", "佳景洞", "歷史", "比率", "水稻", "水道", "水道管"].sort());
    expect(byHanja.get("歷史")).toEqual({ hanja: "歷史", readings: ["역사", "력사"], note: null });
    expect(byHanja.get("比率")?.readings).toEqual(["비율", "비률"]);
    expect(byHanja.get("佳景洞")?.note).toBe("지명");
  });

  test("counts, for each word, the longer words that contain it", () => {
    const counts = compoundCounts(words);
    expect(counts.get("水道")).toBe(2);
    expect(counts.get("水稻")).toBeUndefined();
  });
});

describe("words.txt", () => {
  const records = [
    { ...hanja("歷", ["력"]), education_hanja: true },
    { ...hanja("史", ["사"]), education_hanja: true },
    { ...hanja("水", ["수"]), education_hanja: true },
    { ...hanja("道", ["도"]), education_hanja: true },
    hanja("稻", ["도"]),
    { ...hanja("佳", ["가"]), education_hanja: true },
    { ...hanja("景", ["경"]), education_hanja: true },
    { ...hanja("洞", ["동", "통"]), education_hanja: true },
    { ...hanja("𠀋", ["장"]), hunum: [{ hun: "이름", eum: "상" }] },
  ];
  const words: Word[] = [
    { hanja: "歷史", readings: ["역사", "력사"], note: null },
    { hanja: "水道", readings: ["수도", "수돗"], note: null },
    { hanja: "水稻", readings: ["수도"], note: null },
    { hanja: "佳景洞", readings: ["가경동"], note: "지명" },
    { hanja: "水𠀋", readings: ["수상"], note: null },
    { hanja: "水道稻", readings: ["수도도"], note: null },
  ];
  const within = new Map([["水道", 1]]);
  const text = encodeWords(words, within, wordSyllables(records));

  test("writes each character's syllables (readings, initial-sound-law forms, 훈음's 음), each word front-coded in code point order, then the counts", () => {
    expect(wordSyllables(records)("歷")).toEqual(["력", "역"]);
    expect(wordSyllables(records)("𠀋")).toEqual(["장", "상"]);
    expect(text).toBe(
      [
        "佳가",
        "史사",
        "景경",
        "歷력역",
        "水수",
        "洞동통",
        "稻도",
        "道도",
        "𠀋장상",
        "",
        "0佳景洞\t\t지명",
        "0歷史\t1,",
        "0水稻\t",
        "1道\t,수돗", // 돗 is none of 道's syllables: the reading is written as it is
        "2稻\t",
        "1𠀋\t01",
        "",
        "", // how many other words contain each, in the same order
        "",
        "",
        "1",
        "",
        "",
        "",
      ].join("\n"),
    );
  });

  test("decodes to the words it was written from", () => {
    const columns = decodeWords(text);
    const all = (packed: PackedStrings) => Array.from({ length: packed.starts.length - 1 }, (_, p) => unpack(packed, p));
    expect(all(columns.hanja)).toEqual(["佳景洞", "歷史", "水稻", "水道", "水道稻", "水𠀋"]);
    expect(all(columns.readings)).toEqual(["가경동", "역사,력사", "수도", "수도,수돗", "수도도", "수상"]);
    expect([...columns.within]).toEqual([0, 0, 0, 1, 0, 0]);
    expect([...columns.notes]).toEqual([[0, "지명"]]);
    expect(columns.longest).toBe(3);
    expect([...columns.core]).toEqual([]);
  });

  test("writes an education hanja's core words after its syllables, and decodes them", () => {
    const core = new Map([["稻", ["水道稻", "水稻"]]]);
    const withCore = encodeWords(words, within, wordSyllables(records), core);
    expect(withCore.split("\n").slice(0, 8)).toEqual(["佳가", "史사", "景경", "歷력역", "水수", "洞동통", "稻도\t水道稻 水稻", "道도"]);
    expect([...decodeWords(withCore).core]).toEqual([["稻", ["水道稻", "水稻"]]]);
  });

  test("lists core words first, by their best rank, then by the rest of the order", () => {
    const education = new Set(records.filter((r) => r.education_hanja).map((r) => r.character.codePointAt(0)));
    const columns = decodeWords(
      encodeWords(
        words,
        within,
        wordSyllables(records),
        new Map([
          ["稻", ["水道稻", "水稻"]],
          ["道", ["水道稻", "水道"]],
        ]),
      ),
    );
    const listed = [...listedOrder(columns, (codePoint) => education.has(codePoint))].map((p) => unpack(columns.hanja, p));
    // 水道稻 is first for two characters, so first though longer; 水道 and 水稻 second for one (水道, which a
    // longer word holds, first); then the rest as before.
    expect(listed).toEqual(["水道稻", "水道", "水稻", "歷史", "水𠀋", "佳景洞"]);
  });

  test("lists words before place names, shorter first, education hanja first, then those more words contain", () => {
    const columns = decodeWords(text);
    const education = new Set(records.filter((r) => r.education_hanja).map((r) => r.character.codePointAt(0)));
    const listed = [...listedOrder(columns, (codePoint) => education.has(codePoint))].map((p) => unpack(columns.hanja, p));
    expect(listed).toEqual(["水道", "歷史", "水稻", "水𠀋", "水道稻", "佳景洞"]);
  });

  test.each([
    ["水수\n0水道", /line 2 ends before the empty line/],
    ["水수\t道路\n道도\n\n0水道\t\n\n\n", /line 1 lists the core word "道路", which does not hold 水/],
    ["水수\t水道 水田\n道도\n\n0水道\t\n\n\n", /line 1 lists the core word 水田, which is not one of the words/],
    ["水수\n\n0水道\t\n\n\n", /line 3 has 道, which the file's characters do not list/],
    ["水수\n道도\n\n0水道\t5\n\n\n", /line 4 has a reading that does not fit its hanja 水道/],
    ["水수\n道도\n\n0水道\t\tx\ty\n\n\n", /line 4 is not shared characters/],
    ["水수\n道도\n\n3水道\t\n\n\n", /line 4 is not shared characters/],
    ["水수\n道도\n\n0水道\t\n\n-1\n", /line 6 is not a count of words/],
    ["水수\n道도\n\n0水道\t\n", /line 4 ends before the empty line that ends the words/],
    ["水수\n道도\n\n0水道\t\n\n", /line 5 is not a count of words; one line per word \(1\) must follow them, got "the end"/],
    ["水수\n道도\n\n0水道\t\n\n\n7\n", /line 7 follows the 1 counts/],
    ["水\n\n", /line 1 lists a character without syllables/],
  ])("a damaged file fails naming the line: %j", (damaged, message) => {
    expect(() => decodeWords(damaged)).toThrow(message);
  });
});
