/**
 * The pinned Unihan release: the zip kept in `pipeline/data/unihan/` and `pin.json` beside it,
 * which records its version, SHA-256 and what the data gives (counts and spot records). The build
 * verifies the zip against the pin and checks its totals against it; the tests read their
 * release-specific values from it. `pin.json` is computed from the zip (`computePin`), never typed
 * by hand: `npm run pin` (or the release job) writes it.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { HanjaRecord } from "../../runtime/format/records.ts";
import { InputError } from "../load/types.ts";

/** The folder holding the pinned zip, its licence, provenance and `pin.json`. */
export const PIN_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../data/unihan");
export const PIN_FILE = "pin.json";

/** What a release gives, measured from its records; the build fails on the pinned version when one differs. */
export interface ReleaseCounts {
  /** Code points with `kHangul`: the dataset. */
  characters: number;
  /** With `kKoreanEducationHanja`. */
  education_hanja: number;
  /** With `kKoreanName`. */
  name_hanja: number;
  /** With more than one distinct reading. */
  several_readings: number;
  /** With at least one variant character. */
  with_variants: number;
  /** Without `kDefinition`. */
  without_definition: number;
  /** Outside the Basic Multilingual Plane. */
  astral: number;
  /** CJK compatibility ideographs (U+F900–FAFF). */
  compatibility: number;
  /** With several `kRSUnicode` tokens. */
  several_radical_tokens: number;
  /** Variant values that name the record's own character (kept in `variants_detail`, left out of `variants`). */
  variant_self_references: number;
}

/** A record's Unihan-derived fields (the project's gloss fields, from starter.csv, and the dictionary's 훈음 left out). */
export type UnihanFields = Omit<HanjaRecord, "starter" | "meaning_ko" | "meaning_ko_source" | "reading" | "hunum" | "hunum_source" | "school_level">;

/** `pin.json`. */
export interface UnihanPin {
  /** Unicode version read from the zip's headers. */
  version: string;
  /** The zip's file name in the pin folder. */
  file: string;
  /** SHA-256 of the zip, hex. */
  sha256: string;
  /** Where the zip came from (a URL, or a sentence of provenance). */
  origin: string;
  counts: ReleaseCounts;
  /** The records of `SPOT_CHARACTERS` present in the release, keyed by character. */
  spot_records: Record<string, UnihanFields>;
}

/**
 * Characters whose records the pin keeps, each for an edge case of docs/rules.md "Unihan fields": a plain one
 * (水), several readings (樂, 不 in file order), a negative residual (王), several kRSUnicode
 * tokens (着), stroke counts that changed in 17.0 (范, 骨, 囍), a compatibility ideograph and its
 * unified counterpart (讀 U+8B80, U+F95A), an astral character (U+2E569), and two common
 * education hanja (金, 學). A character a release drops is simply absent from the pin.
 */
export const SPOT_CHARACTERS: readonly string[] = ["水", "樂", "不", "王", "着", "范", "骨", "囍", "讀", "\u{F95A}", "\u{2E569}", "金", "學"];

/** Reads and checks `pin.json` in `dir`, naming the file and field at fault. */
export function readPin(dir = PIN_DIR): UnihanPin {
  const path = join(dir, PIN_FILE);
  if (!existsSync(path)) throw new InputError(`${path}: missing; it pins the Unihan release the build uses (npm run pin writes it from the zip)`);
  let pin: Partial<UnihanPin>;
  try {
    pin = JSON.parse(readFileSync(path, "utf8")) as Partial<UnihanPin>;
  } catch (error) {
    throw new InputError(`${path}: not valid JSON: ${(error as Error).message}`);
  }
  const bad = (field: string, what: string) => new InputError(`${path}: ${field} ${what}, got ${JSON.stringify((pin as Record<string, unknown>)[field])}`);
  if (typeof pin.version !== "string" || !/^\d+\.\d+\.\d+$/.test(pin.version)) throw bad("version", "must be a Unicode version like 17.0.0");
  if (typeof pin.file !== "string" || !/^[\w.-]+\.zip$/.test(pin.file)) throw bad("file", "must name a .zip file in the pin folder");
  if (typeof pin.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(pin.sha256)) throw bad("sha256", "must be 64 lower-case hex digits");
  if (typeof pin.origin !== "string") throw bad("origin", "must be a string");
  if (typeof pin.counts !== "object" || pin.counts === null) throw bad("counts", "must be an object");
  for (const [key, value] of Object.entries(pin.counts)) {
    if (!Number.isInteger(value) || (value as number) < 0) throw new InputError(`${path}: counts.${key} must be a whole number, got ${JSON.stringify(value)}`);
  }
  if (typeof pin.spot_records !== "object" || pin.spot_records === null) throw bad("spot_records", "must be an object");
  return pin as UnihanPin;
}

/** The path of the pinned zip. */
export function pinnedZip(pin: UnihanPin, dir = PIN_DIR): string {
  return join(dir, pin.file);
}
