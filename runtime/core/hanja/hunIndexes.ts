/** The maps search by 훈 reads (docs/rules.md "Interface A"), made once from `Tables.hunum`. */

/** 훈 → positions and `훈 음` → positions, each position once, in record order. */
export interface HunIndexes {
  byHun: Map<string, number[]>;
  byHunum: Map<string, number[]>;
}

/** Groups the 훈음 list (`[position, hun, eum]`, record order) by 훈 and by `훈 음`. */
export function hunIndexes(hunum: readonly (readonly [number, string, string])[]): HunIndexes {
  const byHun = new Map<string, number[]>();
  const byHunum = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, position: number) => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [position]);
    else if (list.at(-1) !== position) list.push(position);
  };
  for (const [position, hun, eum] of hunum) {
    add(byHun, hun, position);
    add(byHunum, `${hun} ${eum}`, position);
  }
  return { byHun, byHunum };
}
