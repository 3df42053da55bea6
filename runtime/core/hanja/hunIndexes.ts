/** The maps search by 훈 reads (docs/rules.md "Interface A"), made once from the records' 훈음 (`CharacterData.fields`). */
import type { Hunum } from "../data/recordFields.ts";

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

/** Indexes the 훈음 of `count` records, `hunumOf(position)` giving each record's. */
export function hunIndexes(count: number, hunumOf: (position: number) => readonly Hunum[]): HunIndexes {
  const indexes: HunIndexes = { byHunum: new Map(), byHun: new Map(), hunsOf: [], byCodePoint: new Map() };
  for (let position = 0; position < count; position++) {
    const huns: string[] = [];
    for (const { hun, eum } of hunumOf(position)) {
      huns.push(hun);
      add(indexes.byHunum, `${hun} ${eum}`, position);
      add(indexes.byHun, hun, position);
      for (const ch of hun) add(indexes.byCodePoint, ch, position);
    }
    indexes.hunsOf.push(huns);
  }
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
