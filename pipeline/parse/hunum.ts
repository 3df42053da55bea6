/**
 * 훈음 from libhangul's hanja dictionary, for the records: each single-character entry's gloss is
 * split on `, ` and each part read as `훈 음` (docs/rules.md "훈음"). The dictionary's order is
 * kept (樂: 즐길 낙, 즐거울 락, 즐길 락, 풍류 악, …).
 */
import { HUNUM_SOURCE, type HanjaRecord } from "../../runtime/format/records.ts";
import type { DictionaryEntry } from "../load/hanjaDictionary.ts";

/** One 훈음: the meaning word(s) and the reading. */
export interface Hunum {
  hun: string;
  eum: string;
}

/** What the join did, for the build's summary and `/meta`. */
export interface HunumCounts {
  /** Records with at least one 훈음. */
  characters: number;
  education_hanja: number;
  name_hanja: number;
  /** 훈음 in all records. */
  hunum: number;
  /** 훈음 whose 음 is not among the record's Unihan readings (kept: see `joinHunum`). */
  eum_outside_unihan: number;
  /** Gloss parts without a 음 of their own (`強: 강할`), given the entry's reading as 음. */
  eum_from_entry: number;
  /** Gloss parts left out: notes naming another character (`謌: 歌와 同字`). */
  notes_left_out: number;
}

const ONE_SYLLABLE = /^\p{Script=Hangul}$/u;
const HAN = /\p{Script=Han}/u;

/**
 * The 훈음 of one gloss part of an entry read `reading`: `물 수` → 물 / 수 (the last
 * space-separated word is the 음 when it is one Hangul syllable and something precedes it); a
 * part without such a 음 and without a Han character (`강할`) is a 훈 read with the entry's
 * reading; a part with a Han character (`歌와 同字`, a note on a variant) is no 훈음 (null).
 */
export function parseGlossPart(part: string, reading: string): { hunum: Hunum; fromEntry: boolean } | null {
  if (HAN.test(part) || part === "") return null;
  const space = part.lastIndexOf(" ");
  const eum = part.slice(space + 1);
  if (space > 0 && ONE_SYLLABLE.test(eum)) return { hunum: { hun: part.slice(0, space), eum }, fromEntry: false };
  return { hunum: { hun: part, eum: reading }, fromEntry: true };
}

/**
 * The records with `hunum` (and `hunum_source`) from the dictionary's single-character entries, in
 * the dictionary's order, a repeated 훈음 kept once. A 음 that is not among the record's Unihan
 * readings is kept (the dictionary gives the 두음법칙 form, 郎 낭, or a reading Unihan lacks,
 * 乾 간) and counted. Records the dictionary has no 훈음 for keep `[]` and null.
 */
export function joinHunum(records: readonly HanjaRecord[], entries: readonly DictionaryEntry[]): { records: HanjaRecord[]; counts: HunumCounts } {
  const counts: HunumCounts = { characters: 0, education_hanja: 0, name_hanja: 0, hunum: 0, eum_outside_unihan: 0, eum_from_entry: 0, notes_left_out: 0 };
  const wanted = new Set(records.map((r) => r.character));
  const byCharacter = new Map<string, Hunum[]>();
  for (const entry of entries) {
    if (entry.gloss === "" || !wanted.has(entry.hanja)) continue;
    const list = byCharacter.get(entry.hanja) ?? [];
    for (const part of entry.gloss.split(", ")) {
      const parsed = parseGlossPart(part.trim(), entry.reading);
      if (parsed === null) counts.notes_left_out++;
      else if (!list.some((h) => h.hun === parsed.hunum.hun && h.eum === parsed.hunum.eum)) {
        list.push(parsed.hunum);
        if (parsed.fromEntry) counts.eum_from_entry++;
      }
    }
    if (list.length > 0) byCharacter.set(entry.hanja, list);
  }
  const joined = records.map((record) => {
    const hunum = byCharacter.get(record.character);
    if (hunum === undefined) return record;
    counts.characters++;
    counts.hunum += hunum.length;
    if (record.education_hanja) counts.education_hanja++;
    if (record.name_hanja) counts.name_hanja++;
    for (const { eum } of hunum) if (!record.readings.includes(eum)) counts.eum_outside_unihan++;
    return { ...record, hunum, hunum_source: HUNUM_SOURCE };
  });
  return { records: joined, counts };
}

/** The build summary's line on 훈음. */
export function hunumSummary(counts: HunumCounts, total: number): string {
  return (
    `${counts.characters} of ${total} characters with 훈음 (${counts.education_hanja} education, ${counts.name_hanja} name hanja), ` +
    `${counts.hunum} 훈음, ${counts.eum_outside_unihan} with a 음 outside Unihan's readings (kept), ${counts.eum_from_entry} 음 from the entry's reading, ` +
    `${counts.notes_left_out} notes left out`
  );
}

/**
 * The dictionary's licence notice: its leading `#` lines without the `# ` (the BSD 3-clause
 * notice the licence asks every redistribution to reproduce), for the served terms and the package.
 */
export function dictionaryNotice(text: string): string {
  const lines: string[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("#")) break;
    lines.push(line.replace(/^# ?/, "").trimEnd());
  }
  return `${lines.join("\n").trim()}\n`;
}

/** The served terms: the project's TERMS.md, then the dictionary's notice under its own heading. */
export function termsWithDictionaryNotice(terms: string, notice: string): string {
  return `${terms.trimEnd()}\n\n## libhangul hanja dictionary (the \`hunum\` field)\n\n\`\`\`text\n${notice}\`\`\`\n`;
}
