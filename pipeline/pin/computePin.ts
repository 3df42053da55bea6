import type { HanjaRecord } from "../../runtime/format/records.ts";
import { readUnihanZip } from "../load/unihanZip.ts";
import { RECORD_PROPERTIES, buildHanjaRecords, collectUnihan } from "../parse/hanjaRecords.ts";
import { sha256 } from "../write/writeDist.ts";
import { type ReleaseCounts, SPOT_CHARACTERS, type UnihanFields, type UnihanPin } from "./pin.ts";

/** What a release gives, measured from its records (the pin's `counts`). */
export function releaseCounts(records: readonly HanjaRecord[]): ReleaseCounts {
  const count = (test: (r: HanjaRecord) => boolean) => records.filter(test).length;
  return {
    characters: records.length,
    education_hanja: count((r) => r.education_hanja),
    name_hanja: count((r) => r.name_hanja),
    several_readings: count((r) => r.readings.length > 1),
    with_variants: count((r) => r.variants !== ""),
    without_definition: count((r) => r.definition_en === null),
    astral: count((r) => (r.character.codePointAt(0) ?? 0) > 0xffff),
    compatibility: count((r) => /^[\u{F900}-\u{FAFF}]$/u.test(r.character)),
    several_radical_tokens: count((r) => r.radical_strokes_raw.includes(" ")),
    variant_self_references: records.reduce(
      (sum, r) =>
        sum +
        Object.values(r.variants_detail)
          .flat()
          .filter((v) => v.character === r.character).length,
      0,
    ),
  };
}

/** A record without the project's gloss fields, the dictionary's 훈음, the `reading` drawn from them and the words, and the school level. */
export function unihanFields(record: HanjaRecord): UnihanFields {
  const { starter: _s, meaning_ko: _m, meaning_ko_source: _g, reading: _r, hunum: _h, hunum_source: _hs, school_level: _l, ...fields } = record;
  return fields;
}

/** What reading a Unihan zip gives: the version its headers carry and its records (without glosses). */
export interface ZipRead {
  version: string;
  method: "header" | "fingerprint";
  records: HanjaRecord[];
}

/**
 * Computes the pin of a Unihan zip from its data: version (from the headers), SHA-256, counts and
 * spot records. `file` is the zip's name in the pin folder, `origin` where it came from; `read`
 * is the zip already read (`zipRecords`), when the caller has it.
 */
export async function computePin(bytes: Uint8Array, file: string, origin: string, read?: ZipRead): Promise<UnihanPin> {
  const { version, records } = read ?? (await zipRecords(bytes, file));
  const byCharacter = new Map(records.map((r) => [r.character, r]));
  const spot_records: Record<string, UnihanFields> = {};
  for (const character of SPOT_CHARACTERS) {
    const record = byCharacter.get(character);
    if (record) spot_records[character] = unihanFields(record);
  }
  return { version, file, sha256: sha256(bytes), origin, counts: releaseCounts(records), spot_records };
}

/** The records of a Unihan zip (without glosses) and the version its headers carry. */
export async function zipRecords(bytes: Uint8Array, label: string): Promise<ZipRead> {
  const reader = readUnihanZip(bytes, label);
  const table = await collectUnihan(reader.entries(RECORD_PROPERTIES, { onlyWith: "kHangul" }));
  const { version, method } = reader.version();
  return { version, method, records: buildHanjaRecords(table, version) };
}

/** `pin.json`'s text: two-space JSON and a final newline, so a moved pin reads well in a diff. */
export function pinText(pin: object): string {
  return `${JSON.stringify(pin, null, 2)}\n`;
}
