import type { HanjaRecord } from "../../runtime/core/data/records.ts";
import { InputError } from "../load/types.ts";

/** What Unihan 17.0.0 must yield (UNIHAN-FIELDS.md, "Checks the build can make"). */
export const EXPECTED_17 = { characters: 8525, education_hanja: 1800, name_hanja: 6367 } as const;

/** Counts of the derived records that the source totals are checked against. */
export function countRecords(records: readonly HanjaRecord[]) {
  return {
    characters: records.length,
    education_hanja: records.filter((r) => r.education_hanja).length,
    name_hanja: records.filter((r) => r.name_hanja).length,
  };
}

/**
 * On 17.0.0 input a count that differs fails the build; on any other version the differences are
 * returned as warnings to print.
 */
export function verifyTotals(records: readonly HanjaRecord[], version: string): string[] {
  const counts = countRecords(records);
  const differences = (Object.keys(EXPECTED_17) as (keyof typeof EXPECTED_17)[])
    .filter((key) => counts[key] !== EXPECTED_17[key])
    .map((key) => `${key}: ${counts[key]} (Unihan 17.0.0 has ${EXPECTED_17[key]})`);
  if (version === "17.0.0" && differences.length > 0) {
    throw new InputError(`unihan: the 17.0.0 input does not give the published totals: ${differences.join("; ")}`);
  }
  return differences.map((d) => `unihan ${version}: ${d}`);
}
