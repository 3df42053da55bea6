/** The record shapes the service publishes (docs/rules.md "Records", "Source data"). */

import type { Static } from "./schema.ts";
import type {
  HANJA_DETAIL,
  HANJA_RECORD,
  HANJA_STROKES,
  IDIOM_A,
  IDIOM_B,
  RADICAL_LIST,
  READ_RESULT,
  READ_SEGMENT,
  VARIANT_REF,
  WORD,
} from "./recordSchemas.ts";
import type { Word } from "./words.ts";

export { VARIANT_PROPERTIES } from "./recordSchemas.ts";

/** A Hanja record: the published fields of docs/rules.md "Records", then the product's extras (`HANJA_RECORD`). */
export type HanjaRecord = Static<typeof HANJA_RECORD>;

/** A character's detail: its record and the idioms containing it (`HANJA_DETAIL`). */
export type HanjaDetail = Static<typeof HANJA_DETAIL>;
/** A character's strokes in writing order (`HANJA_STROKES`). */
export type HanjaStrokes = Static<typeof HANJA_STROKES>;

/** One variant character of `variants_detail` (`VARIANT_REF`). */
export type VariantRef = Static<typeof VARIANT_REF>;

/** `GET /radicals`: the 214 Kangxi radicals with their strokes and how many characters have each (`RADICAL_LIST`). */
export type RadicalList = Static<typeof RADICAL_LIST>;

/** An idiom as the pipeline keeps it: interface B's raw record, `idx` a number (`IDIOM_B`). */
export type IdiomRecord = Static<typeof IDIOM_B>;

/** Interface A's idiom item: `idx` as a string (docs/rules.md "Records"), plus `chosung` and `literal` (`IDIOM_A`). */
export type IdiomItemA = Static<typeof IDIOM_A>;

/** One piece of a run of Han characters as the reader reads it (`READ_SEGMENT`). */
export type ReadSegment = Static<typeof READ_SEGMENT>;

/** A text and its reading, as `/read` answers it and `readHanja` returns it (`READ_RESULT`). */
export type ReadResult = Static<typeof READ_RESULT>;

/** A word as interface A lists it (`WORD`): the dictionary's word and the idiom written the same. */
export type WordItem = Static<typeof WORD>;

/**
 * The item of a word, `idiomIdx` the idx of the idiom written as it is (or undefined), `meaningEn` its
 * English gloss (null: none; undefined: the glosses are not loaded, and the item has no `meaning_en`).
 */
export function wordItem(word: Word, idiomIdx: number | undefined, meaningEn?: string | null): WordItem {
  const item: WordItem = { hanja: word.hanja, readings: word.readings, note: word.note, idiom_idx: idiomIdx === undefined ? null : String(idiomIdx) };
  if (meaningEn !== undefined) item.meaning_en = meaningEn;
  return item;
}

/** Interface A's idiom item for an idiom record. */
export function idiomItemA(idiom: IdiomRecord): IdiomItemA {
  const { idx, hanja, hangul, literal, meaning, meaning_en, chosung } = idiom;
  return { idx: String(idx), hanja, hangul, literal, meaning, meaning_en, chosung };
}

/** Interface B's idiom item as JSON (`idx` a number; also the quiz's `answer_idiom`). */
export function idiomJsonB(idiom: IdiomRecord): string {
  const { idx, hanja, hangul, chosung, literal, meaning, meaning_en } = idiom;
  return JSON.stringify({ idx, hanja, hangul, chosung, literal, meaning, meaning_en });
}

export const UNICODE_LICENSE_URL = "https://www.unicode.org/license.txt";
/** What `meaning_ko_source` says for the project's own glosses. */
export const STARTER_GLOSS_SOURCE = "Hanja API project original gloss (see idiom terms)";
export { HUNUM_SOURCE, IDIOMS_SOURCE } from "./recordSchemas.ts";
/** The licence of libhangul's hanja dictionary, as `/meta` names it. */
export const HUNUM_LICENSE_NAME = "BSD-3-Clause (libhangul hanja dictionary, © 2005–2006 Choe Hwanjin)";
/** The licence of the school levels (`school_level`), as `/meta` names it. */
export const SCHOOL_LEVELS_LICENSE_NAME = "CC BY-SA 4.0 (okpyeon, from Korean Wikipedia's 대한민국 중고등학교 기초한자 목록)";
/** The licence of the words' English meanings (`meaning_en` of a word), as `/meta` names it. */
export const WORD_MEANINGS_LICENSE_NAME = "CC BY-SA 4.0 (English Wiktionary contributors, compiled by okpyeon)";
export const CC_BY_SA_URL = "https://creativecommons.org/licenses/by-sa/4.0/";
