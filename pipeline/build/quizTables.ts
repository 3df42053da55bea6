import type { QuizTables } from "../../runtime/core/data/format.ts";
import type { IdiomRecord } from "../../runtime/core/data/records.ts";
import { lookAlike } from "../../runtime/core/quiz/lookAlike.ts";
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
  const lookalike = idioms.map((idiom, p) =>
    idioms
      .map((other, q) => ({ q, score: outside(p, q) ? lookAlike(idiom, other) : 0 }))
      .filter((c) => c.score > 0)
      .sort((x, y) => y.score - x.score || x.q - y.q)
      .slice(0, HARD_POOL.lookalike)
      .map((c) => c.q),
  );
  const theme = idioms.map((_, p) =>
    idioms
      .map((__, q) => ({ q, score: outside(p, q) ? (scores[p * n + q] ?? 0) : 0 }))
      .filter((c) => c.score > 0)
      .sort((x, y) => y.score - x.score || x.q - y.q)
      .slice(0, HARD_POOL.theme)
      .map((c) => c.q),
  );
  return { group, mature: lists.mature, lookalike, theme };
}
