/**
 * The strokes of the 214 Kangxi radicals, for `GET /hanja/v1/radicals`: the first `kTotalStrokes`
 * value of each radical's unified ideograph, read from the Unihan input whether or not the
 * ideograph is one of the selected characters (37 are not: 丶, 亅, 冂, …).
 */
import { RADICAL_COUNT, radicalCharacter } from "../../runtime/format/radicals.ts";
import { InputError } from "../load/types.ts";
import { parseStrokes } from "./fields.ts";
import type { UnihanTable } from "./hanjaRecords.ts";

/** The radicals' ideographs, which the build reads besides the selected characters. */
export const RADICAL_CODEPOINTS: ReadonlySet<number> = new Set(
  Array.from({ length: RADICAL_COUNT }, (_, i) => radicalCharacter(i + 1).codePointAt(0) as number),
);

/**
 * Each radical's strokes in radical order (index n − 1). A radical whose ideograph has no
 * `kTotalStrokes` in the input fails the build on the pinned version, as the totals do, and is
 * `null` with a warning on any other (a small test input holds few of them).
 */
export function radicalStrokes(table: UnihanTable, version: string, pinnedVersion: string): { strokes: (number | null)[]; warnings: string[] } {
  const missing: string[] = [];
  const strokes = Array.from({ length: RADICAL_COUNT }, (_, i) => {
    const character = radicalCharacter(i + 1);
    const entry = table.get(character.codePointAt(0) as number)?.get("kTotalStrokes");
    if (entry === undefined) missing.push(`${i + 1} ${character}`);
    return entry === undefined ? null : parseStrokes(entry.value);
  });
  if (missing.length === 0) return { strokes, warnings: [] };
  const what = `no kTotalStrokes for ${missing.length} radical ideographs (${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", …" : ""})`;
  if (version === pinnedVersion) throw new InputError(`unihan: the ${version} input has ${what}`);
  return { strokes, warnings: [`unihan ${version}: ${what}; their strokes are null`] };
}
