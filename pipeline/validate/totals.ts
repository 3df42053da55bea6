import type { HanjaRecord } from "../../runtime/format/records.ts";
import { InputError } from "../load/types.ts";
import { releaseCounts } from "../pin/computePin.ts";
import type { ReleaseCounts } from "../pin/pin.ts";

/** Counts of the derived records kept in the manifest and `/meta`. */
export function countRecords(records: readonly HanjaRecord[]) {
  return {
    characters: records.length,
    education_hanja: records.filter((r) => r.education_hanja).length,
    middle_school_hanja: records.filter((r) => r.school_level === "middle").length,
    high_school_hanja: records.filter((r) => r.school_level === "high").length,
    name_hanja: records.filter((r) => r.name_hanja).length,
  };
}

/** The pinned release's version and counts, as `pin.json` records them. */
export interface PinnedTotals {
  version: string;
  counts: ReleaseCounts;
}

/**
 * Checks the records against the pin's counts: on input of the pinned version a count that
 * differs fails the build; on any other version the differences are returned as warnings to print.
 */
export function verifyTotals(records: readonly HanjaRecord[], version: string, pinned: PinnedTotals): string[] {
  const counts = releaseCounts(records);
  const differences = (Object.keys(pinned.counts) as (keyof ReleaseCounts)[])
    .filter((key) => counts[key] !== pinned.counts[key])
    .map((key) => `${key}: ${counts[key]} (Unihan ${pinned.version} has ${pinned.counts[key]})`);
  if (version === pinned.version && differences.length > 0) {
    throw new InputError(`unihan: the ${version} input does not give the pinned totals (pin.json): ${differences.join("; ")}`);
  }
  return differences.map((d) => `unihan ${version}: ${d}`);
}
