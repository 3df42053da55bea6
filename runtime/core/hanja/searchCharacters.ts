/**
 * `GET /hanja` matching and ordering (docs/rules.md "Interface A"): one character, a code point, Hangul
 * (exact matches — a 훈음, a reading, a 훈 — by level: education hanja, name hanja, the rest; then
 * gloss or 훈 containing it), or full text over English definitions and glosses; filters AND-ed;
 * ties broken by education hanja, starters, name hanja, fewer strokes, code point. In text
 * searches a CJK compatibility ideograph comes right after its unified counterpart when both match.
 * `sort` other than `relevance` lists the same matches in a fixed order instead.
 */
import type { CharacterData } from "../data/load.ts";
import { hunsContaining } from "./hunIndexes.ts";
import { FLAG_EDUCATION, FLAG_NAME, FLAG_STARTER } from "../../format/dist.ts";
import { CHARACTER_QUERY, CHARACTER_TYPO_QUERY, EDUCATION_BOOST } from "../../format/searchOptions.ts";
import { type Sort, sortOrder } from "./sortOrders.ts";

/** What a filter of `GET /hanja` keeps for a whole-number value (the filters are in `routes/hanjaParams.ts`). */
export interface FilterPredicate {
  /** Whether the record at `position` passes the filter with `value`. */
  keep(data: CharacterData, position: number, value: number | string): boolean;
}

// `U+6C34`, `u+6c34`, `U 6C34` (an unencoded `+` in a query string arrives as a space), or bare
// hex with at least one digit (`6C34`; `face` stays an English word).
const CODEPOINT_QUERY = /^(?:[Uu][+ ]([0-9A-Fa-f]{4,6})|(?=[A-Fa-f]*\d)([0-9A-Fa-f]{4,6}))$/;
const HANGUL_QUERY = /^[\p{Script=Hangul}\s]+$/u;
const HAN = /^\p{Script=Han}$/u;

/**
 * Positions of the matching records, best first, or in the order of `sort` (`sortOrders.ts`). The
 * filters are the specs of `params` that have a predicate (`FilterPredicate`); those given a value
 * in `values` are AND-ed.
 */
export function searchCharacters(
  data: CharacterData,
  q: string,
  params: Readonly<Record<string, object>>,
  values: Readonly<Record<string, unknown>>,
  sort: Sort = "relevance",
): number[] {
  const keep = filterPredicate(data, params, values);
  if (sort !== "relevance") {
    const { order, rank } = sortOrder(data, sort);
    if (q === "") {
      const all: number[] = [];
      for (const i of order) if (keep(i)) all.push(i);
      return all;
    }
    return matches(data, q, keep).sort((a, b) => (rank[a] ?? 0) - (rank[b] ?? 0));
  }
  return matches(data, q, keep);
}

/** The matching records in the search's own order: code point for an empty `q`, else relevance. */
function matches(data: CharacterData, q: string, keep: (i: number) => boolean): number[] {
  if (q === "") {
    const all: number[] = [];
    for (let i = 0; i < data.characters.length; i++) if (keep(i)) all.push(i);
    return all;
  }
  const exact = exactCharacter(data, q);
  if (exact !== undefined) return exact !== null && keep(exact) ? [exact] : [];
  if (HANGUL_QUERY.test(q)) return searchHangul(data, q.replace(/\s+/g, " "), keep);
  return searchFullText(data, q, keep);
}

/** The record a one-character or code point query names: a position, `null` (names nothing), or undefined (not such a query). */
function exactCharacter(data: CharacterData, q: string): number | null | undefined {
  const single = q.length <= 2 && [...q].length === 1;
  if (single) {
    const position = data.position(q);
    if (position !== undefined || HAN.test(q)) return position ?? null;
  }
  const match = CODEPOINT_QUERY.exec(q);
  if (!match) return undefined;
  const value = Number.parseInt(match[1] ?? match[2] ?? "", 16);
  return value <= 0x10ffff ? (data.position(String.fromCodePoint(value)) ?? null) : null;
}

/**
 * Hangul, in four groups: records with the query as one of their 훈음 (`물 수`, a space between 훈
 * and 음); records whose readings contain it; records with a 훈 equal to it (`물`); records whose
 * gloss (`meaning_ko`) or one of whose 훈 contains it. A record is listed in its first group only.
 * The three exact groups are listed by level — their education hanja (훈음, reading, 훈 in that
 * order), then their name hanja, then the rest — so a learner's 家 (집 가) comes before the rare
 * characters read 집; the containing group follows. Within a group, by the tie-break.
 */
function searchHangul(data: CharacterData, q: string, keep: (i: number) => boolean): number[] {
  const seen = new Set<number>();
  const group = (positions: Iterable<number>) => {
    const kept: number[] = [];
    for (const i of positions) {
      if (!seen.has(i) && keep(i)) {
        seen.add(i);
        kept.push(i);
      }
    }
    return sortByTieBreak(data, kept);
  };
  const { hun } = data;
  const exact = [group(q.includes(" ") ? (hun.byHunum.get(q) ?? []) : []), group(data.readings.get(q) ?? []), group(hun.byHun.get(q) ?? [])];
  const containing = group(containingPositions(data, q));
  const byLevel = [0, 1, 2].flatMap((l) => exact.flatMap((positions) => positions.filter((i) => level(data, i) === l)));
  return afterUnified(data, [...byLevel, ...containing]);
}

/** A record's level for learners: 0 education hanja, 1 name hanja, 2 any other. */
function level(data: CharacterData, i: number): number {
  const flags = data.flags[i] ?? 0;
  return flags & FLAG_EDUCATION ? 0 : flags & FLAG_NAME ? 1 : 2;
}

/** Positions whose gloss or one of whose 훈 contains `q`, in no particular order. */
function* containingPositions(data: CharacterData, q: string): Generator<number> {
  for (const [i, gloss] of data.glosses) if (gloss.includes(q)) yield i;
  yield* hunsContaining(data.hun, q);
}

/**
 * English definitions and glosses: word prefix; one typo per word of four letters or more when
 * nothing in the whole dataset matches exactly. Whether anything matches is decided before the
 * filters: a filter narrows the query's matches, and never turns typo matches into results
 * (`q=horse&starter=1` is the starters among the horse matches — none — not 家 "house").
 */
function searchFullText(data: CharacterData, q: string, keep: (i: number) => boolean): number[] {
  const options = { boostDocument: (id: unknown) => ((data.flags[id as number] ?? 0) & FLAG_EDUCATION ? EDUCATION_BOOST : 1) };
  let hits = data.index().search(q, { ...CHARACTER_QUERY, ...options });
  if (hits.length === 0) hits = data.index().search(q, { ...CHARACTER_TYPO_QUERY, ...options });
  const kept = hits.filter((h) => keep(h.id as number));
  const score = new Map(kept.map((h) => [h.id as number, h.score]));
  return afterUnified(
    data,
    kept.map((h) => h.id as number).sort((a, b) => (score.get(b) ?? 0) - (score.get(a) ?? 0) || tieBreak(data, a, b)),
  );
}

const COMPATIBILITY_IDEOGRAPH = /^[\uF900-\uFAFF\u{2F800}-\u{2FA1F}]$/u;

/**
 * The results with every CJK compatibility ideograph moved right after its unified counterpart
 * (its canonical equivalent, which NFC gives) when that is among them: 讀 U+F95A shares 讀 U+8B80's
 * definition, and listed apart it would read as a duplicate, or come first. Its record names the
 * counterpart (`variants_detail.kCompatibilityVariant`). One whose counterpart is not in the
 * results keeps its place.
 */
function afterUnified(data: CharacterData, positions: number[]): number[] {
  const counterpart = new Map<number, number>();
  const included = new Set(positions);
  for (const p of positions) {
    const ch = data.characters[p] ?? "";
    if (!COMPATIBILITY_IDEOGRAPH.test(ch)) continue;
    const unified = data.position(ch.normalize("NFC"));
    if (unified !== undefined && unified !== p && included.has(unified)) counterpart.set(p, unified);
  }
  if (counterpart.size === 0) return positions;
  const following = new Map<number, number[]>();
  for (const [p, unified] of counterpart) following.set(unified, [...(following.get(unified) ?? []), p]);
  return positions.flatMap((p) => (counterpart.has(p) ? [] : [p, ...(following.get(p) ?? [])]));
}

/** Whether a record passes every filter given a value (none given: every record passes). */
function filterPredicate(data: CharacterData, params: Readonly<Record<string, object>>, values: Readonly<Record<string, unknown>>): (i: number) => boolean {
  const active: [FilterPredicate, number | string][] = [];
  for (const name in params) {
    const spec = params[name];
    const value = values[name];
    if (spec !== undefined && "keep" in spec && (typeof value === "number" || typeof value === "string")) active.push([spec as FilterPredicate, value]);
  }
  return (i) => {
    for (const [filter, value] of active) if (!filter.keep(data, i, value)) return false;
    return true;
  };
}

function sortByTieBreak(data: CharacterData, positions: number[]): number[] {
  return positions.sort((a, b) => tieBreak(data, a, b));
}

/** Education hanja first, then starters, then name hanja, then fewer strokes, then code point (= position). */
function tieBreak(data: CharacterData, a: number, b: number): number {
  const fa = data.flags[a] ?? 0;
  const fb = data.flags[b] ?? 0;
  return (
    (fb & FLAG_EDUCATION) - (fa & FLAG_EDUCATION) ||
    (fb & FLAG_STARTER) - (fa & FLAG_STARTER) ||
    (fb & FLAG_NAME) - (fa & FLAG_NAME) ||
    (data.strokes[a] ?? 0) - (data.strokes[b] ?? 0) ||
    a - b
  );
}
