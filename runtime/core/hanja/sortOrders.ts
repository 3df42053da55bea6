/**
 * The orders `GET /hanja?sort=` can list its matches in besides relevance (docs/rules.md "Interface A"):
 * `reading` (가나다 order of the record's `reading`, then fewer strokes, then code point; a record
 * whose reading is not a Hangul syllable last), `strokes` (fewer strokes, then reading, then code
 * point) and `codepoint`. Each is a rank per record position, made once on first use: sorting a
 * match set is then a comparison of two numbers, and an empty `q` walks the order itself.
 */
import type { CharacterData } from "../data/load.ts";

/** The values of `sort`; `relevance` is the search's own order. */
export const SORTS = ["relevance", "reading", "strokes", "codepoint"] as const;
export type Sort = (typeof SORTS)[number];

/** A fixed order of every record: positions in order, and each position's place in it. */
export interface SortOrder {
  readonly order: Uint32Array;
  readonly rank: Uint32Array;
}

// Modern Hangul syllables in code point order are in 가나다 order (the tests check it with Intl.Collator("ko")).
const FIRST_SYLLABLE = 0xac00;
const LAST_SYLLABLE = 0xd7a3;
/** A reading's key: its syllable's code point, or past every syllable when there is none. */
const readingKey = (data: CharacterData, i: number) => {
  const code = data.reading.charCodeAt(i);
  return code >= FIRST_SYLLABLE && code <= LAST_SYLLABLE ? code : LAST_SYLLABLE + 1;
};

const COMPARE: Record<Exclude<Sort, "relevance" | "codepoint">, (data: CharacterData, a: number, b: number) => number> = {
  reading: (data, a, b) => readingKey(data, a) - readingKey(data, b) || (data.strokes[a] ?? 0) - (data.strokes[b] ?? 0) || a - b,
  strokes: (data, a, b) => (data.strokes[a] ?? 0) - (data.strokes[b] ?? 0) || readingKey(data, a) - readingKey(data, b) || a - b,
};

const made = new WeakMap<CharacterData, Map<Sort, SortOrder>>();

/** The order of `sort` over `data`'s records, made on first use and kept with the data. */
export function sortOrder(data: CharacterData, sort: Exclude<Sort, "relevance">): SortOrder {
  let orders = made.get(data);
  if (orders === undefined) made.set(data, (orders = new Map()));
  let made1 = orders.get(sort);
  if (made1 === undefined) {
    const count = data.characters.length;
    // Records are in code point order, so a position is its code point's rank.
    const order = Uint32Array.from({ length: count }, (_, i) => i);
    if (sort !== "codepoint") {
      const compare = COMPARE[sort];
      order.sort((a, b) => compare(data, a, b));
    }
    const rank = new Uint32Array(count);
    for (let r = 0; r < count; r++) rank[order[r] ?? 0] = r;
    orders.set(sort, (made1 = { order, rank }));
  }
  return made1;
}
