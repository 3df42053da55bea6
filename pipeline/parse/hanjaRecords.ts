import { type HanjaRecord, STARTER_GLOSS_SOURCE, UNICODE_LICENSE_URL } from "../../runtime/format/records.ts";
import { InputError, type UnihanEntry } from "../load/types.ts";
import { usualReadingOf } from "../../runtime/format/usualReading.ts";
import {
  FieldError,
  VARIANT_PROPERTIES,
  type VariantProperty,
  type VariantRef,
  flattenVariants,
  formatCodepoint,
  parseRadicalNumber,
  parseReadings,
  parseStrokes,
  parseVariantRefs,
  radicalCharacter,
} from "./fields.ts";

/** Every Unihan property the records are derived from. */
export const RECORD_PROPERTIES: ReadonlySet<string> = new Set([
  "kHangul",
  "kTotalStrokes",
  "kRSUnicode",
  "kDefinition",
  "kKoreanEducationHanja",
  "kKoreanName",
  ...VARIANT_PROPERTIES,
]);

/** Unihan values grouped by code point, each kept with where it was read. */
export type UnihanTable = Map<number, Map<string, UnihanEntry>>;

/** Groups a reader's stream by code point (a property given twice for one code point is an error). */
export async function collectUnihan(entries: AsyncIterable<UnihanEntry>): Promise<UnihanTable> {
  const table: UnihanTable = new Map();
  for await (const entry of entries) {
    let props = table.get(entry.codepoint);
    if (!props) table.set(entry.codepoint, (props = new Map()));
    const before = props.get(entry.property);
    if (before) {
      throw new InputError(`unihan: ${entry.property} given twice for ${formatCodepoint(entry.codepoint)} (${where(before)} and ${where(entry)})`);
    }
    props.set(entry.property, entry);
  }
  return table;
}

/** Starter glosses keyed by character. */
export type StarterGlosses = ReadonlyMap<string, string>;

/** Builds the Hanja record of every code point with `kHangul`, in code point order, without glosses. */
export function buildHanjaRecords(table: UnihanTable, version: string): HanjaRecord[] {
  const source = `Unicode Unihan ${version}`;
  return recordCodepoints(table).map((cp) => buildRecord(cp, table.get(cp) as Map<string, UnihanEntry>, source));
}

/** The code points that become records (those with `kHangul`), in record order. */
export function recordCodepoints(table: UnihanTable): number[] {
  return [...table.keys()].filter((cp) => table.get(cp)?.has("kHangul")).sort((a, b) => a - b);
}

/** The records with the project's starter glosses joined in (`starter`, `meaning_ko`, `meaning_ko_source`). */
export function joinStarters(records: readonly HanjaRecord[], starters: StarterGlosses): HanjaRecord[] {
  return records.map((record) => {
    const gloss = starters.get(record.character);
    return gloss === undefined ? record : { ...record, starter: true, meaning_ko: gloss, meaning_ko_source: STARTER_GLOSS_SOURCE };
  });
}

// No closures are made per record: under tsx every named closure costs a `__name` call (esbuild's
// keepNames), which made building the 8,525 records several times slower (see RESULTS.md, "The build").
function buildRecord(cp: number, props: Map<string, UnihanEntry>, source: string): HanjaRecord {
  const character = String.fromCodePoint(cp);
  const readingsRaw = rawValue(cp, props, "kHangul");
  const strokesRaw = rawValue(cp, props, "kTotalStrokes");
  const rsRaw = rawValue(cp, props, "kRSUnicode");
  const radicalNumber = derive(cp, props, "kRSUnicode", parseRadicalNumber);
  const readings = derive(cp, props, "kHangul", parseReadings);
  const detail: Partial<Record<VariantProperty, VariantRef[]>> = {};
  for (const property of VARIANT_PROPERTIES) {
    if (props.has(property)) detail[property] = derive(cp, props, property, variantRefs);
  }
  return {
    character,
    codepoint: formatCodepoint(cp),
    radical: radicalCharacter(radicalNumber),
    radical_strokes_raw: rsRaw,
    readings_raw: readingsRaw,
    strokes_raw: strokesRaw,
    variants: flattenVariants(character, detail),
    source,
    license_url: UNICODE_LICENSE_URL,
    readings,
    strokes: derive(cp, props, "kTotalStrokes", parseStrokes),
    radical_number: radicalNumber,
    starter: false,
    meaning_ko: null,
    meaning_ko_source: null,
    definition_en: props.get("kDefinition")?.value ?? null,
    education_hanja: props.has("kKoreanEducationHanja"),
    // Set by `joinSchoolLevels` for the education hanja.
    school_level: null,
    name_hanja: props.has("kKoreanName"),
    // Without words; `joinReadings` sets it from the 대표훈음 and the words.
    reading: usualReadingOf(character, readings, []) as string,
    hunum: [],
    hunum_source: null,
    variants_detail: detail,
  };
}

const variantRefs = (raw: string, property: VariantProperty): VariantRef[] => parseVariantRefs(property, raw);

/** The raw value of a property the record cannot do without. */
function rawValue(cp: number, props: Map<string, UnihanEntry>, property: string): string {
  const entry = props.get(property);
  if (!entry) {
    const reading = props.get("kHangul");
    throw new InputError(
      `unihan: ${formatCodepoint(cp)} has kHangul but no ${property}${reading ? ` (kHangul ${JSON.stringify(reading.value)} at ${where(reading)})` : ""}`,
    );
  }
  return entry.value;
}

/** `parse(value, property)` of a property the code point has, a `FieldError` turned into an InputError saying where. */
function derive<P extends string, T>(cp: number, props: Map<string, UnihanEntry>, property: P, parse: (raw: string, property: P) => T): T {
  const entry = props.get(property) as UnihanEntry;
  try {
    return parse(entry.value, property);
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    throw new InputError(`unihan: ${error.message} at ${formatCodepoint(cp)} (${where(entry)})`);
  }
}

function where(entry: UnihanEntry): string {
  return entry.line > 0 ? `${entry.file}:${entry.line}` : entry.file;
}
