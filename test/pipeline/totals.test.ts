import { describe, expect, it } from "vitest";
import { InputError } from "../../pipeline/load/types.ts";
import { EXPECTED_17, countRecords, verifyTotals } from "../../pipeline/validate/totals.ts";
import type { HanjaRecord } from "../../runtime/core/data/records.ts";
import { hanja } from "./helpers.ts";

/** `n` records of which the first `education` are education hanja and the first `name` name hanja. */
function records(n: number, education: number, name: number): HanjaRecord[] {
  const base = hanja("水", ["수"]);
  return Array.from({ length: n }, (_, i) => ({ ...base, education_hanja: i < education, name_hanja: i < name }));
}

describe("verifyTotals", () => {
  const exact = records(EXPECTED_17.characters, EXPECTED_17.education_hanja, EXPECTED_17.name_hanja);

  it("counts characters, education hanja and name hanja", () => {
    expect(countRecords(records(5, 2, 3))).toEqual({ characters: 5, education_hanja: 2, name_hanja: 3 });
  });

  it("passes Unihan 17.0.0 with the published totals (8,525 / 1,800 / 6,367)", () => {
    expect(EXPECTED_17).toEqual({ characters: 8525, education_hanja: 1800, name_hanja: 6367 });
    expect(verifyTotals(exact, "17.0.0")).toEqual([]);
  });

  it("fails a 17.0.0 build whose totals differ, naming every difference", () => {
    const wrong = records(8524, 1799, 6367);
    expect(() => verifyTotals(wrong, "17.0.0")).toThrow(InputError);
    expect(() => verifyTotals(wrong, "17.0.0")).toThrow(
      "unihan: the 17.0.0 input does not give the published totals: characters: 8524 (Unihan 17.0.0 has 8525); education_hanja: 1799 (Unihan 17.0.0 has 1800)",
    );
  });

  it("only warns on other versions", () => {
    expect(verifyTotals(records(297, 94, 184), "16.0.0")).toEqual([
      "unihan 16.0.0: characters: 297 (Unihan 17.0.0 has 8525)",
      "unihan 16.0.0: education_hanja: 94 (Unihan 17.0.0 has 1800)",
      "unihan 16.0.0: name_hanja: 184 (Unihan 17.0.0 has 6367)",
    ]);
    expect(verifyTotals(exact, "18.0.0")).toEqual([]);
  });
});
