/** The body of `GET /radicals`: the 214 Kangxi radicals, their strokes and how many characters have each. */
import { RADICAL_COUNT, radicalCharacter } from "../../format/radicals.ts";
import type { RadicalList } from "../../format/records.ts";
import type { CharacterData } from "../data/load.ts";

/**
 * Every radical in radical order. The counts are of the records' `radical_number`, the column the
 * `radical_number` filter of `/hanja` reads, so each equals that filter's `total`; `listPath` is
 * where that list is served (`/hanja/v1/hanja`, the host's mount path in front).
 */
export function radicalList(chars: CharacterData, listPath: string): RadicalList {
  const counts = new Array<number>(RADICAL_COUNT + 1).fill(0);
  for (const radical of chars.radical) counts[radical] = (counts[radical] ?? 0) + 1;
  const data = Array.from({ length: RADICAL_COUNT }, (_, i) => ({
    radical_number: i + 1,
    radical: radicalCharacter(i + 1),
    strokes: chars.radicalStrokes[i] ?? null,
    character_count: counts[i + 1] ?? 0,
    characters_url: `${listPath}?radical_number=${i + 1}`,
  }));
  return { data, total: RADICAL_COUNT, source: chars.source };
}
