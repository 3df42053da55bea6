/** The record shapes the service publishes (docs/rules.md "Records", "Source data"). */

/** The Unihan variant properties, in the order their characters are listed in `variants`. */
export const VARIANT_PROPERTIES = [
  "kTraditionalVariant",
  "kSimplifiedVariant",
  "kSemanticVariant",
  "kSpecializedSemanticVariant",
  "kZVariant",
  "kSpoofingVariant",
  "kCompatibilityVariant",
] as const;

/** A Hanja record: the published fields of docs/rules.md "Records", then the product's extras. */
export interface HanjaRecord {
  character: string;
  codepoint: string;
  radical: string;
  radical_strokes_raw: string;
  readings_raw: string;
  strokes_raw: string;
  variants: string;
  source: string;
  license_url: string;
  readings: string[];
  strokes: number;
  radical_number: number;
  starter: boolean;
  meaning_ko: string | null;
  meaning_ko_source: string | null;
  definition_en: string | null;
  education_hanja: boolean;
  name_hanja: boolean;
  variants_detail: Record<string, { character: string; codepoint: string; sources: string[] }[]>;
}

/** An idiom as the pipeline keeps it (interface B's raw record: `idx` is a number). */
export interface IdiomRecord {
  idx: number;
  hanja: string;
  hangul: string;
  chosung: string;
  /** The word-for-word reading of the four characters; null when the idiom means just what they say. */
  literal: string | null;
  /** What the idiom means in use (never a restatement of `literal`). */
  meaning: string;
}

/** Interface A's idiom item: `idx` as a string (docs/rules.md "Records"), plus `chosung` and `literal`. */
export interface IdiomItemA {
  idx: string;
  hanja: string;
  hangul: string;
  literal: string | null;
  meaning: string;
  chosung: string;
}

/** Interface A's idiom item for an idiom record. */
export function idiomItemA(idiom: IdiomRecord): IdiomItemA {
  return { idx: String(idiom.idx), hanja: idiom.hanja, hangul: idiom.hangul, literal: idiom.literal, meaning: idiom.meaning, chosung: idiom.chosung };
}

/** Interface B's idiom item as JSON (`idx` a number; also the quiz's `answer_idiom`). */
export function idiomJsonB(idiom: IdiomRecord): string {
  return JSON.stringify({ idx: idiom.idx, hanja: idiom.hanja, hangul: idiom.hangul, chosung: idiom.chosung, literal: idiom.literal, meaning: idiom.meaning });
}

export const UNICODE_LICENSE_URL = "https://www.unicode.org/license.txt";
/** What `meaning_ko_source` says for the project's own glosses. */
export const STARTER_GLOSS_SOURCE = "Hanja API project original gloss (see idiom terms)";
/** The `source` of a page of idioms: the project's own data, not Unihan. */
export const IDIOMS_SOURCE = "Hanja API project original idioms (see idiom terms)";
