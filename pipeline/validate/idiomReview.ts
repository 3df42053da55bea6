/**
 * The review of every idiom against the others, by theme (docs/rules.md "One right answer"):
 * idiom-themes.csv puts each idiom in one theme or more; idiom-pairs-reviewed.csv records, for the
 * close pairs an editor found inside a theme, whether a fair teacher would mark both right
 * (`same`) or not (`different`), and why. The synonym groups must agree with it: a pair decided
 * `same` is in one group, a pair decided `different` is not, and the members of every group are
 * linked by pairs decided `same`, so no group holds an idiom nobody reviewed as a synonym.
 */
import type { IdiomRecord } from "../../runtime/format/records.ts";
import type { CsvRow } from "../load/csvTable.ts";
import { type GroupRow, type IdiomLists, LIST_FILES, idiomFinder, pairKey } from "./idiomLists.ts";

export const THEME_COLUMNS = ["theme", "idx", "hangul"] as const;
export const REVIEWED_COLUMNS = ["idx_a", "hangul_a", "idx_b", "hangul_b", "decision", "reason"] as const;
export type ThemeRow = CsvRow<(typeof THEME_COLUMNS)[number]>;
export type ReviewedRow = CsvRow<(typeof REVIEWED_COLUMNS)[number]>;

/** The decisions a reviewed pair may carry. */
export const DECISIONS = ["same", "different"] as const;

/** The review and the groups it is checked against, as parsed rows. */
export interface ReviewRows {
  themeRows: readonly ThemeRow[];
  reviewedRows: readonly ReviewedRow[];
  groupRows: readonly GroupRow[];
}

/** Finds the components of a graph over positions 0…n-1 (union by root, path halving). */
function components(n: number): { join(a: number, b: number): void; root(a: number): number } {
  const parent = Array.from({ length: n }, (_, i) => i);
  const root = (a: number): number => {
    let x = a;
    while (parent[x] !== x) {
      parent[x] = parent[parent[x] as number] as number;
      x = parent[x] as number;
    }
    return x;
  };
  return { root, join: (a, b) => void (parent[root(a)] = root(b)) };
}

/**
 * Checks the review against `idioms` and the resolved `lists`, pushing every problem as
 * `file:line: why` naming the pair. A data folder without a review (no theme rows and no reviewed
 * pairs) is not checked: small test inputs have none; the project's own data always has one.
 */
export function reviewProblems(idioms: readonly IdiomRecord[], rows: ReviewRows, lists: IdiomLists, problems: string[]): void {
  if (rows.themeRows.length === 0 && rows.reviewedRows.length === 0) return;
  const find = idiomFinder(idioms, problems);
  const name = (p: number) => `${idioms[p]?.idx} ${idioms[p]?.hangul}`;

  const themesOf: Set<string>[] = idioms.map(() => new Set());
  for (const { line, values } of rows.themeRows) {
    const position = find(LIST_FILES.themes, line, values.idx, values.hangul);
    if (position === undefined) continue;
    const theme = values.theme.trim();
    const themes = themesOf[position] as Set<string>;
    if (theme === "") problems.push(`${LIST_FILES.themes}:${line}: the theme has no name`);
    else if (themes.has(theme)) problems.push(`${LIST_FILES.themes}:${line}: ${name(position)} is listed twice in theme ${JSON.stringify(theme)}`);
    else themes.add(theme);
  }
  const unthemed = idioms.flatMap((_, p) => ((themesOf[p] as Set<string>).size === 0 ? [name(p)] : []));
  if (unthemed.length > 0)
    problems.push(`${LIST_FILES.themes}: ${unthemed.length} idiom(s) in no theme (every idiom is reviewed in one theme at least): ${unthemed.join(", ")}`);

  const groupOf = new Map<number, number>();
  lists.groups.forEach((members, g) => members.forEach((p) => groupOf.set(p, g)));
  const sameGroup = (a: number, b: number) => groupOf.get(a) !== undefined && groupOf.get(a) === groupOf.get(b);
  const linked = components(idioms.length);
  const seen = new Map<string, number>();
  for (const { line, values } of rows.reviewedRows) {
    const a = find(LIST_FILES.reviewed, line, values.idx_a, values.hangul_a);
    const b = find(LIST_FILES.reviewed, line, values.idx_b, values.hangul_b);
    if (a === undefined || b === undefined) continue;
    const bad = (why: string) => problems.push(`${LIST_FILES.reviewed}:${line}: ${name(a)} / ${name(b)}: ${why}`);
    const decision = values.decision.trim();
    if (a === b) {
      bad("pairs an idiom with itself");
      continue;
    }
    const key = pairKey(a, b);
    if (seen.has(key)) bad(`the pair is already decided on line ${seen.get(key)}`);
    seen.set(key, line);
    if (values.reason.trim() === "") bad("say why the decision holds (reason)");
    if (![...(themesOf[a] as Set<string>)].some((theme) => (themesOf[b] as Set<string>).has(theme)))
      bad(`the two share no theme in ${LIST_FILES.themes}; a pair is reviewed inside a theme`);
    if (decision === "same") {
      linked.join(a, b);
      if (!sameGroup(a, b)) bad(`decided "same" (a fair teacher would mark both right), but not in one synonym group of ${LIST_FILES.groups}`);
      if (lists.allowed.has(key)) bad(`decided "same", but ${LIST_FILES.allowed} lets them stand together`);
    } else if (decision === "different") {
      if (sameGroup(a, b)) bad(`decided "different", but both are in one synonym group of ${LIST_FILES.groups}`);
    } else bad(`decision ${JSON.stringify(values.decision)} is not one of ${DECISIONS.join(", ")}`);
  }

  // Every member of a group must be linked to the group's first member through pairs decided
  // "same" (directly or through other members): a group is the review's verdict, not a guess.
  const firstLine = new Map<number, number>();
  // Bad group rows were reported by resolveIdiomLists already: this lookup stays quiet.
  const quietFind = idiomFinder(idioms, []);
  for (const { line, values } of rows.groupRows) {
    const position = quietFind(LIST_FILES.groups, line, values.idx, values.hangul);
    if (position !== undefined && !firstLine.has(position)) firstLine.set(position, line);
  }
  for (const members of lists.groups) {
    const [head, ...rest] = members as [number, ...number[]];
    for (const p of rest)
      if (linked.root(p) !== linked.root(head))
        problems.push(
          `${LIST_FILES.groups}:${firstLine.get(p)}: ${name(head)} / ${name(p)} share a group, but no chain of pairs decided "same" in ${LIST_FILES.reviewed} links them`,
        );
  }
}
