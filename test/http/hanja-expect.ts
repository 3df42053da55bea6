/**
 * Independent expectations for the interface A tests: the records read straight from
 * `dist/characters.jsonl`, the docs/rules.md "Interface A" ordering re-implemented from the records, and small
 * assertion helpers for list envelopes and problem bodies.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { App } from "../../runtime/core/app.ts";
import { parse } from "csv-parse/sync";
import type { HanjaRecord, IdiomItemA, IdiomRecord } from "../../runtime/format/records.ts";
import { ROOT, getJson } from "../helpers/app.ts";
import { UNIHAN_SOURCE } from "../helpers/pin.ts";

export const BASE = "/hanja/v1";
export const SOURCE = UNIHAN_SOURCE;
/** The `source` of a page of idioms: the project's own data. */
export const IDIOMS_SOURCE = "Hanja API project original idioms (see idiom terms)";

let records: HanjaRecord[] | undefined;

/** Every record of `dist/characters.jsonl`, parsed by the test itself. */
export function fileRecords(): HanjaRecord[] {
  records ??= readFileSync(join(ROOT, "dist", "characters.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as HanjaRecord);
  return records;
}

/** The record of one character, failing the test when it is missing. */
export function recordOf(character: string): HanjaRecord {
  const record = fileRecords().find((r) => r.character === character);
  if (!record) throw new Error(`test data: ${character} is not in dist/characters.jsonl`);
  return record;
}

/** Code point of a one-character string. */
export function cp(character: string): number {
  return character.codePointAt(0) ?? -1;
}

/** docs/rules.md "Interface A" tie-break: education hanja first, then starters, then name hanja, then fewer strokes, then code point. */
export function tieBreak(a: HanjaRecord, b: HanjaRecord): number {
  return (
    Number(b.education_hanja) - Number(a.education_hanja) ||
    Number(b.starter) - Number(a.starter) ||
    Number(b.name_hanja) - Number(a.name_hanja) ||
    a.strokes - b.strokes ||
    cp(a.character) - cp(b.character)
  );
}

/** A record's level for learners (docs/rules.md "Interface A"): 0 education hanja, 1 name hanja, 2 any other. */
export function level(r: HanjaRecord): number {
  return r.education_hanja ? 0 : r.name_hanja ? 1 : 2;
}

/** The filters of `GET /hanja`, as query values. */
export interface Filters {
  strokes?: number;
  radical_number?: number;
  starter?: 0 | 1;
  education?: 0 | 1;
  school_level?: "middle" | "high";
}

/** Whether a record passes the filters. */
export function passes(record: HanjaRecord, f: Filters): boolean {
  return (
    (f.strokes === undefined || record.strokes === f.strokes) &&
    (f.radical_number === undefined || record.radical_number === f.radical_number) &&
    (f.starter === undefined || Number(record.starter) === f.starter) &&
    (f.education === undefined || Number(record.education_hanja) === f.education) &&
    (f.school_level === undefined || record.school_level === f.school_level)
  );
}

/** The orders of `GET /hanja?sort=` besides relevance. */
export type FixedSort = "reading" | "strokes" | "codepoint";

const korean = new Intl.Collator("ko");
/** Readings compared as Korean text (가나다 order). */
const byReading = (a: HanjaRecord, b: HanjaRecord) => korean.compare(a.reading, b.reading);

/**
 * docs/rules.md "Interface A", `sort`, computed with Intl.Collator("ko") over the records' `reading`: `reading` (then
 * fewer strokes, then code point), `strokes` (then reading, then code point), `codepoint`.
 */
export function sortedBy(records: readonly HanjaRecord[], sort: FixedSort): HanjaRecord[] {
  const compare = {
    reading: (a: HanjaRecord, b: HanjaRecord) => byReading(a, b) || a.strokes - b.strokes || cp(a.character) - cp(b.character),
    strokes: (a: HanjaRecord, b: HanjaRecord) => a.strokes - b.strokes || byReading(a, b) || cp(a.character) - cp(b.character),
    codepoint: (a: HanjaRecord, b: HanjaRecord) => cp(a.character) - cp(b.character),
  }[sort];
  return [...records].sort(compare);
}

/** The groups of a Hangul query's results, each by tie-break, and all of them in order. */
export interface HangulGroups {
  /** Records with the query as one of their 훈음 (`hun eum`). */
  byHunum: HanjaRecord[];
  /** Then records whose readings contain it. */
  byReading: HanjaRecord[];
  /** Then records with a 훈 equal to it. */
  byHun: HanjaRecord[];
  /** Then records whose gloss or one of whose 훈 contains it. */
  byGloss: HanjaRecord[];
  /** The order of the results: the three exact groups by level (education, name, other; groups in order at each level), then `byGloss`. */
  all: HanjaRecord[];
}

/** A Hangul query, computed from the records: the four groups of docs/rules.md "Interface A", a record in its first group only. */
export function hangulExpectation(q: string, f: Filters = {}): HangulGroups {
  const left = new Set(fileRecords().filter((r) => passes(r, f)));
  const take = (match: (r: HanjaRecord) => boolean) => {
    const group = [...left].filter(match).sort(tieBreak);
    for (const r of group) left.delete(r);
    return group;
  };
  const byHunum = take((r) => r.hunum.some((h) => `${h.hun} ${h.eum}` === q));
  const byReading = take((r) => r.readings.includes(q));
  const byHun = take((r) => r.hunum.some((h) => h.hun === q));
  const byGloss = take((r) => (r.meaning_ko ?? "").includes(q) || r.hunum.some((h) => h.hun.includes(q)));
  const exact = [byHunum, byReading, byHun];
  const byLevel = [0, 1, 2].flatMap((l) => exact.flatMap((group) => group.filter((r) => level(r) === l)));
  return { byHunum, byReading, byHun, byGloss, all: afterUnified([...byLevel, ...byGloss]) };
}

/** docs/rules.md "Interface A": a CJK compatibility ideograph listed right after its unified counterpart (its NFC form) when both are there. */
function afterUnified(list: HanjaRecord[]): HanjaRecord[] {
  const characters = new Set(list.map((r) => r.character));
  const follows = (r: HanjaRecord) => r.character.normalize("NFC") !== r.character && characters.has(r.character.normalize("NFC"));
  return list.flatMap((r) => (follows(r) ? [] : [r, ...list.filter((c) => follows(c) && c.character.normalize("NFC") === r.character)]));
}

/** Query string from name/value pairs (values percent-encoded; `+` stays `%2B`). */
export function qs(params: Record<string, string | number | undefined>): string {
  const parts = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
  return parts.length === 0 ? "" : `?${parts.join("&")}`;
}

/** The list envelope of docs/rules.md "Records". */
export interface Envelope<T> {
  data: T[];
  total: number;
  page: number;
  per_page: number;
  pages: number;
  source: string;
}

/** Checks the paging arithmetic and the source label of one envelope (characters by default). */
export function expectEnvelope(body: Envelope<unknown>, page: number, perPage: number, source = SOURCE): void {
  expect(Object.keys(body).sort()).toEqual(["data", "page", "pages", "per_page", "source", "total"]);
  expect(body.page).toBe(page);
  expect(body.per_page).toBe(perPage);
  expect(body.pages).toBe(Math.ceil(body.total / perPage));
  expect(body.data.length).toBe(Math.max(0, Math.min(perPage, body.total - (page - 1) * perPage)));
  expect(body.source).toBe(source);
}

/**
 * Every item of a search, page by page (50 per page), checking each page's envelope and that
 * `total` stays the same. `path` carries the query (without page/per_page).
 */
export async function allPages<T>(app: App, path: string): Promise<{ items: T[]; total: number }> {
  const join = path.includes("?") ? "&" : "?";
  const items: T[] = [];
  let total = -1;
  for (let page = 1; ; page++) {
    const { status, body } = await getJson<Envelope<T>>(app, `${path}${join}per_page=50&page=${page}`);
    expect(status).toBe(200);
    expectEnvelope(body, page, 50, new URL(path, "http://x").pathname.endsWith("/idioms") ? IDIOMS_SOURCE : SOURCE);
    if (total === -1) total = body.total;
    expect(body.total).toBe(total);
    items.push(...body.data);
    if (page >= body.pages) break;
  }
  expect(items.length).toBe(total);
  return { items, total };
}

/** A problem+json body (docs/rules.md "Errors") with the given status, code and (for 400s) parameter. */
export async function expectProblem(response: Response, status: number, code: string, param?: string): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(response.headers.get("access-control-allow-origin")).toBe("*");
  const body = JSON.parse(await response.text()) as Record<string, unknown>;
  expect(body).toMatchObject({ status, code, success: false });
  expect(typeof body.type).toBe("string");
  expect(typeof body.title).toBe("string");
  expect(body.title).not.toBe("");
  expect(typeof body.detail).toBe("string");
  expect(body.detail).not.toBe("");
  expect(typeof body.request_id).toBe("string");
  expect(body.request_id).toBe(response.headers.get("x-request-id"));
  if (param === undefined) expect(body).not.toHaveProperty("param");
  else expect(body.param).toBe(param);
  return body;
}

const INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ";

/** Initial consonants of Hangul syllables, computed here from the Unicode syllable layout. */
export function initials(hangul: string): string {
  return [...hangul].map((s) => INITIALS[Math.floor((cp(s) - 0xac00) / 588)] ?? s).join("");
}

let english: Map<number, string> | undefined;

/** The English meaning of idiom `idx`, read by the test itself from pipeline/data/idioms-en.csv. */
export function englishOf(idx: number): string {
  english ??= new Map(
    (parse(readFileSync(join(ROOT, "pipeline/data/idioms-en.csv"), "utf8"), { columns: true }) as { idx: string; meaning_en: string }[]).map((row) => [
      Number(row.idx),
      row.meaning_en,
    ]),
  );
  const meaning = english.get(idx);
  if (meaning === undefined) throw new Error(`test data: idiom ${idx} has no row in idioms-en.csv`);
  return meaning;
}

/** Interface A's idiom item for a loaded idiom: `idx` as a string, plus `chosung`, `literal` and `meaning_en`. */
export function idiomItem(idiom: IdiomRecord): IdiomItemA {
  const { hanja, hangul, literal, meaning } = idiom;
  return { idx: String(idiom.idx), hanja, hangul, literal, meaning, meaning_en: englishOf(idiom.idx), chosung: initials(hangul) };
}

/** The loaded idioms in idx order. */
export function idiomsInOrder(app: App): IdiomRecord[] {
  return [...app.data.idioms.idioms].sort((a, b) => a.idx - b.idx);
}
