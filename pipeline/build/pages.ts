import type { DataCounts } from "../../runtime/format/dist.ts";
import type { CharacterWords } from "./words.ts";
import {
  CC_BY_SA_URL,
  HUNUM_LICENSE_NAME,
  SCHOOL_LEVELS_LICENSE_NAME,
  WORD_MEANINGS_LICENSE_NAME,
  type HanjaRecord,
  type IdiomRecord,
  UNICODE_LICENSE_URL,
  idiomItemA,
} from "../../runtime/format/records.ts";

/**
 * The detail body of every record (docs/rules.md "Records"): the record plus its idioms in idx order,
 * as the record's own JSON with `idioms` appended (the runtime cuts the record at that key), then
 * its first words and their count (`wordsByCharacter`). The runtime ends each with `stroke_order`, from `tables.json`.
 */
export function buildDetailBodies(
  recordJson: readonly string[],
  records: readonly HanjaRecord[],
  idioms: readonly IdiomRecord[],
  byCharacter: Record<string, number[]>,
  words: ReadonlyMap<string, CharacterWords>,
): string[] {
  const itemJson = idioms.map((idiom) => JSON.stringify(idiomItemA(idiom)));
  return records.map((record, i) => {
    const related = (byCharacter[record.character] ?? []).map((p) => itemJson[p]);
    const own = words.get(record.character);
    return `${(recordJson[i] ?? "{}").slice(0, -1)},"idioms":[${related.join(",")}],"words":[${own?.items.join(",") ?? ""}],"word_count":${own?.count ?? 0}}`;
  });
}

export interface MetaInput {
  unihanVersion: string;
  unihanOrigin: string;
  counts: DataCounts;
  builtAt: string;
  /** The strokes' coverage by form and their sources (`/meta`'s `stroke_order`). */
  strokeOrder?: StrokeOrderMeta;
}

/** `/meta`'s `stroke_order`: how many characters have strokes of each form, of all and of the education hanja, and the sources. */
export interface StrokeOrderMeta {
  coverage: { all: Record<string, number>; education_hanja: Record<string, number> };
  sources: { name: string; form: string; version: string }[];
}

/** The `/meta` body (docs/rules.md "Interface A"); the runtime replaces `counts` with what it measures when it loads. */
export function buildMetaBody(input: MetaInput): Record<string, unknown> {
  return {
    api_version: "1.0.0",
    data: {
      unihan_version: input.unihanVersion,
      source: `Unicode Unihan ${input.unihanVersion}`,
      unihan_origin: input.unihanOrigin,
      idioms_version: "1",
      built_at: input.builtAt,
    },
    counts: input.counts,
    ...(input.strokeOrder === undefined ? {} : { stroke_order: input.strokeOrder }),
    licenses: {
      unihan: { name: "Unicode License V3", url: UNICODE_LICENSE_URL, notice: "Unicode-derived fields must keep the Unicode license notice." },
      idioms: {
        name: "Hanja API idiom terms",
        notice: "Idioms and Korean glosses are original work of this project; redistributing the whole dataset as-is is not permitted.",
      },
      hanja_dictionary: {
        name: HUNUM_LICENSE_NAME,
        notice:
          "The 훈음 (`hunum`) come from libhangul's hanja dictionary: a redistribution must reproduce its copyright notice, conditions and disclaimer, served at the end of the terms.",
      },
      school_levels: {
        name: SCHOOL_LEVELS_LICENSE_NAME,
        url: CC_BY_SA_URL,
        notice:
          "The school levels (`school_level`) come from okpyeon's compiled list (from Korean Wikipedia): keep its attribution, served at the end of the terms; they stay under CC BY-SA 4.0, which the idiom terms do not restrict.",
      },
      word_meanings: {
        name: WORD_MEANINGS_LICENSE_NAME,
        url: CC_BY_SA_URL,
        notice:
          "The English meanings of words (the words' `meaning_en`) come from English Wiktionary as okpyeon compiles it: keep the attribution served at the end of the terms; they stay under CC BY-SA 4.0, which the idiom terms do not restrict.",
      },
      stroke_order: {
        name: "Arphic Public License",
        url: "https://ftp.gnu.org/non-gnu/chinese-fonts-truetype/LICENSE",
        notice: "Keep the attribution each strokes body carries.",
      },
      stroke_order_ja: {
        name: "CC BY-SA 3.0",
        url: "https://creativecommons.org/licenses/by-sa/3.0/",
        notice:
          "The `ja` strokes come from KanjiVG: keep the attribution each of their bodies carries; they stay under CC BY-SA 3.0, which the idiom terms do not restrict.",
      },
    },
  };
}
