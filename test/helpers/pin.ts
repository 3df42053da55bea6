/**
 * The pinned Unihan release's values, for tests that check the real data: counts, version and
 * spot records come from pipeline/data/unihan/pin.json (computed from the zip), never from
 * literals, so the suite passes unchanged on a release the release job pins.
 */
import { readPin } from "../../pipeline/pin/pin.ts";

export const PIN = readPin();
/** Records derived from the pinned release. */
export const CHARACTERS = PIN.counts.characters;
export const EDUCATION_HANJA = PIN.counts.education_hanja;
export const NAME_HANJA = PIN.counts.name_hanja;
/** Every record's `source`. */
export const UNIHAN_SOURCE = `Unicode Unihan ${PIN.version}`;

/** The pinned release's record of `character` (its Unihan-derived fields). */
export function spotRecord(character: string) {
  const record = PIN.spot_records[character];
  if (!record) throw new Error(`pin.json has no spot record for ${character}`);
  return record;
}
