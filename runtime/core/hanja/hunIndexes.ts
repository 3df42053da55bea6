/** The maps search by 훈 reads (docs/rules.md "Interface A"), made once from `Tables.hunum`. */

/** `훈 음` → positions and 훈 → positions, each position once, in record order; and every 훈 with its position. */
export interface HunIndexes {
  byHunum: Map<string, number[]>;
  byHun: Map<string, number[]>;
  huns: (readonly [number, string])[];
}

/** Indexes each record's `"hun eum"` strings (`Tables.hunum`, the 음 after the last space) by `훈 음` and by 훈. */
export function hunIndexes(hunum: readonly (readonly string[])[]): HunIndexes {
  const indexes: HunIndexes = { byHunum: new Map(), byHun: new Map(), huns: [] };
  const add = (map: Map<string, number[]>, key: string, position: number) => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [position]);
    else if (list.at(-1) !== position) list.push(position);
  };
  hunum.forEach((list, position) => {
    for (const item of list) {
      const hun = item.slice(0, item.lastIndexOf(" "));
      add(indexes.byHunum, item, position);
      add(indexes.byHun, hun, position);
      indexes.huns.push([position, hun]);
    }
  });
  return indexes;
}
