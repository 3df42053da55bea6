/**
 * Pure derivations of the Hanja record's fields from raw Unihan values (docs/rules.md "Unihan fields").
 * Each parser throws a `FieldError` naming the property and the bad value; the caller adds where.
 */
import { RADICAL_COUNT } from "../../runtime/format/radicals.ts";

/** A raw value that does not have the documented format. */
export class FieldError extends Error {
  constructor(
    readonly property: string,
    readonly value: string,
    why: string,
  ) {
    super(`bad ${property} ${JSON.stringify(value)}: ${why}`);
    this.name = "FieldError";
  }
}

import { VARIANT_PROPERTIES } from "../../runtime/format/records.ts";

export { VARIANT_PROPERTIES };
export type VariantProperty = (typeof VARIANT_PROPERTIES)[number];

/** One variant reference with its dictionary sources (`U+9F92<kHanYu:T` → sources `["kHanYu:T"]`). */
export interface VariantRef {
  character: string;
  codepoint: string;
  sources: string[];
}

const READING_TOKEN = /^([가-힣]):([01ENX]{1,3})$/;
const STROKES_TOKEN = /^[1-9]\d?$/;
const RS_TOKEN = /^(\d{1,3})('{0,3})\.(-?\d{1,2})$/;
const VARIANT_TOKEN = /^U\+([0-9A-F]{4,6})(?:<(.+))?$/;
const VARIANT_SOURCE = /^[ks][A-Za-z0-9_]+(?::[A-Za-z0-9]+)?$/;

/** `U+` and upper-case hex, at least four digits (`0x2e569` → `U+2E569`). */
export function formatCodepoint(codepoint: number): string {
  return `U+${codepoint.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** `kHangul` → the syllables in file order, duplicates dropped (`온:N 은:N` → `["온","은"]`). */
export function parseReadings(raw: string): string[] {
  const readings: string[] = [];
  for (const token of raw.split(" ")) {
    const match = READING_TOKEN.exec(token);
    if (!match?.[1]) throw new FieldError("kHangul", raw, `token "${token}" is not syllable:sources`);
    if (!readings.includes(match[1])) readings.push(match[1]);
  }
  return readings;
}

/** First `kTotalStrokes` value as an integer (`9 10` → 9). */
export function parseStrokes(raw: string): number {
  const tokens = raw.split(" ");
  for (const token of tokens) {
    if (!STROKES_TOKEN.test(token)) throw new FieldError("kTotalStrokes", raw, `token "${token}" is not a stroke count`);
  }
  return Number(tokens[0]);
}

/** Kangxi radical number of the first `kRSUnicode` token, apostrophes stripped (`120'.3` → 120). */
export function parseRadicalNumber(raw: string): number {
  const tokens = raw.split(" ");
  for (const token of tokens) {
    if (!RS_TOKEN.test(token)) throw new FieldError("kRSUnicode", raw, `token "${token}" is not radical.residual`);
  }
  const radical = Number(RS_TOKEN.exec(tokens[0] ?? "")?.[1]);
  if (radical < 1 || radical > RADICAL_COUNT) throw new FieldError("kRSUnicode", raw, `radical ${radical} is outside 1–${RADICAL_COUNT}`);
  return radical;
}

/** The Kangxi radical `n` as a unified ideograph (85 → 水, not ⽔); the runtime names radicals with the same function. */
export { radicalCharacter } from "../../runtime/format/radicals.ts";

/** One variant property's value → its references, in file order. */
export function parseVariantRefs(property: VariantProperty, raw: string): VariantRef[] {
  return raw.split(" ").map((token) => {
    const match = VARIANT_TOKEN.exec(token);
    if (!match?.[1]) throw new FieldError(property, raw, `token "${token}" is not U+XXXX[<sources]`);
    const sources = match[2] ? match[2].split(",") : [];
    for (const source of sources) {
      if (!VARIANT_SOURCE.test(source)) throw new FieldError(property, raw, `bad source tag "${source}" in "${token}"`);
    }
    const codepoint = Number.parseInt(match[1], 16);
    return { character: String.fromCodePoint(codepoint), codepoint: formatCodepoint(codepoint), sources };
  });
}

/**
 * The flat `variants` string: distinct variant characters other than the record's own, in
 * property order then file order, space-separated; `""` when none.
 */
export function flattenVariants(own: string, detail: Partial<Record<VariantProperty, VariantRef[]>>): string {
  const seen: string[] = [];
  for (const property of VARIANT_PROPERTIES) {
    for (const ref of detail[property] ?? []) {
      if (ref.character !== own && !seen.includes(ref.character)) seen.push(ref.character);
    }
  }
  return seen.join(" ");
}
