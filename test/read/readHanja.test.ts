/** The reader's rules on a handful of words: segmentation, the spelling rules, the choice among readings. */
import { describe, expect, test } from "vitest";
import { readText } from "../../runtime/core/read/readText.ts";
import { wordPairs, wordStoreSource } from "../../runtime/core/read/wordStoreSource.ts";

const characters = new Map<string, string[]>(
  Object.entries({
    歷: ["력", "역"],
    史: ["사"],
    經: ["경"],
    的: ["적"],
    論: ["논", "론"],
    比: ["비"],
    率: ["률", "솔", "율"],
    確: ["확"],
    合: ["합"],
    格: ["격"],
    不: ["부", "불"],
    正: ["정"],
    可: ["가"],
    能: ["능"],
    當: ["당"],
    來: ["내", "래"],
    日: ["일"],
    男: ["남"],
    女: ["녀", "여"],
    子: ["자"],
    老: ["노", "로"],
    少: ["소"],
    冷: ["냉", "랭"],
    便: ["변", "편"],
    所: ["소"],
    間: ["간"],
    利: ["리", "이"],
    十: ["십"],
    月: ["월"],
    汽: ["기"],
    車: ["거", "차"],
    金: ["금", "김"],
    大: ["대"],
    中: ["중"],
    李: ["리", "이"],
    年: ["년", "연"],
    麗: ["려", "여"],
    一: ["일"],
    石: ["석"],
    二: ["이"],
    鳥: ["조"],
    國: ["국"],
    民: ["민"],
    韓: ["한"],
    樂: ["낙", "락", "악", "요"],
    山: ["산"],
    水: ["수"],
    音: ["음"],
    度: ["도", "탁"],
    代: ["대"],
    兩: ["량", "양"],
    列: ["렬", "열"],
    里: ["리", "이"],
  }),
);
const words: [string, string[]][] = [
  ["歷史", ["력사", "역사"]],
  ["經歷", ["경력"]],
  ["比率", ["비률", "비율"]],
  ["確率", ["확률"]],
  ["合格", ["합격"]],
  ["不正", ["부정"]],
  ["不可能", ["불가능"]],
  ["來日", ["내일"]],
  ["男女", ["남녀"]],
  ["女子", ["녀자", "여자"]],
  ["老少", ["노소"]],
  ["男女老少", ["남녀노소", "남녀로소"]],
  ["冷冷", ["냉냉", "냉랭"]],
  ["便所", ["변소", "편소"]],
  ["便所間", ["변소간"]],
  ["便利", ["편리"]],
  ["十月", ["시월", "십월"]],
  ["汽車", ["기차", "기찻"]],
  ["大韓民國", ["대한민국"]],
  ["國民", ["국민"]],
  ["大韓", ["대한"]],
  ["民國", ["민국"]],
  ["一石二鳥", ["일석이조"]],
  ["樂山樂水", ["요산요수"]],
  ["音樂", ["음악"]],
  ["年度", ["년도", "연도"]],
  ["年代", ["년대", "연대"]],
];
const idioms = new Map([["一石二鳥", 7]]);
const source = wordStoreSource(wordPairs(words), {
  characters: (c) => characters.get(c),
  idiomIdx: (hanja) => idioms.get(hanja),
});
const links = { characterPath: (c: string) => `/hanja/v1/hanja/${c}` };
const read = (text: string) => readText(text, source).hangul;

describe("segmentation", () => {
  test("covers a run with the fewest pieces, the first longest on a tie", () => {
    const { segments } = readText("大韓民國國民", source);
    expect(segments.map((s) => s.hanja)).toEqual(["大韓民國", "國民"]);
  });

  test("answers each piece's hanja, reading, source, other readings and offset in UTF-16 code units", () => {
    const result = readText("𠀀 歷史와 比", source, links);
    expect(result.text).toBe("𠀀 歷史와 比");
    expect(result.hangul).toBe("𠀀 역사와 비");
    expect(result.segments).toEqual([
      { hanja: "𠀀", hangul: "𠀀", source: "none", other_readings: [], offset: 0 },
      { hanja: "歷史", hangul: "역사", source: "dictionary", other_readings: ["력사"], offset: 3 },
      { hanja: "比", hangul: "비", source: "characters", other_readings: [], offset: 7, href: "/hanja/v1/hanja/比" },
    ]);
  });

  test("a run longer than the last one is read whole, and a shorter one after it only as itself", () => {
    expect(read("歷史".repeat(100))).toBe("역사".repeat(100));
    expect(readText("比", source).segments).toHaveLength(1);
    expect(read("男女老少 大韓民國國民")).toBe("남녀노소 대한민국국민");
  });

  test("an answer changed by its caller leaves the next answer as it was", () => {
    const first = readText("歷史", source);
    first.segments[0]?.other_readings.push("changed");
    expect(readText("歷史", source).segments[0]?.other_readings).toEqual(["력사"]);
  });

  test("links an idiom to its idx and passes everything that is not Han through", () => {
    const { hangul, segments } = readText("«一石二鳥»!", source);
    expect(hangul).toBe("«일석이조»!");
    expect(segments[0]).toMatchObject({ hanja: "一石二鳥", idiom_idx: 7, source: "dictionary" });
  });

  test("a compatibility ideograph is read with its own reading, else as the character it stands for, and kept as written", () => {
    const withOwnReading = new Map([...characters, ["\uF914", ["낙"]]]);
    const withOwn = wordStoreSource(wordPairs(words), { characters: (c) => withOwnReading.get(c) });
    const { hangul, segments } = readText("\uF914\uF90A 音\uF914", withOwn);
    expect(hangul).toBe("낙금 음악");
    expect(segments.map((s) => s.hanja)).toEqual(["\uF914", "\uF90A", "音\uF914"]);
    expect(readText("\uF914", source).hangul).toBe("요");
  });
});

describe("the spelling rules", () => {
  test("the initial-sound law at the start of a word, not inside it", () => {
    expect(read("歷史")).toBe("역사");
    expect(read("經歷")).toBe("경력");
    expect(read("女子")).toBe("여자");
    expect(read("男女")).toBe("남녀");
    expect(read("來日")).toBe("내일");
    expect(read("李麗")).toBe("이려");
  });

  test("a word after another piece starts a word of its own (제12항 붙임 2)", () => {
    expect(read("男女老少")).toBe("남녀노소");
    expect(read("歷史歷史")).toBe("역사역사");
  });

  test("렬 and 률 after a vowel or ㄴ are 열 and 율, in words and after them", () => {
    expect(read("比率")).toBe("비율");
    expect(read("確率")).toBe("확률");
    expect(read("合格率")).toBe("합격률");
    expect(read("歷史率")).toBe("역사율");
  });

  test("a character after a word is read as part of it, not under the initial-sound law", () => {
    expect(read("歷史論")).toBe("역사론");
    expect(read("論")).toBe("논");
  });

  test("不 alone is 부 before ㄷ and ㅈ, 불 elsewhere", () => {
    expect(read("不當")).toBe("부당");
    expect(read("不正")).toBe("부정");
    expect(read("不可能")).toBe("불가능");
    expect(read("不可")).toBe("불가");
  });

  test("a character right after a digit is a bound noun, not under the initial-sound law", () => {
    expect(read("1919年 年")).toBe("1919년 연");
    expect(read("１年")).toBe("１년");
    expect(read("\u{1D7CF}年")).toBe("\u{1D7CF}년");
    expect(read("3來日")).toBe("3내일");
  });

  test("after a digit a word starting with 年 starts with the bound noun 년, and 兩 and 列 are the bound nouns 냥 and 열", () => {
    expect(read("2025年度 1950年代")).toBe("2025년도 1950년대");
    expect(read("年度 年代")).toBe("연도 연대");
    expect(read("5兩 3列 10里")).toBe("5냥 3열 10리");
    expect(read("兩 列 里")).toBe("양 열 이");
    // The reading the dictionary or the character gave joins the others.
    const { segments } = readText("2025年度 5兩 3列", source, links);
    expect(segments.map(({ hanja, hangul, other_readings }) => ({ hanja, hangul, other_readings }))).toEqual([
      { hanja: "年度", hangul: "년도", other_readings: ["연도"] },
      { hanja: "兩", hangul: "냥", other_readings: ["량", "양"] },
      { hanja: "列", hangul: "열", other_readings: ["렬"] },
    ]);
    expect(segments[1]?.href).toBe("/hanja/v1/hanja/兩");
  });

  test("金 starting a name no word covers is 김, alone 금", () => {
    expect(read("金大中")).toBe("김대중");
    expect(read("金")).toBe("금");
  });
});

describe("choosing among a word's readings", () => {
  test("the South Korean form: the initial-sound law and 율 after a vowel", () => {
    expect(readText("歷史", source).segments[0]?.other_readings).toEqual(["력사"]);
    expect(read("比率")).toBe("비율");
  });

  test("the customary sound 제52항 names, and no 사이시옷 added to a reading", () => {
    expect(read("十月")).toBe("시월");
    expect(read("汽車")).toBe("기차");
  });

  test("inside a word the law's form only where the rest is a word", () => {
    expect(read("冷冷")).toBe("냉랭");
    expect(read("男女老少")).toBe("남녀노소");
  });

  test("the reading the longer words holding the word agree with", () => {
    expect(read("便所")).toBe("변소");
    expect(read("便利")).toBe("편리");
  });

  test("a word's own reading, then the characters' usual sounds", () => {
    expect(read("樂山樂水")).toBe("요산요수");
    expect(read("音樂")).toBe("음악");
  });
});
