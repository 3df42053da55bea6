/**
 * `school_level` (docs/rules.md "School levels"): each of the 1,800 education hanja is taught in
 * middle school or in high school (the 2000 교육부 고시 list, 900 each). The pinned levels
 * (okpyeon's `lvl`, `pin/schoolLevelsPin.ts`) give 1,794 of them; the project's hand map
 * (`school-levels-map.csv`) gives the characters they spell in another form, each with its reason.
 */
import type { CsvRow } from "../load/csvTable.ts";
import { InputError } from "../load/types.ts";
import type { SourceLevel } from "../pin/schoolLevelsPin.ts";
import type { HanjaRecord } from "../../runtime/format/records.ts";

/** The project's file beside the pinned levels. */
export const SCHOOL_LEVEL_FILES = { map: "school-levels-map.csv" } as const;
export const SCHOOL_LEVEL_MAP_COLUMNS = ["character", "level", "source_form", "reason"] as const;

export type SchoolLevel = "middle" | "high";
const FROM_SOURCE: Record<SourceLevel, SchoolLevel> = { m: "middle", h: "high" };
/** How many characters each level has in the list: the build checks it when the input has all 1,800 education hanja. */
export const PER_LEVEL = 900;

export interface SchoolLevelCounts {
  middle: number;
  high: number;
  /** Levels taken from the pinned source, and from the hand map. */
  fromSource: number;
  fromMap: number;
  /** Characters of the source that are not records of this input (a smaller input). */
  notInInput: number;
}

/**
 * The records with `school_level`. Fails, listing every problem, on a source character that is a
 * record but not an education hanja; a map row that names no education hanja, one the source
 * already levels, a level other than `middle`/`high`, or no reason; and, when the map has rows, an
 * education hanja left without a level, or (with all 1,800) a split other than 900 / 900.
 */
export function joinSchoolLevels(
  records: readonly HanjaRecord[],
  source: ReadonlyMap<string, SourceLevel>,
  map: readonly CsvRow<(typeof SCHOOL_LEVEL_MAP_COLUMNS)[number]>[],
): { records: HanjaRecord[]; counts: SchoolLevelCounts } {
  const byCharacter = new Map(records.map((r) => [r.character, r]));
  const problems: string[] = [];
  const levels = new Map<string, SchoolLevel>();
  let notInInput = 0;
  for (const [character, level] of source) {
    const record = byCharacter.get(character);
    if (record === undefined) notInInput++;
    else if (!record.education_hanja) problems.push(`okpyeon/school-levels.csv: ${character} is not one of the education hanja in the character dataset`);
    else levels.set(character, FROM_SOURCE[level]);
  }
  const fromSource = levels.size;
  const file = SCHOOL_LEVEL_FILES.map;
  for (const { line, values } of map) {
    const { character, level, reason } = values;
    const at = `${file}:${line}`;
    if (byCharacter.get(character)?.education_hanja !== true)
      problems.push(`${at}: ${JSON.stringify(character)} is not one of the education hanja in the character dataset`);
    else if (source.has(character))
      problems.push(`${at}: ${character} already has a level in the pinned source (${source.get(character)}); the map gives only the ones it lacks`);
    else if (levels.has(character)) problems.push(`${at}: ${character} is listed twice`);
    else if (level !== "middle" && level !== "high") problems.push(`${at}: level ${JSON.stringify(level)} is neither middle nor high`);
    else if (reason.trim() === "") problems.push(`${at}: ${character} has no reason`);
    else levels.set(character, level);
  }
  const education = records.filter((r) => r.education_hanja);
  const counts: SchoolLevelCounts = { middle: 0, high: 0, fromSource, fromMap: levels.size - fromSource, notInInput };
  for (const level of levels.values()) counts[level]++;
  if (map.length > 0) {
    const missing = education.filter((r) => !levels.has(r.character));
    if (missing.length > 0) problems.push(`${file}: ${missing.length} education hanja without a school level: ${missing.map((r) => r.character).join(" ")}`);
    else if (education.length === 2 * PER_LEVEL && (counts.middle !== PER_LEVEL || counts.high !== PER_LEVEL)) {
      problems.push(`${file}: the levels give ${counts.middle} middle and ${counts.high} high; the list has ${PER_LEVEL} of each`);
    }
  }
  if (problems.length > 0) throw new InputError(problems.join("\n"));
  return { records: records.map((r) => ({ ...r, school_level: levels.get(r.character) ?? null })), counts };
}

/** The build summary's line on school levels. */
export function schoolLevelSummary(counts: SchoolLevelCounts): string {
  return (
    `${counts.middle} middle, ${counts.high} high (${counts.fromSource} from okpyeon, ${counts.fromMap} from ${SCHOOL_LEVEL_FILES.map})` +
    (counts.notInInput > 0 ? `; ${counts.notInInput} of the source's characters are not in this input` : "")
  );
}

/**
 * The served terms with the attribution and licence of okpyeon's data at their end (CC BY-SA 4.0
 * asks for both): the school levels, and the words' English meanings.
 */
export function termsWithShareAlike(terms: string): string {
  return (
    `${terms.trimEnd()}\n\n## School levels (the \`school_level\` field)\n\n` +
    "The 중학교용 / 고등학교용 split of the 1,800 education hanja comes from okpyeon's dictionary data " +
    "(https://github.com/jjm4000/okpyeon, `extension/data/hanja.json`, field `lvl`), which takes it from the Korean Wikipedia article " +
    "「대한민국 중고등학교 기초한자 목록」 (https://ko.wikipedia.org/wiki/대한민국_중고등학교_기초한자_목록). " +
    "Extracted (only the levels kept) and completed with six characters from the 2000 교육부 고시 list by the Hanja API project. " +
    "The field is licensed under the Creative Commons Attribution-ShareAlike 4.0 International licence " +
    "(https://creativecommons.org/licenses/by-sa/4.0/, text in the package's `licenses/`), not under the terms above, " +
    "which add no restriction to it; the underlying 교육부 고시 list is outside copyright (저작권법 제7조). Provided as is, without warranty.\n\n" +
    "## English meanings of words (the words' `meaning_en` field)\n\n" +
    "The English meanings of the dictionary's words come from okpyeon's dictionary data (https://github.com/jjm4000/okpyeon, `extension/data/words.json`), " +
    "compiled from English Wiktionary (https://en.wiktionary.org) by way of kaikki.org's extracts; each word's senses are joined, each once, by the Hanja API project. " +
    "Wiktionary's text is by its contributors (each entry's page history names them). The field is licensed under the Creative Commons Attribution-ShareAlike 4.0 " +
    "International licence (https://creativecommons.org/licenses/by-sa/4.0/), not under the terms above, which add no restriction to it. Provided as is, without warranty.\n"
  );
}
