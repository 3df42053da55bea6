/**
 * Idiom search for both interfaces (`GET /idioms`, `GET /search`; docs/rules.md "Interface A" and "Interface B"): `q` matches the
 * hanja and the hangul as substrings, the initial consonants when `q` is made only of them
 * (`ㄱㄱㄴㅁ`), and the meaning as full text.
 *
 * Order: exact hanja or hangul first, then prefix matches (hanja, hangul, initial consonants),
 * then other substring matches, then meaning matches by relevance; idx order within each tier.
 */
import { IDIOM_QUERY } from "../../format/searchOptions.ts";
import type { IdiomData } from "../data/load.ts";
import { isChosungQuery } from "../../format/hangul.ts";

const EXACT = 0;
const PREFIX = 1;
const SUBSTRING = 2;

/** Positions of the matching idioms, best first; every idiom in idx order when `q` is empty. */
export function searchIdioms(data: IdiomData, q: string): number[] {
  if (q === "") return data.idioms.map((_, i) => i);
  const compact = q.replace(/\s+/g, "");
  const chosungQuery = isChosungQuery(compact);
  const tiers: number[][] = [[], [], []];
  const matched = new Set<number>();
  data.idioms.forEach((idiom, i) => {
    let tier = -1;
    if (idiom.hanja === compact || idiom.hangul === compact) tier = EXACT;
    else if (idiom.hanja.startsWith(compact) || idiom.hangul.startsWith(compact) || (chosungQuery && idiom.chosung.startsWith(compact))) tier = PREFIX;
    else if (idiom.hanja.includes(compact) || idiom.hangul.includes(compact) || (chosungQuery && idiom.chosung.includes(compact))) tier = SUBSTRING;
    if (tier >= 0) {
      tiers[tier]?.push(i);
      matched.add(i);
    }
  });
  const byMeaning = chosungQuery
    ? []
    : data
        .index()
        .search(q, IDIOM_QUERY)
        .sort((a, b) => b.score - a.score || (a.id as number) - (b.id as number))
        .map((hit) => hit.id as number)
        .filter((i) => !matched.has(i));
  return [...tiers.flat(), ...byMeaning];
}
