/**
 * One right answer: every pair of meanings is compared (see `meaningSimilarity`), and a close
 * pair must be either in one synonym group (never each other's distractors) or on the reviewed
 * allow-list (read by an editor and judged to be different answers).
 */
import type { IdiomRecord } from "../../runtime/format/records.ts";
import { type IdiomLists, LIST_FILES, pairKey } from "./idiomLists.ts";
import { scoreMatrix } from "./meaningSimilarity.ts";

/**
 * Scores at or above this are close. Calibrated on the 910 meanings: it flags every named
 * near-synonym pair (6/337, 774/775, 662/675) and leaves a list short enough to review by hand.
 */
export const CLOSE_MEANING = 0.17;

/** A pair of idioms (positions) whose meanings score at least `CLOSE_MEANING`. */
export interface ClosePair {
  a: number;
  b: number;
  score: number;
  shared: string[];
}

/** The text the measure compares for an idiom: its meaning. */
export function comparedText(idiom: IdiomRecord): string {
  return idiom.literal === null ? idiom.meaning : `${idiom.literal} ${idiom.meaning}`;
}

/** The scores of every pair of the idioms' compared texts. */
export function meaningScores(idioms: readonly IdiomRecord[]): ReturnType<typeof scoreMatrix> {
  return scoreMatrix(idioms.map(comparedText));
}

/** Every close pair, closest first. */
export function closePairs(matrix: ReturnType<typeof scoreMatrix>, threshold = CLOSE_MEANING): ClosePair[] {
  const { n, scores, similarity } = matrix;
  const pairs: ClosePair[] = [];
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const score = scores[a * n + b] ?? 0;
      if (score >= threshold) pairs.push({ a, b, score, shared: similarity.shared(a, b) });
    }
  }
  return pairs.sort((x, y) => y.score - x.score || x.a - y.a || x.b - y.b);
}

/**
 * The problems of the close pairs that are neither grouped nor allowed, and of allow-list entries
 * no longer close (so the list stays what was reviewed). `lineOf` gives each idx's line in `file`.
 */
export function closeMeaningProblems(
  idioms: readonly IdiomRecord[],
  matrix: ReturnType<typeof scoreMatrix>,
  lists: IdiomLists,
  lineOf: ReadonlyMap<number, number>,
  file = "idioms.csv",
): string[] {
  const groupOf = new Map<number, number>();
  lists.groups.forEach((members, g) => members.forEach((p) => groupOf.set(p, g)));
  const problems: string[] = [];
  const close = new Set<string>();
  const name = (p: number) => `${idioms[p]?.idx} ${idioms[p]?.hangul}`;
  for (const { a, b, score, shared } of closePairs(matrix)) {
    close.add(pairKey(a, b));
    if (groupOf.get(a) !== undefined && groupOf.get(a) === groupOf.get(b)) continue;
    if (lists.allowed.has(pairKey(a, b))) continue;
    const [ia, ib] = [idioms[a] as IdiomRecord, idioms[b] as IdiomRecord];
    problems.push(
      `${file}:${lineOf.get(ia.idx)}/${lineOf.get(ib.idx)}: the meanings of ${name(a)} and ${name(b)} are close ` +
        `(IDF-weighted bigram Dice ${score.toFixed(2)} ≥ ${CLOSE_MEANING}; shared ${shared.slice(0, 6).join(" ")}): ` +
        `${JSON.stringify(ia.meaning)} / ${JSON.stringify(ib.meaning)}; group them in ${LIST_FILES.groups}, or add the pair to ${LIST_FILES.allowed} with the reason a reader could not take one for the other`,
    );
  }
  for (const key of lists.allowed) {
    if (close.has(key)) continue;
    const [a, b] = key.split(",").map(Number) as [number, number];
    problems.push(`${LIST_FILES.allowed}: ${name(a)} / ${name(b)} are no longer close (below ${CLOSE_MEANING}); remove the pair`);
  }
  return problems;
}
