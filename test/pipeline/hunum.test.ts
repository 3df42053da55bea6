/** Reading 훈음 from the dictionary's glosses (docs/rules.md "훈음"): each shape a gloss part takes, and the join's counts. */
import { describe, expect, test } from "vitest";
import { parseHanjaDictionary } from "../../pipeline/load/hanjaDictionary.ts";
import { parseCsvTable } from "../../pipeline/load/csvTable.ts";
import {
  CORRECTION_COLUMNS,
  HUNUM_FILES,
  type HunumOverlay,
  REPRESENTATIVE_COLUMNS,
  dictionaryNotice,
  joinHunum,
  joinReadings,
  parseGlossPart,
  termsWithDictionaryNotice,
} from "../../pipeline/parse/hunum.ts";
import { InputError } from "../../pipeline/load/types.ts";
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
    expect(counts).toEqual({
      characters: 2,
      education_hanja: 0,
      name_hanja: 0,
      hunum: 4,
      eum_outside_unihan: 1,
      eum_from_entry: 1,
      notes_left_out: 1,
      overlay: { corrected: 0, added: 0, removed: 0, representative: { kept: 0, moved: 0, corrected: 0, added: 0 } },
    });
  });
});

describe("the project's 훈음 overlay: corrections and 대표훈음", () => {
  const dictionary = parseHanjaDictionary(
    "hanja.txt",
    [
      "# notice",
      "답:答:젖을 답, 대답 답",
      "장:帳:휘장 장막 장",
      "궁:宮:굴궐 궁, 집 궁",
      "배:北:달아날 배",
      "북:北:북녘 북",
      "수:水:물 수",
      "엔:円:일본화폐단위 엔",
    ].join("\n"),
  );
  const education = (character: string, readings: string[]) => ({ ...hanja(character, readings), education_hanja: true });
  const records = [
    education("答", ["답"]),
    education("帳", ["장"]),
    education("宮", ["궁"]),
    education("北", ["배", "북"]),
    education("姊", ["자"]),
    hanja("円", ["엔"]),
    hanja("並", ["병"]),
  ];
  const csv = (header: readonly string[], rows: string[]) => [header.join(","), ...rows].join("\n");
  const overlay = (corrections: string[], representative: string[]): HunumOverlay => ({
    corrections: parseCsvTable(HUNUM_FILES.corrections, csv(CORRECTION_COLUMNS, corrections), CORRECTION_COLUMNS),
    representative: parseCsvTable(HUNUM_FILES.representative, csv(REPRESENTATIVE_COLUMNS, representative), REPRESENTATIVE_COLUMNS),
  });
  const good = overlay(
    [
      "帳,휘장 장막 장,휘장 장,two 훈 run together",
      "帳,,장막 장,the second 훈",
      "宮,굴궐 궁,대궐 궁,misspelt",
      "円,일본화폐단위 엔,,another country's use",
      "並,,나란히 병,missing",
    ],
    [
      "答,대답,답,moved,젖을 is rare",
      "帳,휘장,장,corrected,run together",
      "宮,집,궁,moved,textbooks",
      "北,북녘,북,moved,배 is rare",
      "姊,손윗누이,자,added,none",
    ],
  );
  const { records: joined, counts } = joinHunum(records, dictionary.entries, good);
  const hunumOf = (character: string) => joined.find((r) => r.character === character)?.hunum.map((h) => `${h.hun} ${h.eum}${h.representative ? " *" : ""}`);

  test("puts an education hanja's 대표훈음 first, marked, once; the rest keep the dictionary's order with the corrections applied", () => {
    expect(hunumOf("答")).toEqual(["대답 답 *", "젖을 답"]);
    expect(hunumOf("北")).toEqual(["북녘 북 *", "달아날 배"]);
    expect(hunumOf("帳")).toEqual(["휘장 장 *", "장막 장"]);
    expect(hunumOf("宮")).toEqual(["집 궁 *", "대궐 궁"]);
    expect(hunumOf("姊")).toEqual(["손윗누이 자 *"]);
    // Not an education hanja: no 대표훈음; a correction adds the only 훈음 of 並 and removes 円's.
    expect(hunumOf("並")).toEqual(["나란히 병"]);
    expect(hunumOf("円")).toEqual([]);
    expect(joined.find((r) => r.character === "円")?.hunum_source).toBeNull();
  });

  test("counts the corrections by kind and the 대표훈음 by change", () => {
    expect(counts.overlay).toEqual({ corrected: 2, added: 2, removed: 1, representative: { kept: 0, moved: 3, corrected: 1, added: 1 } });
    expect(counts.characters).toBe(6);
  });

  test("`reading` is the 대표훈음's 음, else the reading the words use most, else the first that is no other's initial-sound form", () => {
    const words = [
      { hanja: "北京", readings: ["북경"], note: null },
      { hanja: "敗北", readings: ["패배"], note: null },
      { hanja: "敗北北", readings: ["패배배"], note: null },
      { hanja: "樂園", readings: ["낙원"], note: null },
    ];
    const read = joinReadings([...joined, hanja("樂", ["낙", "락", "악"]), hanja("龍", ["룡", "용"])], words);
    expect(Object.fromEntries(read.map((r) => [r.character, r.reading]))).toMatchObject({ 北: "북", 答: "답", 並: "병", 樂: "락", 龍: "룡" });
  });

  const problem = (corrections: string[], representative: string[] = []) => {
    try {
      joinHunum(records, dictionary.entries, overlay(corrections, representative));
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      return (error as Error).message;
    }
    return "no error";
  };

  test.each([
    [["水水,물 수,물 수,x"], `${HUNUM_FILES.corrections}:2: character "水水" is not in the character dataset`],
    [["x,,물 수,x"], `${HUNUM_FILES.corrections}:2: character "x" is not in the character dataset`],
    [["宮,궁궐 궁,대궐 궁,x"], `${HUNUM_FILES.corrections}:2: 宮: as_given "궁궐 궁" is not one of its 훈음 in the dictionary (굴궐 궁, 집 궁)`],
    [["姊,손위 누이 자,,x"], `${HUNUM_FILES.corrections}:2: 姊: as_given "손위 누이 자" is not one of its 훈음 in the dictionary (none)`],
    [["宮,굴궐 궁,대궐궁,x"], `${HUNUM_FILES.corrections}:2: 宮: corrected "대궐궁" is not of the form "훈 음" ("대궐 궁")`],
    [["宮,굴궐 궁,大궐 궁,x"], `${HUNUM_FILES.corrections}:2: 宮: corrected "大궐 궁" is not of the form "훈 음" ("대궐 궁")`],
    [["宮,,,x"], `${HUNUM_FILES.corrections}:2: 宮: as_given and corrected are both empty`],
    [["宮,굴궐 궁,대궐 궁,x", "宮,굴궐 궁,,x"], `${HUNUM_FILES.corrections}:3: 宮: "굴궐 궁" repeats line 2`],
  ])("a bad correction fails naming file, line and value: %j", (rows, message) => {
    expect(problem(rows)).toContain(message);
  });

  const allFive = ["答,대답,답,moved,x", "帳,휘장,장,added,x", "宮,집,궁,moved,x", "北,북녘,북,moved,x", "姊,손윗누이,자,added,x"];
  test.each([
    [["並,나란히,병,added,x"], `${HUNUM_FILES.representative}:7: character "並" is not one of the education hanja in the character dataset`],
    [["答,대답,답,kept,x"], `${HUNUM_FILES.representative}:7: 答: change "kept", but "대답 답" is number 2 of its 훈음 in the dictionary (젖을 답, 대답 답)`],
    [["答,젖을,답,moved,x"], `${HUNUM_FILES.representative}:7: 答: change "moved", but "젖을 답" is number 1 of its 훈음`],
    [["答,대답,답,first,x"], `${HUNUM_FILES.representative}:7: 答: change "first" is not one of kept, moved, corrected, added`],
    [["答,대답,답 답,moved,x"], `${HUNUM_FILES.representative}:7: 答: hun "대답" and eum "답 답" are not a 훈 and a one-syllable 음`],
    [["答,대답,답,moved,x"], `${HUNUM_FILES.representative}:7: 答 repeats line 2`],
  ])("a bad 대표훈음 fails naming file, line and value: %j", (rows, message) => {
    expect(problem([], [...allFive, ...rows])).toContain(message);
  });

  test("an education hanja without a 대표훈음 fails the build, naming it", () => {
    expect(problem([], allFive.slice(1))).toContain(`${HUNUM_FILES.representative}: 1 education hanja without a row: 答`);
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
