/**
 * The content lists beside idioms.csv: synonym groups, the reviewed allow-list of close meanings,
 * the idioms withheld from quizzes, and the documented reading exceptions. Each row names an idiom
 * by idx and repeats its hangul, so a mistyped idx is caught rather than silently applied.
 */
import type { IdiomRecord } from "../../runtime/format/records.ts";
import type { CsvRow } from "../load/csvTable.ts";
import type { ReadingException } from "./idioms.ts";

export const GROUP_COLUMNS = ["group", "idx", "hangul"] as const;
export const ALLOWED_COLUMNS = ["idx_a", "hangul_a", "idx_b", "hangul_b", "reason"] as const;
export const MATURE_COLUMNS = ["idx", "hangul", "reason"] as const;
export const EXCEPTION_COLUMNS = ["idx", "character", "reading", "source"] as const;

export type GroupRow = CsvRow<(typeof GROUP_COLUMNS)[number]>;
export type AllowedRow = CsvRow<(typeof ALLOWED_COLUMNS)[number]>;
export type MatureRow = CsvRow<(typeof MATURE_COLUMNS)[number]>;
export type ExceptionRow = CsvRow<(typeof EXCEPTION_COLUMNS)[number]>;

/** File names of the lists in the data folder. */
export const LIST_FILES = {
  groups: "idiom-groups.csv",
  allowed: "similar-meanings-allowed.csv",
  mature: "idioms-withheld.csv",
  exceptions: "reading-exceptions.csv",
  themes: "idiom-themes.csv",
  reviewed: "idiom-pairs-reviewed.csv",
  english: "idioms-en.csv",
} as const;

/** The lists resolved against the idioms: positions in idx order. */
export interface IdiomLists {
  /** Each synonym group's member positions (at least two). */
  groups: number[][];
  /** Reviewed pairs of positions, `"i,j"` with i < j, whose close meanings are not synonyms. */
  allowed: Set<string>;
  /** Positions of the idioms withheld from quizzes and random idioms. */
  mature: number[];
}

/** The key of an unordered pair of positions. */
export function pairKey(i: number, j: number): string {
  return i < j ? `${i},${j}` : `${j},${i}`;
}

/**
 * A lookup of a list row's idiom: its position in `idioms` for an idx whose hangul matches, or
 * undefined after pushing the problem (`file:line: why`) for an unknown idx or a mistyped hangul.
 */
export function idiomFinder(
  idioms: readonly IdiomRecord[],
  problems: string[],
): (file: string, line: number, idxText: string, hangul: string) => number | undefined {
  const positionOf = new Map(idioms.map((idiom, i) => [idiom.idx, i]));
  return (file, line, idxText, hangul) => {
    const position = /^[1-9]\d*$/.test(idxText) ? positionOf.get(Number(idxText)) : undefined;
    if (position === undefined) return void problems.push(`${file}:${line}: no idiom has idx ${JSON.stringify(idxText)}`);
    const idiom = idioms[position] as IdiomRecord;
    if (idiom.hangul !== hangul)
      return void problems.push(`${file}:${line}: idx ${idxText} is ${idiom.hangul} (${idiom.hanja}), not ${JSON.stringify(hangul)}`);
    return position;
  };
}

/** Parses reading-exceptions.csv rows; problems are pushed as `file:line: why`. */
export function readingExceptions(rows: readonly ExceptionRow[], problems: string[]): ReadingException[] {
  return rows.flatMap(({ line, values }) => {
    const idx = Number(values.idx);
    const bad = (why: string) => problems.push(`${LIST_FILES.exceptions}:${line}: ${why}`);
    if (!/^[1-9]\d*$/.test(values.idx)) return (bad(`idx ${JSON.stringify(values.idx)} is not a positive integer`), []);
    if ([...values.character].length !== 1) return (bad(`character ${JSON.stringify(values.character)} is not one character`), []);
    if (!/^[가-힣]$/.test(values.reading)) return (bad(`reading ${JSON.stringify(values.reading)} is not one Hangul syllable`), []);
    if (values.source.trim() === "") return (bad(`idx ${idx}: say which dictionary gives the reading (source)`), []);
    return [{ idx, character: values.character, reading: values.reading }];
  });
}

/**
 * Resolves the groups, the allow-list and the withheld idioms against `idioms`; every bad row is
 * pushed to `problems` (an unknown idx, a hangul that is not that idiom's, an idiom in two
 * groups, a group of one, a pair listed twice or inside one group).
 */
export function resolveIdiomLists(
  idioms: readonly IdiomRecord[],
  rows: { groups: readonly GroupRow[]; allowed: readonly AllowedRow[]; mature: readonly MatureRow[] },
  problems: string[],
): IdiomLists {
  const find = idiomFinder(idioms, problems);

  const members = new Map<string, number[]>();
  const groupOf = new Map<number, string>();
  for (const { line, values } of rows.groups) {
    const position = find(LIST_FILES.groups, line, values.idx, values.hangul);
    if (position === undefined) continue;
    const name = values.group.trim();
    if (name === "") problems.push(`${LIST_FILES.groups}:${line}: the group has no name`);
    const other = groupOf.get(position);
    if (other !== undefined) {
      problems.push(
        `${LIST_FILES.groups}:${line}: ${values.idx} ${values.hangul} is already in group ${JSON.stringify(other)}; an idiom belongs to one group (merge the two)`,
      );
      continue;
    }
    groupOf.set(position, name);
    members.set(name, [...(members.get(name) ?? []), position]);
  }
  for (const [name, list] of members)
    if (list.length < 2)
      problems.push(`${LIST_FILES.groups}: group ${JSON.stringify(name)} has one member; a group holds idioms a reader could take for the same answer`);

  const allowed = new Set<string>();
  for (const { line, values } of rows.allowed) {
    const a = find(LIST_FILES.allowed, line, values.idx_a, values.hangul_a);
    const b = find(LIST_FILES.allowed, line, values.idx_b, values.hangul_b);
    if (a === undefined || b === undefined) continue;
    if (values.reason.trim() === "")
      problems.push(`${LIST_FILES.allowed}:${line}: say why ${values.hangul_a} and ${values.hangul_b} are not the same answer (reason)`);
    if (a === b) problems.push(`${LIST_FILES.allowed}:${line}: pairs an idiom with itself`);
    else if (groupOf.get(a) !== undefined && groupOf.get(a) === groupOf.get(b))
      problems.push(`${LIST_FILES.allowed}:${line}: ${values.hangul_a} and ${values.hangul_b} are both in group ${JSON.stringify(groupOf.get(a))}`);
    else if (allowed.has(pairKey(a, b))) problems.push(`${LIST_FILES.allowed}:${line}: the pair ${values.idx_a}/${values.idx_b} is listed twice`);
    else allowed.add(pairKey(a, b));
  }

  const mature: number[] = [];
  for (const { line, values } of rows.mature) {
    const position = find(LIST_FILES.mature, line, values.idx, values.hangul);
    if (position === undefined) continue;
    if (values.reason.trim() === "") problems.push(`${LIST_FILES.mature}:${line}: say why ${values.hangul} is withheld (reason)`);
    if (!mature.includes(position)) mature.push(position);
  }
  return { groups: [...members.values()].map((list) => list.sort((x, y) => x - y)), allowed, mature: mature.sort((x, y) => x - y) };
}
