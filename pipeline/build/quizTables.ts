import type { QuizTables } from "../../runtime/format/dist.ts";
import type { IdiomRecord } from "../../runtime/format/records.ts";
import { lookAlike } from "./lookAlike.ts";
import type { IdiomLists } from "../validate/idiomLists.ts";
import type { scoreMatrix } from "../validate/meaningSimilarity.ts";

/** How many look-alikes, and how many closest meanings, a hard quiz draws its distractors from. */
export const HARD_POOL = { lookalike: 24, theme: 16 } as const;

/**
 * What quizzes draw distractors from (see `QuizTables`): each idiom's synonym group, the withheld
 * idioms, and its hard-distractor pools. An idiom's pools never hold a member of its group.
 */
export function buildQuizTables(idioms: readonly IdiomRecord[], lists: IdiomLists, matrix: ReturnType<typeof scoreMatrix>): QuizTables {
  const group: number[][] = idioms.map(() => []);
  for (const members of lists.groups) for (const p of members) group[p] = members.filter((q) => q !== p);
  const outside = (p: number, q: number) => q !== p && !(group[p] as number[]).includes(q) && idioms[q]?.hanja !== idioms[p]?.hanja;
  const { n, scores } = matrix;
  // Only idioms sharing a character, a syllable or the first two initials can look alike: the
  // candidates of each idiom come from an index of those keys, not from every other idiom.
  const byKey = new Map<string, number[]>();
  const keysOf = idioms.map((idiom) => new Set([...idiom.hanja, ...idiom.hangul, `^${idiom.chosung.slice(0, 2)}`]));
  keysOf.forEach((keys, q) => {
    for (const key of keys) {
      const list = byKey.get(key);
      if (list) list.push(q);
      else byKey.set(key, [q]);
    }
  });
  const lookalike = idioms.map((idiom, p) => {
    const candidates = new Set<number>();
    for (const key of keysOf[p] ?? []) for (const q of byKey.get(key) ?? []) candidates.add(q);
    return ranked(
      [...candidates].filter((q) => outside(p, q)).map((q) => ({ q, score: lookAlike(idiom, idioms[q] as IdiomRecord) })),
      HARD_POOL.lookalike,
    );
  });
  const theme = idioms.map((_, p) => {
    // The best HARD_POOL.theme so far, kept sorted; most scores never enter it.
    const best: { q: number; score: number }[] = [];
    for (let q = 0; q < n; q++) {
      const score = scores[p * n + q] ?? 0;
      if (score <= 0 || (best.length === HARD_POOL.theme && score <= (best.at(-1)?.score ?? 0)) || !outside(p, q)) continue;
      best.push({ q, score });
      best.sort((x, y) => y.score - x.score || x.q - y.q);
      if (best.length > HARD_POOL.theme) best.pop();
    }
    return best.map((c) => c.q);
  });
  return { group, mature: lists.mature, lookalike, theme };
}

/** The `size` best candidates with a positive score, best first (ties by position). */
function ranked(candidates: { q: number; score: number }[], size: number): number[] {
  return candidates
    .filter((c) => c.score > 0)
    .sort((x, y) => y.score - x.score || x.q - y.q)
    .slice(0, size)
    .map((c) => c.q);
}
