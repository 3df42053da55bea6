import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readCsvTable } from "../../pipeline/load/csvTable.ts";
import { InputError } from "../../pipeline/load/types.ts";
import { readUnihanZip } from "../../pipeline/load/unihanZip.ts";
import { RECORD_PROPERTIES, buildHanjaRecords, collectUnihan } from "../../pipeline/parse/hanjaRecords.ts";
import { EXCEPTION_COLUMNS } from "../../pipeline/validate/idiomLists.ts";
import { IDIOM_COLUMNS, type IdiomRow, MEANING_LENGTH, validateIdioms } from "../../pipeline/validate/idioms.ts";
import type { HanjaRecord } from "../../runtime/format/records.ts";
import { FIXTURES, SMALL_ZIP, characters } from "./helpers.ts";

const MEANING = "한 가지 일로 두 가지 이득을 함께 얻음을 이르는 말";
let line = 1;
const row = (idx: string, hanja: string, hangul: string, meaning = MEANING, literal = ""): IdiomRow => ({
  line: ++line,
  values: { idx, hanja, hangul, literal, meaning },
});

/** The message of the error validating `rows` against `chars`. */
function problems(rows: IdiomRow[], chars: ReadonlyMap<string, HanjaRecord>): string {
  try {
    validateIdioms(rows, chars);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error("expected the idioms to be rejected");
}

// Readings as in Unihan where that matters; 落 良 流 given only their ㄹ form to exercise 두음법칙.
const CHARS = characters(
  "一:일",
  "石:석",
  "二:이",
  "鳥:조",
  "落:락",
  "花:화",
  "流:류",
  "水:수",
  "良:량",
  "藥:약",
  "苦:고",
  "口:구",
  "樂:낙 락 악 요",
  "\uF914:락", // CJK COMPATIBILITY IDEOGRAPH-F914, NFKC → 樂
  "山:산",
  "女:녀",
  "禮:례",
  "理:리",
  "老:로",
  "賴:뢰",
  "男:남",
  "𮕩:쇠",
);

describe("validateIdioms", () => {
  it("accepts the fixture idioms against the fixture characters", async () => {
    const reader = readUnihanZip(SMALL_ZIP);
    const records = buildHanjaRecords(await collectUnihan(reader.entries(RECORD_PROPERTIES, { onlyWith: "kHangul" })), "16.0.0");
    const rows = await readCsvTable(join(FIXTURES, "idioms-small.csv"), IDIOM_COLUMNS);
    const exceptions = (await readCsvTable(join(FIXTURES, "reading-exceptions-small.csv"), EXCEPTION_COLUMNS)).map(({ values }) => ({
      idx: Number(values.idx),
      character: values.character,
      reading: values.reading,
    }));
    const idioms = validateIdioms(rows, new Map(records.map((r) => [r.character, r])), "idioms.csv", exceptions);
    expect(idioms).toHaveLength(17);
    expect(idioms[0]).toEqual({
      idx: 1,
      hanja: "家家戶戶",
      hangul: "가가호호",
      chosung: "ㄱㄱㅎㅎ",
      literal: null,
      meaning: "집집마다 빠짐없이 모두를 이르는 말",
      // Joined later from idioms-en.csv (englishMeanings.ts).
      meaning_en: null,
    });
  });

  it("returns the idioms in idx order with their chosung", () => {
    const idioms = validateIdioms([row("2", "良藥苦口", "양약고구"), row("1", "一石二鳥", "일석이조")], CHARS);
    expect(idioms.map((i) => [i.idx, i.chosung])).toEqual([
      [1, "ㅇㅅㅇㅈ"],
      [2, "ㅇㅇㄱㄱ"],
    ]);
  });

  it("allows the initial-sound law (두음법칙) at the start of the word: 落花流水 낙화류수, 良藥苦口 양약고구", () => {
    expect(validateIdioms([row("1", "落花流水", "낙화류수"), row("2", "良藥苦口", "양약고구")], CHARS)).toHaveLength(2);
    // The readings as written are accepted too.
    expect(validateIdioms([row("1", "落花流水", "락화류수")], CHARS)).toHaveLength(1);
  });

  it("rejects the law's form inside the word unless the idiom is a documented exception (流 류 read 유 in 낙화유수)", () => {
    const inside = row("1", "落花流水", "낙화유수");
    expect(problems([inside], CHARS)).toContain(
      `idioms.csv:${inside.line}: 유 is the initial-sound (두음법칙) form of 流 (류) inside 落花流水 낙화유수, where the law does not apply; if the dictionary spells the idiom so, list it in reading-exceptions.csv with that source`,
    );
    expect(problems([row("1", "一石落鳥", "일석낙조")], CHARS)).toContain("낙 is the initial-sound (두음법칙) form of 落 (락) inside 一石落鳥 일석낙조");
    const exception = { idx: 1, character: "流", reading: "유" };
    expect(validateIdioms([inside], CHARS, "idioms.csv", [exception])[0]?.hangul).toBe("낙화유수");
    // The exception names one idiom: another idiom with the same spelling is still rejected.
    expect(() => validateIdioms([inside, row("2", "流花流水", "유화유수")], CHARS, "idioms.csv", [exception])).toThrow("inside 流花流水 유화유수");
  });

  it.each([
    ["女", "녀", "여"],
    ["禮", "례", "예"],
    ["理", "리", "이"],
    ["老", "로", "노"],
    ["賴", "뢰", "뇌"],
    ["落", "락", "낙"],
    ["良", "량", "양"],
  ])("accepts %s (%s) read %s", (ch, _, initial) => {
    expect(validateIdioms([row("1", `${ch}石二鳥`, `${initial}석이조`)], CHARS)).toHaveLength(1);
  });

  it("rejects a wrong reading, naming line, syllable, character and its readings", () => {
    const bad = row("1", "落花流水", "낙하유수");
    expect(problems([bad], CHARS)).toContain(`idioms.csv:${bad.line}: 하 is not a reading of 花 (화) in 落花流水 낙하유수`);
  });

  it("does not run the law backwards or sideways (낙 ↛ 락, 량 ↛ 냥, 남 ↛ 암)", () => {
    const chars = characters("諾:낙", "良:량", "男:남", "石:석", "二:이", "鳥:조");
    expect(problems([row("1", "諾石二鳥", "락석이조")], chars)).toContain("락 is not a reading of 諾");
    expect(problems([row("1", "良石二鳥", "냥석이조")], chars)).toContain("냥 is not a reading of 良");
    expect(problems([row("1", "男石二鳥", "암석이조")], chars)).toContain("암 is not a reading of 男");
  });

  it("rejects a character that is not in the dataset", () => {
    const bad = row("1", "一石三鳥", "일석삼조");
    expect(problems([bad], CHARS)).toContain(`idioms.csv:${bad.line}: "三" in 一石三鳥 is not in the character dataset`);
  });

  it("counts astral characters as one character", () => {
    expect(validateIdioms([row("1", "𮕩石二鳥", "쇠석이조")], CHARS)).toHaveLength(1);
  });

  it.each([["0"], ["-1"], ["01"], ["1.0"], ["x"], [""], [" 1"], ["1234567"]])("rejects idx %j", (idx) => {
    expect(problems([row(idx, "一石二鳥", "일석이조")], CHARS)).toContain(`idx ${JSON.stringify(idx)} is not a positive integer`);
  });

  it("rejects a repeated idx, naming the first line", () => {
    const first = row("7", "一石二鳥", "일석이조");
    const again = row("7", "良藥苦口", "양약고구");
    expect(problems([first, again], CHARS)).toContain(`idioms.csv:${again.line}: idx 7 repeats line ${first.line}`);
  });

  it.each([["一石二"], ["一石二鳥鳥"], [""], ["一石 二鳥"], ["ABCD"]])("rejects hanja %j that is not four Han characters in the dataset", (hanja) => {
    const message = problems([row("1", hanja, "일석이조")], CHARS);
    expect(message).toMatch(/is not four characters|is not in the character dataset/);
  });

  it.each([["일석이"], ["일석이조조"], ["일석이ㅈ"], ["ilseokijo"], ["일석 이조"], [""]])("rejects hangul %j that is not four syllables", (hangul) => {
    expect(problems([row("1", "一石二鳥", hangul)], CHARS)).toContain(`hangul ${JSON.stringify(hangul)} is not four Hangul syllables`);
  });

  it("rejects a duplicate idiom, naming the first line", () => {
    const first = row("1", "一石二鳥", "일석이조");
    const again = row("2", "一石二鳥", "일석이조");
    expect(problems([first, again], CHARS)).toContain(`idioms.csv:${again.line}: 一石二鳥 repeats line ${first.line}`);
  });

  it("rejects a duplicate written with a compatibility ideograph (樂 U+F914 for 樂 U+6A02)", () => {
    const first = row("1", "樂山樂水", "요산요수");
    const compat = row("2", "\uF914山\uF914水", "낙산낙수");
    expect(problems([first, compat], CHARS)).toContain(`idioms.csv:${compat.line}: \uF914山\uF914水 repeats line ${first.line}`);
  });

  it("rejects a meaning outside the allowed length or with outer spaces", () => {
    const short = row("1", "一石二鳥", "일석이조", "짧은 뜻");
    const long = row("2", "良藥苦口", "양약고구", "가".repeat(MEANING_LENGTH.max + 1));
    const spaced = row("3", "落花流水", "낙화유수", ` ${MEANING}`);
    const message = problems([short, long, spaced], CHARS);
    expect(message).toContain(`idioms.csv:${short.line}: meaning of 一石二鳥 is 4 characters (allowed ${MEANING_LENGTH.min}–${MEANING_LENGTH.max})`);
    expect(message).toContain(`idioms.csv:${long.line}: meaning of 良藥苦口 is ${MEANING_LENGTH.max + 1} characters`);
    expect(message).toContain(`idioms.csv:${spaced.line}: meaning has leading or trailing spaces`);
  });

  it("accepts meanings at both length bounds, counted in code points", () => {
    const min = "가".repeat(MEANING_LENGTH.min);
    const max = "𮕩".repeat(MEANING_LENGTH.max);
    expect(validateIdioms([row("1", "一石二鳥", "일석이조", min), row("2", "良藥苦口", "양약고구", max)], CHARS)).toHaveLength(2);
  });

  it("lists every bad row, each with file and line, not just the first", () => {
    const rows = [
      row("1", "一石二鳥", "일석이조"),
      row("2", "一石三鳥", "일석삼조"),
      row("3", "良藥苦口", "양약고구"),
      row("x", "落花流水", "낙화류수"),
      row("5", "落花流水", "낙하류수"),
    ];
    const message = problems(rows, CHARS);
    expect(message.startsWith("idioms.csv: 4 bad row(s):\n")).toBe(true);
    for (const bad of [rows[1], rows[3], rows[4]]) expect(message).toContain(`idioms.csv:${bad?.line}:`);
    expect(message).not.toContain(`idioms.csv:${rows[0]?.line}:`);
    expect(message).not.toContain(`idioms.csv:${rows[2]?.line}:`);
  });

  it("idx runs 1…n without gaps: a removed or renumbered idx fails, naming the line after the gap", () => {
    const rows = [row("1", "一石二鳥", "일석이조"), row("2", "良藥苦口", "양약고구"), row("4", "落花流水", "낙화류수"), row("9999", "一石三鳥", "일석삼조")];
    const message = problems(rows, CHARS);
    expect(message).toContain(`idioms.csv:${rows[2]?.line}: idx 4 leaves a gap: 3 is missing`);
    expect(message).toContain(`idioms.csv:${rows[3]?.line}: idx 9999 leaves a gap: 5…9998 are missing`);
    // Any file order is fine as long as the values are 1…n.
    expect(validateIdioms([row("2", "良藥苦口", "양약고구"), row("1", "一石二鳥", "일석이조")], CHARS)).toHaveLength(2);
  });

  it("a file with no idioms after its header fails", () => {
    expect(problems([], CHARS)).toBe("idioms.csv: 1 bad row(s):\n  idioms.csv:2: no idioms after the header");
  });

  it("uses the file name it is given", () => {
    expect(() => validateIdioms([row("0", "一石二鳥", "일석이조")], CHARS, "idioms-small.csv")).toThrow(/^idioms-small\.csv: 1 bad row/);
  });

  it("never crashes on arbitrary rows: it accepts them or lists them", () => {
    const text = fc.string({ unit: fc.constantFrom(..."一石二鳥落花流水樂\uF914가나다이조석낙 1x"), maxLength: 6 });
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text, text, text, text), { maxLength: 5 }), (cells) => {
        const rows = cells.map(([idx, hanja, hangul, literal, meaning], i) => ({ line: i + 2, values: { idx, hanja, hangul, literal, meaning } }));
        try {
          validateIdioms(rows, CHARS);
        } catch (error) {
          expect(error).toBeInstanceOf(InputError);
          expect((error as Error).message).toMatch(/^idioms\.csv: \d+ bad row\(s\):\n {2}idioms\.csv:\d+: /);
        }
      }),
    );
  });
});
