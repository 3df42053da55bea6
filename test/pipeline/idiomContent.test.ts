/**
 * The content checks of issue 26 on small inputs: giveaway meanings, reading exceptions, the lists
 * beside idioms.csv, the close-meaning check and the quiz tables made from them. Each failure names
 * the file, the line and the value, and every offender is listed, not only the first.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildQuizTables } from "../../pipeline/build/quizTables.ts";
import { InputError } from "../../pipeline/load/types.ts";
import { CLOSE_MEANING, closeMeaningProblems, meaningScores } from "../../pipeline/validate/closeMeanings.ts";
import { giveaways } from "../../pipeline/validate/giveaways.ts";
import { validateIdiomContent } from "../../pipeline/validate/idiomContent.ts";
import { type IdiomLists, resolveIdiomLists } from "../../pipeline/validate/idiomLists.ts";
import type { IdiomRow } from "../../pipeline/validate/idioms.ts";
import { meaningSimilarity } from "../../pipeline/validate/meaningSimilarity.ts";
import type { IdiomRecord } from "../../runtime/format/records.ts";
import { chosung } from "../../runtime/format/hangul.ts";
import { characters } from "./helpers.ts";

const CHARS = characters(
  "一:일",
  "石:석",
  "二:이",
  "鳥:조",
  "擧:거",
  "兩:양", // its ㅇ form alone (Unihan gives 량 and 양): these idioms are not about the initial-sound law
  "得:득",
  "進:진",
  "退:퇴",
  "難:난",
  "維:유",
  "谷:곡",
  "琴:금",
  "瑟:슬",
  "之:지",
  "樂:락 악 요",
);

const row = (line: number, idx: string, hanja: string, hangul: string, meaning: string, literal = ""): IdiomRow => ({
  line,
  values: { idx, hanja, hangul, literal, meaning },
});
const record = (idx: number, hanja: string, hangul: string, meaning: string, literal: string | null = null): IdiomRecord => ({
  idx,
  hanja,
  hangul,
  chosung: chosung(hangul),
  literal,
  meaning,
  meaning_en: null,
});
const csv = <K extends string>(line: number, values: Record<K, string>) => ({ line, values });

/** The message of the InputError `run` throws. */
function failure(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error("expected the content to be rejected");
}

const NO_LISTS = { groupRows: [], allowedRows: [], matureRows: [], exceptionRows: [] };

describe("giveaways", () => {
  it("names the idiom's own hanja, its consecutive syllables and a literal lead-in", () => {
    expect(giveaways("空中樓閣", "공중누각", "공중에 떠 있는 누각")).toEqual(['contains two consecutive syllables of its hangul: "공중", "누각"']);
    expect(giveaways("一石二鳥", "일석이조", "돌 하나(石)로 두 이득")).toEqual(["contains its own hanja 石"]);
    for (const lead of [
      "돌 하나로 새 두 마리를 잡는다는 뜻으로, 한 번에 두 이득",
      "말을 타지 않아 살이 찐 데서, 세월만 보냄",
      "맏형과 둘째처럼, 우열이 없음",
      "권세도 오래가지 못한다는 말로, 권력의 덧없음",
    ]) {
      const found = giveaways("一石二鳥", "일석이조", lead);
      expect(found, lead).toHaveLength(1);
      expect(found[0]).toBe(`opens with a literal reading ("${lead.slice(0, lead.indexOf(",") + 1)}"); move it to literal`);
    }
  });

  it("lets through a clean meaning, a syllable pair split by a space, and 처럼 or 듯 inside a clause", () => {
    expect(giveaways("一石二鳥", "일석이조", "한 번의 수고로 두 가지 성과를 동시에 거둠을 이르는 말")).toEqual([]);
    expect(giveaways("進退兩難", "진퇴양난", "나아갈 진 퇴로도 없음")).toEqual([]);
    expect(giveaways("一石二鳥", "일석이조", "꿈처럼 덧없이 사라짐")).toEqual([]);
  });

  it("never throws on arbitrary text", () => {
    fc.assert(fc.property(fc.string(), fc.string(), fc.string(), (hanja, hangul, meaning) => Array.isArray(giveaways(hanja, hangul, meaning))));
  });
});

describe("validateIdiomContent", () => {
  it("lists every giveaway offender with file, line and value, beside the other rules", () => {
    const message = failure(() =>
      validateIdiomContent(
        {
          ...NO_LISTS,
          idiomRows: [
            row(2, "1", "一石二鳥", "일석이조", "돌 하나로 새 두 마리를 잡는다는 뜻으로, 일석이조의 이득", "돌 하나로 새 두 마리"),
            row(3, "2", "一擧兩得", "일거양득", "한 번 擧 들어 둘을 얻음"),
            row(4, "3", "進退兩難", "진퇴양난", " 나아가기도 물러서기도 어려움"),
          ],
        },
        CHARS,
      ),
    );
    expect(message).toContain(
      'idioms.csv:2: meaning of 1 一石二鳥 일석이조 contains two consecutive syllables of its hangul: "일석", "석이", "이조": "돌 하나로 새 두 마리를 잡는다는 뜻으로, 일석이조의 이득"',
    );
    expect(message).toContain(
      'idioms.csv:2: meaning of 1 一石二鳥 일석이조 opens with a literal reading ("돌 하나로 새 두 마리를 잡는다는 뜻으로,"); move it to literal: ',
    );
    expect(message).toContain('idioms.csv:3: meaning of 2 一擧兩得 일거양득 contains its own hanja 擧: "한 번 擧 들어 둘을 얻음"');
    expect(message).toContain("idioms.csv:4: meaning has leading or trailing spaces");
  });

  it("returns the idioms with literal (null when empty) and the quiz tables", () => {
    const { idioms, quiz } = validateIdiomContent(
      {
        ...NO_LISTS,
        idiomRows: [
          row(2, "1", "一石二鳥", "일석이조", "한 번의 수고로 두 가지 성과를 거둠", "돌 하나로 새 두 마리를 잡음"),
          row(3, "2", "進退兩難", "진퇴양난", "이러지도 저러지도 못하는 처지"),
        ],
      },
      CHARS,
    );
    expect(idioms.map((i) => i.literal)).toEqual(["돌 하나로 새 두 마리를 잡음", null]);
    expect(quiz).toEqual({ group: [[], []], mature: [], lookalike: [[], []], theme: [[], []] });
  });

  it("accepts a documented reading outside kHangul only for that idiom, character and reading; reports an unused or malformed exception", () => {
    const rows = [row(2, "1", "琴瑟之樂", "금실지락", "부부 사이가 다정하고 화목한 즐거움")];
    const exception = csv(2, { idx: "1", character: "瑟", reading: "실", source: "표준국어대사전" });
    expect(validateIdiomContent({ ...NO_LISTS, idiomRows: rows, exceptionRows: [exception] }, CHARS).idioms[0]?.hangul).toBe("금실지락");
    expect(failure(() => validateIdiomContent({ ...NO_LISTS, idiomRows: rows }, CHARS))).toContain(
      "idioms.csv:2: 실 is not a reading of 瑟 (슬) in 琴瑟之樂 금실지락",
    );
    const wrongIdx = csv(2, { idx: "2", character: "瑟", reading: "실", source: "표준국어대사전" });
    const message = failure(() =>
      validateIdiomContent(
        {
          ...NO_LISTS,
          idiomRows: rows,
          exceptionRows: [
            wrongIdx,
            csv(3, { idx: "1", character: "瑟瑟", reading: "실", source: "x" }),
            csv(4, { idx: "1", character: "瑟", reading: "실", source: " " }),
          ],
        },
        CHARS,
      ),
    );
    expect(message).toContain("idioms.csv:2: 실 is not a reading of 瑟");
    expect(message).toContain("reading-exceptions.csv: 2 瑟 실 is not used by idioms.csv");
    expect(message).toContain('reading-exceptions.csv:3: character "瑟瑟" is not one character');
    expect(message).toContain("reading-exceptions.csv:4: idx 1: say which dictionary gives the reading (source)");
  });

  it("fails on a close pair that is neither grouped nor allowed, naming both lines, the measure, the score and the texts", () => {
    // Two unrelated idioms beside the pair, so that the pair's shared bigrams are rare in the list.
    const idiomRows = [
      row(2, "1", "一擧兩得", "일거양득", "한 가지 일로 두 가지 이익을 함께 챙김을 이르는 말", "한 번 들어 둘을 얻음"),
      row(3, "2", "一石二鳥", "일석이조", "한 가지 일로 두 가지 이익을 동시에 거둠을 이르는 말", "돌 하나로 새 두 마리를 잡음"),
      row(4, "3", "進退兩難", "진퇴양난", "이러지도 저러지도 못하는 난처한 처지"),
      row(5, "4", "琴瑟之樂", "금슬지락", "부부 사이가 다정하고 화목한 즐거움"),
    ];
    const message = failure(() => validateIdiomContent({ ...NO_LISTS, idiomRows }, CHARS));
    expect(message).toMatch(
      /^idiom content: 1 problem\(s\):\n {2}idioms\.csv:2\/3: the meanings of 1 일거양득 and 2 일석이조 are close \(IDF-weighted bigram Dice 0\.\d\d ≥ 0\.17; shared .+\): "한 가지 일로/,
    );
    expect(message).toContain("group them in idiom-groups.csv, or add the pair to similar-meanings-allowed.csv");
    const grouped = [csv(2, { group: "두 이득", idx: "1", hangul: "일거양득" }), csv(3, { group: "두 이득", idx: "2", hangul: "일석이조" })];
    expect(validateIdiomContent({ ...NO_LISTS, idiomRows, groupRows: grouped }, CHARS).quiz.group).toEqual([[1], [0], [], []]);
    const allowed = [csv(2, { idx_a: "1", hangul_a: "일거양득", idx_b: "2", hangul_b: "일석이조", reason: "(for the test)" })];
    expect(validateIdiomContent({ ...NO_LISTS, idiomRows, allowedRows: allowed }, CHARS).idioms).toHaveLength(4);
  });
});

describe("resolveIdiomLists", () => {
  const idioms = [
    record(1, "一石二鳥", "일석이조", "가"),
    record(2, "一擧兩得", "일거양득", "나"),
    record(3, "進退兩難", "진퇴양난", "다"),
    record(4, "進退維谷", "진퇴유곡", "라"),
  ];
  const resolve = (rows: Partial<Parameters<typeof resolveIdiomLists>[1]>) => {
    const problems: string[] = [];
    const lists = resolveIdiomLists(idioms, { groups: [], allowed: [], mature: [], ...rows }, problems);
    return { lists, problems };
  };

  it("resolves groups, allowed pairs and withheld idioms to positions", () => {
    const { lists, problems } = resolve({
      groups: [csv(2, { group: "a", idx: "4", hangul: "진퇴유곡" }), csv(3, { group: "a", idx: "3", hangul: "진퇴양난" })],
      allowed: [csv(2, { idx_a: "2", hangul_a: "일거양득", idx_b: "1", hangul_b: "일석이조", reason: "r" })],
      mature: [csv(2, { idx: "2", hangul: "일거양득", reason: "r" })],
    });
    expect(problems).toEqual([]);
    expect(lists).toEqual({ groups: [[2, 3]], allowed: new Set(["0,1"]), mature: [1] });
  });

  it("lists every bad row: unknown idx, another idiom's hangul, an idiom in two groups, a group of one, a pair twice or inside a group, no reason", () => {
    const { problems } = resolve({
      groups: [
        csv(2, { group: "a", idx: "9", hangul: "일석이조" }),
        csv(3, { group: "a", idx: "1", hangul: "일거양득" }),
        csv(4, { group: "b", idx: "3", hangul: "진퇴양난" }),
        csv(5, { group: "b", idx: "4", hangul: "진퇴유곡" }),
        csv(6, { group: "c", idx: "4", hangul: "진퇴유곡" }),
        csv(7, { group: "d", idx: "2", hangul: "일거양득" }),
      ],
      allowed: [
        csv(2, { idx_a: "1", hangul_a: "일석이조", idx_b: "2", hangul_b: "일거양득", reason: "r" }),
        csv(3, { idx_a: "2", hangul_a: "일거양득", idx_b: "1", hangul_b: "일석이조", reason: "r" }),
        csv(4, { idx_a: "3", hangul_a: "진퇴양난", idx_b: "4", hangul_b: "진퇴유곡", reason: "" }),
      ],
      mature: [csv(2, { idx: "x", hangul: "일석이조", reason: "r" })],
    });
    expect(problems).toEqual([
      'idiom-groups.csv:2: no idiom has idx "9"',
      'idiom-groups.csv:3: idx 1 is 일석이조 (一石二鳥), not "일거양득"',
      'idiom-groups.csv:6: 4 진퇴유곡 is already in group "b"; an idiom belongs to one group (merge the two)',
      'idiom-groups.csv: group "d" has one member; a group holds idioms a reader could take for the same answer',
      "similar-meanings-allowed.csv:3: the pair 2/1 is listed twice",
      "similar-meanings-allowed.csv:4: say why 진퇴양난 and 진퇴유곡 are not the same answer (reason)",
      'similar-meanings-allowed.csv:4: 진퇴양난 and 진퇴유곡 are both in group "b"',
      'idioms-withheld.csv:2: no idiom has idx "x"',
    ]);
  });
});

describe("the close-meaning measure", () => {
  it("is 1 for the same text, 0 for texts sharing no bigram, symmetric, and ignores spaces, punctuation and the stock ending", () => {
    const s = meaningSimilarity(["두 가지 이익을 얻음을 이르는 말", "두가지 이익을, 얻음", "하늘이 높고 말이 살찜", "두 가지 이익을 얻음"]);
    expect(s.score(0, 1)).toBeCloseTo(1, 10);
    expect(s.score(0, 3)).toBeCloseTo(1, 10);
    expect(s.score(0, 2)).toBe(0);
    expect(s.score(2, 0)).toBe(s.score(0, 2));
    expect(s.shared(0, 1)).toContain("이익");
  });

  it("reports an allowed pair that is no longer close", () => {
    const idioms = [record(1, "一石二鳥", "일석이조", "하늘이 높고 말이 살찜"), record(2, "一擧兩得", "일거양득", "두 가지 이익을 얻음")];
    const lists: IdiomLists = { groups: [], allowed: new Set(["0,1"]), mature: [] };
    expect(closeMeaningProblems(idioms, meaningScores(idioms), lists, new Map())).toEqual([
      `similar-meanings-allowed.csv: 1 일석이조 / 2 일거양득 are no longer close (below ${CLOSE_MEANING}); remove the pair`,
    ]);
  });
});

describe("buildQuizTables", () => {
  const idioms = [
    record(1, "一石二鳥", "일석이조", "한 번의 수고로 두 가지 성과를 거둠"),
    record(2, "一擧兩得", "일거양득", "한 가지 일로 두 가지 이익을 챙김"),
    record(3, "進退兩難", "진퇴양난", "이러지도 저러지도 못하는 처지"),
    record(4, "進退維谷", "진퇴유곡", "꼼짝할 수 없는 궁지에 몰림"),
    record(5, "琴瑟之樂", "금실지락", "부부 사이가 다정하고 화목한 즐거움"),
  ];
  const tables = buildQuizTables(idioms, { groups: [[2, 3]], allowed: new Set(), mature: [4] }, meaningScores(idioms));

  it("gives each idiom its group, and pools without itself or its group, most alike first", () => {
    expect(tables.group).toEqual([[], [], [3], [2], []]);
    expect(tables.mature).toEqual([4]);
    // 一石二鳥 and 一擧兩得 share 一 and 일; 進退兩難 shares 兩 with 一擧兩得 but its group-mate 進退維谷 is never its pool.
    expect(tables.lookalike[0]).toEqual([1]);
    expect(tables.lookalike[1]).toEqual([0, 2]);
    expect(tables.lookalike[2]).toEqual([1]);
    expect(tables.lookalike[3]).toEqual([]);
    for (let p = 0; p < idioms.length; p++) {
      for (const pool of [tables.lookalike[p], tables.theme[p]]) {
        expect(pool).not.toContain(p);
        for (const q of tables.group[p] ?? []) expect(pool).not.toContain(q);
      }
    }
    expect(tables.theme[0]?.[0]).toBe(1);
  });
});
