import MiniSearch from "minisearch";
import { CHARACTER_INDEX, type CharacterDoc, IDIOM_INDEX, type IdiomDoc } from "../../runtime/core/data/format.ts";
import type { HanjaRecord, IdiomRecord } from "../../runtime/core/data/records.ts";

/**
 * The character full-text index: only records with an English definition or a Korean gloss,
 * only those two fields; exact lookups (character, code point, reading) stay in plain tables.
 */
export function buildCharacterIndex(records: readonly HanjaRecord[]): MiniSearch<CharacterDoc> {
  const index = new MiniSearch<CharacterDoc>(CHARACTER_INDEX);
  records.forEach((record, id) => {
    if (record.definition_en === null && record.meaning_ko === null) return;
    const definition = record.definition_en ?? "";
    index.add({ id, definition_en: definition, sense: definition.split(/[,;]/)[0] ?? "", meaning_ko: record.meaning_ko ?? "" });
  });
  return index;
}

/** The idiom meaning index (hanja, hangul and chosung are matched as substrings at run time). */
export function buildIdiomIndex(idioms: readonly IdiomRecord[]): MiniSearch<IdiomDoc> {
  const index = new MiniSearch<IdiomDoc>(IDIOM_INDEX);
  index.addAll(idioms.map((idiom, id) => ({ id, meaning: idiom.meaning })));
  return index;
}
