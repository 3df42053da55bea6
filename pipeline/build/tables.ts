import { FLAG_EDUCATION, FLAG_HIGH_SCHOOL, FLAG_HUNUM, FLAG_MIDDLE_SCHOOL, FLAG_NAME, FLAG_STARTER, type Tables } from "../../runtime/format/dist.ts";
import type { HanjaRecord, IdiomRecord } from "../../runtime/format/records.ts";

/**
 * Compact columns the runtime filters, orders and looks up by (record order = code point order);
 * `idiomsByCharacter` is `idiomPositionsByCharacter` of the idioms; `details` are the records'
 * detail bodies, one per record, as details.jsonl holds them; `radicalStrokes` the 214 radicals'
 * strokes (`radicalStrokes` of parse/radicals.ts).
 */
export function buildTables(
  records: readonly HanjaRecord[],
  idiomsByCharacter: Record<string, number[]>,
  details: readonly string[],
  radicalStrokes: readonly (number | null)[],
): Tables {
  const encoder = new TextEncoder();
  const readings: Record<string, number[]> = {};
  const glosses: [number, string][] = [];
  records.forEach((record, i) => {
    for (const reading of record.readings) (readings[reading] ??= []).push(i);
    if (record.meaning_ko !== null) glosses.push([i, record.meaning_ko]);
  });
  return {
    characters: records.map((r) => r.character),
    strokes: records.map((r) => r.strokes),
    radical: records.map((r) => r.radical_number),
    flags: records.map(
      (r) =>
        (r.starter ? FLAG_STARTER : 0) |
        (r.education_hanja ? FLAG_EDUCATION : 0) |
        (r.name_hanja ? FLAG_NAME : 0) |
        (r.hunum.length > 0 ? FLAG_HUNUM : 0) |
        (r.school_level === "middle" ? FLAG_MIDDLE_SCHOOL : r.school_level === "high" ? FLAG_HIGH_SCHOOL : 0),
    ),
    readings: sortKeys(readings),
    glosses,
    reading: records.map((r) => r.reading).join(""),
    idiomsByCharacter: sortKeys(idiomsByCharacter),
    detailBytes: details.map((body) => encoder.encode(body).length),
    radicalStrokes: [...radicalStrokes],
  };
}

/** Positions of the idioms containing each character, in idx order. */
export function idiomPositionsByCharacter(idioms: readonly IdiomRecord[]): Record<string, number[]> {
  const byCharacter: Record<string, number[]> = {};
  idioms.forEach((idiom, position) => {
    for (const ch of new Set(idiom.hanja)) (byCharacter[ch] ??= []).push(position);
  });
  return byCharacter;
}

// Key order of an object built from a Map depends on insertion order; sorting keeps dist/ stable.
function sortKeys<T>(object: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
