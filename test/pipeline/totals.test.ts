import { describe, expect, it } from "vitest";
import { InputError } from "../../pipeline/load/types.ts";
import { type PinnedTotals, countRecords, verifyTotals } from "../../pipeline/validate/totals.ts";
import type { HanjaRecord } from "../../runtime/format/records.ts";
import { hanja } from "./helpers.ts";

/** `n` records of which the first `education` are education hanja and the first `name` name hanja. */
function records(n: number, education: number, name: number): HanjaRecord[] {
  const base = { ...hanja("水", ["수"]), definition_en: "water" };
  return Array.from({ length: n }, (_, i) => ({ ...base, education_hanja: i < education, name_hanja: i < name }));
}

/** A pin of version 20.0.0 whose counts are those of `records(10, 4, 6)`. */
const PINNED: PinnedTotals = {
  version: "20.0.0",
  counts: {
    characters: 10,
    education_hanja: 4,
    name_hanja: 6,
    several_readings: 0,
    with_variants: 0,
    without_definition: 0,
    astral: 0,
    compatibility: 0,
    several_radical_tokens: 0,
    variant_self_references: 0,
  },
};

describe("verifyTotals (against the pin's counts)", () => {
  it("counts characters, education hanja and name hanja for the manifest", () => {
    expect(countRecords(records(5, 2, 3))).toEqual({ characters: 5, education_hanja: 2, middle_school_hanja: 0, high_school_hanja: 0, name_hanja: 3 });
  });

  it("passes input of the pinned version that gives the pinned counts", () => {
    expect(verifyTotals(records(10, 4, 6), "20.0.0", PINNED)).toEqual([]);
  });

  it("fails input of the pinned version whose counts differ, naming every difference", () => {
    const wrong = records(9, 3, 6);
    expect(() => verifyTotals(wrong, "20.0.0", PINNED)).toThrow(InputError);
    expect(() => verifyTotals(wrong, "20.0.0", PINNED)).toThrow(
      "unihan: the 20.0.0 input does not give the pinned totals (pin.json): characters: 9 (Unihan 20.0.0 has 10); education_hanja: 3 (Unihan 20.0.0 has 4)",
    );
  });

  it("counts the other measured totals too (several readings, variants, no definition, astral, compatibility)", () => {
    const base = { ...hanja("水", ["수"]), definition_en: "water" };
    const odd = [
      { ...base, readings: ["수", "슈"], variants: "氵", definition_en: null },
      { ...base, character: "\u{2E569}" },
      { ...base, character: "\u{F95A}" },
    ];
    const pin: PinnedTotals = {
      version: "20.0.0",
      counts: {
        characters: 3,
        education_hanja: 0,
        name_hanja: 0,
        several_readings: 1,
        with_variants: 1,
        without_definition: 1,
        astral: 1,
        compatibility: 1,
        several_radical_tokens: 0,
        variant_self_references: 0,
      },
    };
    const plain = odd.map((r) => ({ ...r, education_hanja: false, name_hanja: false }));
    expect(verifyTotals(plain, "20.0.0", pin)).toEqual([]);
    expect(() => verifyTotals(plain.slice(1), "20.0.0", pin)).toThrow(
      /several_readings: 0 \(Unihan 20\.0\.0 has 1\); with_variants: 0 .*; without_definition: 0 /,
    );
  });

  it("only warns on other versions", () => {
    expect(verifyTotals(records(7, 4, 5), "19.0.0", PINNED)).toEqual([
      "unihan 19.0.0: characters: 7 (Unihan 20.0.0 has 10)",
      "unihan 19.0.0: name_hanja: 5 (Unihan 20.0.0 has 6)",
    ]);
    expect(verifyTotals(records(10, 4, 6), "21.0.0", PINNED)).toEqual([]);
  });
});
