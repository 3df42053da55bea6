/** Reading 훈음 from the dictionary's glosses (docs/rules.md "훈음"): each shape a gloss part takes, and the join's counts. */
import { describe, expect, test } from "vitest";
import { parseHanjaDictionary } from "../../pipeline/load/hanjaDictionary.ts";
import { dictionaryNotice, joinHunum, parseGlossPart, termsWithDictionaryNotice } from "../../pipeline/parse/hunum.ts";
import { HUNUM_SOURCE } from "../../runtime/format/records.ts";
import { hanja } from "./helpers.ts";

describe("parseGlossPart", () => {
  test.each([
    ["물 수", "수", { hun: "물", eum: "수" }],
    ["괘 이름 건", "건", { hun: "괘 이름", eum: "건" }],
    ["값/성 가", "가", { hun: "값/성", eum: "가" }],
    ["벌거벗을 라", "나", { hun: "벌거벗을", eum: "라" }], // the gloss's 음, not the entry's reading
  ])("`%s` is 훈 and 음", (part, reading, hunum) => {
    expect(parseGlossPart(part, reading)).toEqual({ hunum, fromEntry: false });
  });

  test.each([
    ["강할", "강", { hun: "강할", eum: "강" }],
    ["조나라 서울", "감", { hun: "조나라 서울", eum: "감" }], // the last word is not one syllable
    ["밝을,높을", "앙", { hun: "밝을,높을", eum: "앙" }],
  ])("`%s` has no 음 of its own: the entry's reading is its 음", (part, reading, hunum) => {
    expect(parseGlossPart(part, reading)).toEqual({ hunum, fromEntry: true });
  });

  test.each(["歌와 同字", "岡의 俗字", ""])("`%s` names a Han character (a note) or is empty: no 훈음", (part) => {
    expect(parseGlossPart(part, "가")).toBeNull();
  });
});

describe("joinHunum", () => {
  const dictionary = parseHanjaDictionary(
    "hanja.txt",
    ["# notice", "낙:樂:즐길 낙", "락:樂:즐거울 락, 즐길 락", "락:樂:즐길 락", "가:謌:歌와 同字", "수각:水閣:", "강:強:강할", "수:水:물 수"].join("\n"),
  );
  const records = [hanja("樂", ["락", "악"]), hanja("謌", ["가"]), hanja("強", ["강"]), hanja("家", ["가"])];
  const { records: joined, counts } = joinHunum(records, dictionary.entries);

  test("keeps the dictionary's order, a repeat once, a 음 outside the readings; words and characters outside the records are passed over", () => {
    expect(joined.map((r) => r.hunum.map((h) => `${h.hun} ${h.eum}`))).toEqual([["즐길 낙", "즐거울 락", "즐길 락"], [], ["강할 강"], []]);
    expect(joined.map((r) => r.hunum_source)).toEqual([HUNUM_SOURCE, null, HUNUM_SOURCE, null]);
  });

  test("counts what it did", () => {
    expect(counts).toEqual({ characters: 2, education_hanja: 0, name_hanja: 0, hunum: 4, eum_outside_unihan: 1, eum_from_entry: 1, notes_left_out: 1 });
  });
});

describe("the dictionary's notice", () => {
  test("is its leading comment lines without `# `, appended to the terms under its own heading", () => {
    const notice = dictionaryNotice("# Copyright (c) 2005 A\n# \n# 1. Keep it.\n\n가:家:집 가\n");
    expect(notice).toBe("Copyright (c) 2005 A\n\n1. Keep it.\n");
    expect(termsWithDictionaryNotice("# Terms\n\ntext\n", notice)).toBe(
      "# Terms\n\ntext\n\n## libhangul hanja dictionary (the `hunum` field)\n\n```text\nCopyright (c) 2005 A\n\n1. Keep it.\n```\n",
    );
  });
});
