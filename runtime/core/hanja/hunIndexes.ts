/** The maps search by 훈 reads (docs/rules.md "Interface A"), made once from `Tables.hunum`. */
import { HUNUM_SEPARATORS } from "../../format/dist.ts";

/** What search by 훈 looks up; positions are listed once each, in record order. */
export interface HunIndexes {
  /** `훈 음` → positions. */
  byHunum: Map<string, number[]>;
  /** 훈 → positions. */
  byHun: Map<string, number[]>;
  /** Each record's 훈, by position (empty for a record without 훈음). */
  hunsOf: string[][];
  /** A code point → positions with a 훈 containing it: the candidates of a "contains" match, so it never scans every 훈. */
  byCodePoint: Map<string, number[]>;
}

const add = (map: Map<string, number[]>, key: string, position: number) => {
  const list = map.get(key);
  if (list === undefined) map.set(key, [position]);
  else if (list.at(-1) !== position) list.push(position);
};

/** Indexes `Tables.hunum` (records separated by `|`, a record's `훈 음` by `;`, the 음 after the last space). */
export function hunIndexes(hunum: string): HunIndexes {
  const indexes: HunIndexes = { byHunum: new Map(), byHun: new Map(), hunsOf: [], byCodePoint: new Map() };
  hunum.split(HUNUM_SEPARATORS.record).forEach((column, position) => {
    const huns: string[] = [];
    for (const item of column === "" ? [] : column.split(HUNUM_SEPARATORS.hunum)) {
      const hun = item.slice(0, item.lastIndexOf(" "));
      huns.push(hun);
      add(indexes.byHunum, item, position);
      add(indexes.byHun, hun, position);
      for (const ch of hun) add(indexes.byCodePoint, ch, position);
    }
    indexes.hunsOf.push(huns);
  });
  return indexes;
}

/** Positions with a 훈 containing `q`: the candidates of `q`'s rarest code point, each checked. */
export function hunsContaining(indexes: HunIndexes, q: string): number[] {
  let candidates: number[] | undefined;
  for (const ch of new Set(q)) {
    const list = indexes.byCodePoint.get(ch) ?? [];
    if (candidates === undefined || list.length < candidates.length) candidates = list;
    if (list.length === 0) return [];
  }
  return (candidates ?? []).filter((position) => indexes.hunsOf[position]?.some((hun) => hun.includes(q)));
}
