/** The words in memory (runtime/core/words): lookup, a character's words and search by hanja or hangul, exact → prefix → containing. */
import { describe, expect, test } from "vitest";
import { unpack } from "../../runtime/format/packedStrings.ts";
import { type Word, encodeWords, listedOrder } from "../../runtime/format/words.ts";
import { decodeWords } from "../../runtime/format/wordsDecode.ts";
import { wordIndex } from "../../runtime/core/words/wordIndex.ts";
import { DIST_FILES, FLAG_EDUCATION, type Tables } from "../../runtime/format/dist.ts";
import { distText } from "../helpers/app.ts";

const WORDS: Word[] = [
  { hanja: "水道", readings: ["수도", "수돗"], note: null },
  { hanja: "下水道", readings: ["하수도"], note: null },
  { hanja: "水道管", readings: ["수도관"], note: null },
  { hanja: "水稻", readings: ["수도"], note: null },
  { hanja: "力士", readings: ["역사", "력사"], note: null },
  { hanja: "歷史", readings: ["역사", "력사"], note: null },
  { hanja: "佳水洞", readings: ["가수동"], note: "지명" },
];
const SYLLABLES: Record<string, string[]> = {
  水: ["수"],
  道: ["도"],
  下: ["하"],
  管: ["관"],
  稻: ["도"],
  力: ["력", "역"],
  士: ["사"],
  歷: ["력", "역"],
  史: ["사"],
  佳: ["가"],
  洞: ["동"],
};
const text = encodeWords(WORDS, new Map([["水道", 2]]), (c) => SYLLABLES[c] ?? []);
const index = wordIndex(text, (codePoint) => !["稻", "佳"].includes(String.fromCodePoint(codePoint)));
const hanjaOf = (positions: number[]) => positions.map((p) => index.word(p).hanja);

describe("wordIndex", () => {
  test("lists words in the listed order: place names last, shorter, education hanja, more compounds first", () => {
    expect(hanjaOf(Array.from({ length: index.count }, (_, p) => p))).toEqual(["水道", "力士", "歷史", "水稻", "下水道", "水道管", "佳水洞"]);
    expect(index.longest).toBe(3);
  });

  test("looks a word up by its hanja, readings standard first, note kept", () => {
    expect(index.lookup("歷史")).toEqual({ hanja: "歷史", readings: ["역사", "력사"], note: null });
    expect(index.lookup("佳水洞")).toEqual({ hanja: "佳水洞", readings: ["가수동"], note: "지명" });
    expect(index.lookup("水")).toBeUndefined();
    expect(index.lookup("水道\n力士")).toBeUndefined();
    expect(index.positionOf("")).toBe(-1);
  });

  test("a character's words come in listed order", () => {
    expect(hanjaOf(index.ofCharacter("水"))).toEqual(["水道", "水稻", "下水道", "水道管", "佳水洞"]);
    expect(index.ofCharacter("火")).toEqual([]);
  });

  test("search by hanja: the word itself, then words starting with it, then words containing it", () => {
    expect(hanjaOf(index.search("水道"))).toEqual(["水道", "水道管", "下水道"]);
    expect(hanjaOf(index.search("水"))).toEqual(["水道", "水稻", "水道管", "下水道", "佳水洞"]);
  });

  test("search by hangul matches each reading: exact, then prefix, then containing", () => {
    expect(hanjaOf(index.search("수도"))).toEqual(["水道", "水稻", "水道管", "下水道"]);
    expect(hanjaOf(index.search("수돗"))).toEqual(["水道"]);
    expect(hanjaOf(index.search("력사"))).toEqual(["力士", "歷史"]);
    expect(hanjaOf(index.search("사"))).toEqual(["力士", "歷史"]);
  });

  test("a query mixing scripts or of other characters matches nothing", () => {
    expect(index.search("水도")).toEqual([]);
    expect(index.search("water")).toEqual([]);
    expect(index.search("")).toEqual([]);
    expect(() => index.word(index.count)).toThrow(RangeError);
  });

  test("gives a word's hanja alone, as the word has it", () => {
    for (let p = 0; p < index.count; p++) expect(index.hanjaAt(p)).toBe(index.word(p).hanja);
    expect(() => index.hanjaAt(index.count)).toThrow(RangeError);
    expect(() => index.hanjaAt(-1)).toThrow(RangeError);
  });
});

describe("the built words", () => {
  const tables = JSON.parse(distText(DIST_FILES.tables)) as Tables;
  const education = new Set(tables.characters.filter((_, i) => ((tables.flags[i] ?? 0) & FLAG_EDUCATION) !== 0));
  const built = wordIndex(distText(DIST_FILES.words), (codePoint) => education.has(String.fromCodePoint(codePoint)));

  test("hold the dictionary's words of the dataset's characters, the South Korean reading first (歷史, 比率)", () => {
    expect(built.count).toBe(234_308);
    expect(built.lookup("歷史")?.readings).toEqual(["역사", "력사"]);
    expect(built.lookup("比率")?.readings).toEqual(["비율", "비률"]);
  });

  test("are the words the file decodes to, column by column, in the listed order (the index's one scratch buffer changes nothing)", () => {
    const columns = decodeWords(distText(DIST_FILES.words));
    const order = listedOrder(columns, (codePoint) => education.has(String.fromCodePoint(codePoint)));
    expect(order).toHaveLength(built.count);
    const differing: string[] = [];
    order.forEach((position, listed) => {
      const word = built.word(listed);
      const decoded = {
        hanja: unpack(columns.hanja, position),
        readings: unpack(columns.readings, position).split(","),
        note: columns.notes.get(position) ?? null,
      };
      if (JSON.stringify(word) !== JSON.stringify(decoded)) differing.push(`${listed}: ${JSON.stringify(word)} ≠ ${JSON.stringify(decoded)}`);
    });
    expect(differing.slice(0, 5)).toEqual([]);
    expect(built.longest).toBe(columns.longest);
  });

  test("list a character's own core words first (水: 水道, 水泳, 水準), then the other core words holding it, then the rest", () => {
    const listed = hanjaOf2(built, built.ofCharacter("水"));
    expect(listed.slice(0, 5)).toEqual(["水道", "水泳", "水準", "水曜日", "生水"]);
    // 洪水 is another character's core word (洪's): listed before the words no editor named, 水素 among them.
    expect(listed.indexOf("洪水")).toBeLessThan(listed.indexOf("水素"));
    expect(new Set(listed).size).toBe(listed.length);
    expect(built.ofCharacter("水")).toHaveLength(2_899);
    expect(hanjaOf2(built, built.search("학교").slice(0, 1))).toEqual(["學校"]);
  });
});

function hanjaOf2(index: ReturnType<typeof wordIndex>, positions: number[]): string[] {
  return positions.map((p) => index.word(p).hanja);
}
