/**
 * The review by theme checked against the synonym groups (issue 38), on small inputs: each
 * disagreement names the file, the line and the pair; a data folder without a review is not checked.
 */
import { describe, expect, it } from "vitest";
import { resolveIdiomLists } from "../../pipeline/validate/idiomLists.ts";
import { type ReviewRows, reviewProblems } from "../../pipeline/validate/idiomReview.ts";
import type { IdiomRecord } from "../../runtime/format/records.ts";
import { chosung } from "../../runtime/format/hangul.ts";

const IDIOMS: IdiomRecord[] = (
  [
    ["本末顚倒", "본말전도", "근본과 곁가지가 뒤바뀜"],
    ["主客顚倒", "주객전도", "중요한 것과 사소한 것이 뒤바뀜"],
    ["賊反荷杖", "적반하장", "잘못한 쪽이 도리어 성을 냄"],
    ["羊頭狗肉", "양두구육", "겉과 속이 다른 속임"],
  ] as [string, string, string][]
).map(([hanja, hangul, meaning], i) => ({ idx: i + 1, hanja, hangul, chosung: chosung(hangul), literal: null, meaning }) as IdiomRecord);

const theme = (line: number, name: string, idx: number) => ({ line, values: { theme: name, idx: String(idx), hangul: IDIOMS[idx - 1]?.hangul ?? "" } });
const pair = (line: number, a: number, b: number, decision: string, reason = "풀이가 같음") => ({
  line,
  values: { idx_a: String(a), hangul_a: IDIOMS[a - 1]?.hangul ?? "", idx_b: String(b), hangul_b: IDIOMS[b - 1]?.hangul ?? "", decision, reason },
});
const member = (line: number, group: string, idx: number) => ({ line, values: { group, idx: String(idx), hangul: IDIOMS[idx - 1]?.hangul ?? "" } });

/** Every idiom in theme "순서", 4 also in "속임". */
const THEMES = [theme(2, "순서", 1), theme(3, "순서", 2), theme(4, "순서", 3), theme(5, "순서", 4), theme(6, "속임", 4)];
const GROUPS = [member(2, "뒤바뀜", 1), member(3, "뒤바뀜", 2)];

/** The problems of a review of IDIOMS with these rows (and an allow-list, as resolved pairs). */
function problemsOf(rows: Partial<ReviewRows>, allowed: { idx_a: string; idx_b: string }[] = []): string[] {
  const problems: string[] = [];
  const groupRows = rows.groupRows ?? GROUPS;
  const allowedRows = allowed.map((a, i) => ({
    line: i + 2,
    values: { ...a, hangul_a: IDIOMS[Number(a.idx_a) - 1]?.hangul ?? "", hangul_b: IDIOMS[Number(a.idx_b) - 1]?.hangul ?? "", reason: "다름" },
  }));
  const lists = resolveIdiomLists(IDIOMS, { groups: groupRows, allowed: allowedRows, mature: [] }, problems);
  reviewProblems(IDIOMS, { themeRows: rows.themeRows ?? THEMES, reviewedRows: rows.reviewedRows ?? [], groupRows }, lists, problems);
  return problems;
}

describe("reviewProblems", () => {
  it("accepts a review whose same pairs are the groups and whose different pairs are not", () => {
    expect(problemsOf({ reviewedRows: [pair(2, 1, 2, "same"), pair(3, 2, 3, "different", "적반하장은 남을 탓하는 태도")] })).toEqual([]);
  });

  it("accepts a group linked through a chain of same pairs (not every pair need be listed)", () => {
    const groupRows = [...GROUPS, member(4, "뒤바뀜", 3)];
    expect(problemsOf({ groupRows, reviewedRows: [pair(2, 1, 2, "same"), pair(3, 2, 3, "same")] })).toEqual([]);
  });

  it("names a pair decided same that is in no group, and one the allow-list lets stand together", () => {
    const problems = problemsOf({ groupRows: [], reviewedRows: [pair(7, 1, 2, "same")] }, [{ idx_a: "1", idx_b: "2" }]);
    expect(problems).toEqual([
      'idiom-pairs-reviewed.csv:7: 1 본말전도 / 2 주객전도: decided "same" (a fair teacher would mark both right), but not in one synonym group of idiom-groups.csv',
      'idiom-pairs-reviewed.csv:7: 1 본말전도 / 2 주객전도: decided "same", but similar-meanings-allowed.csv lets them stand together',
    ]);
  });

  it("names a pair decided different that shares a group, and a group member no same pair links", () => {
    expect(problemsOf({ reviewedRows: [pair(4, 1, 2, "different", "다르다고 봄")] })).toEqual([
      'idiom-pairs-reviewed.csv:4: 1 본말전도 / 2 주객전도: decided "different", but both are in one synonym group of idiom-groups.csv',
      'idiom-groups.csv:3: 1 본말전도 / 2 주객전도 share a group, but no chain of pairs decided "same" in idiom-pairs-reviewed.csv links them',
    ]);
  });

  it("names an unknown decision, a missing reason, a pair outside any shared theme, a repeated pair and a self-pair", () => {
    const themeRows = THEMES.filter((row) => row.values.idx !== "4" || row.values.theme === "속임");
    const problems = problemsOf({
      themeRows,
      reviewedRows: [
        pair(2, 1, 2, "same"),
        pair(3, 1, 3, "maybe"),
        pair(4, 2, 3, "different", " "),
        pair(5, 3, 4, "different"),
        pair(6, 2, 1, "same"),
        pair(7, 3, 3, "same"),
      ],
    });
    expect(problems).toEqual([
      'idiom-pairs-reviewed.csv:3: 1 본말전도 / 3 적반하장: decision "maybe" is not one of same, different',
      "idiom-pairs-reviewed.csv:4: 2 주객전도 / 3 적반하장: say why the decision holds (reason)",
      "idiom-pairs-reviewed.csv:5: 3 적반하장 / 4 양두구육: the two share no theme in idiom-themes.csv; a pair is reviewed inside a theme",
      "idiom-pairs-reviewed.csv:6: 2 주객전도 / 1 본말전도: the pair is already decided on line 2",
      "idiom-pairs-reviewed.csv:7: 3 적반하장 / 3 적반하장: pairs an idiom with itself",
    ]);
  });

  it("lists every idiom in no theme, a theme row listed twice, a nameless theme and a mistyped hangul", () => {
    const problems = problemsOf({
      themeRows: [theme(2, "순서", 1), theme(3, "순서", 1), theme(4, " ", 2), { line: 5, values: { theme: "순서", idx: "3", hangul: "적반하짱" } }],
      reviewedRows: [pair(2, 1, 2, "same")],
    });
    expect(problems).toContain('idiom-themes.csv:5: idx 3 is 적반하장 (賊反荷杖), not "적반하짱"');
    expect(problems).toContain('idiom-themes.csv:3: 1 본말전도 is listed twice in theme "순서"');
    expect(problems).toContain("idiom-themes.csv:4: the theme has no name");
    expect(problems).toContain("idiom-themes.csv: 3 idiom(s) in no theme (every idiom is reviewed in one theme at least): 2 주객전도, 3 적반하장, 4 양두구육");
  });

  it("checks nothing when the folder has no review (no theme rows, no reviewed pairs)", () => {
    expect(problemsOf({ themeRows: [], reviewedRows: [] })).toEqual([]);
  });
});
