/**
 * 훈음 from libhangul's hanja dictionary, for the records: each single-character entry's gloss is
 * split on `, ` and each part read as `훈 음` (docs/rules.md "훈음"). The dictionary's order is
 * kept (樂: 즐길 낙, 즐거울 락, 즐길 락, 풍류 악, …), with the project's corrections applied, and
 * an education hanja's 대표훈음 (the project's own, `representative-hunum.csv`) put first.
 */
import { HUNUM_SOURCE, type HanjaRecord } from "../../runtime/format/records.ts";
import type { CsvRow } from "../load/csvTable.ts";
import type { DictionaryEntry } from "../load/hanjaDictionary.ts";
import { InputError } from "../load/types.ts";
import { type WordUse, usualReadingOf } from "../../runtime/format/usualReading.ts";
import type { Word } from "../../runtime/format/words.ts";

/** One 훈음: the meaning word(s) and the reading; `representative` on an education hanja's 대표훈음 (its first). */
export interface Hunum {
  hun: string;
  eum: string;
  representative?: true;
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
  /** What the project's corrections and 대표훈음 did. */
  overlay: OverlayCounts;
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
export function joinHunum(
  records: readonly HanjaRecord[],
  entries: readonly DictionaryEntry[],
  overlay: HunumOverlay = { corrections: [], representative: [] },
): { records: HanjaRecord[]; counts: HunumCounts } {
  const counts: Omit<HunumCounts, "overlay"> = {
    characters: 0,
    education_hanja: 0,
    name_hanja: 0,
    hunum: 0,
    eum_outside_unihan: 0,
    eum_from_entry: 0,
    notes_left_out: 0,
  };
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
  const { counts: overlayCounts } = applyHunumOverlay(byCharacter, records, overlay);
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
  return { records: joined, counts: { ...counts, overlay: overlayCounts } };
}

/** The project's files beside the dictionary: its corrections, and the 대표훈음 of the education hanja (docs/rules.md "훈음"). */
export const HUNUM_FILES = { corrections: "hunum-corrections.csv", representative: "representative-hunum.csv" } as const;
export const CORRECTION_COLUMNS = ["character", "as_given", "corrected", "reason"] as const;
export const REPRESENTATIVE_COLUMNS = ["character", "hun", "eum", "change", "reason"] as const;
/** What a 대표훈음 is to the dictionary's list as published: its first, in it after the first, in it only misspelt or mis-paired, or not in it. */
export const REPRESENTATIVE_CHANGES = ["kept", "moved", "corrected", "added"] as const;
export type CorrectionRow = CsvRow<(typeof CORRECTION_COLUMNS)[number]>;
export type RepresentativeRow = CsvRow<(typeof REPRESENTATIVE_COLUMNS)[number]>;

/** The project's own 훈음 rows, each file's rows (absent file = none). */
export interface HunumOverlay {
  corrections: readonly CorrectionRow[];
  representative: readonly RepresentativeRow[];
}

/** What the overlay did, for the build's summary. */
export interface OverlayCounts {
  /** Corrections applied, by kind: a 훈음 replaced, added, removed. */
  corrected: number;
  added: number;
  removed: number;
  /** 대표훈음 set, by `change`. */
  representative: Record<(typeof REPRESENTATIVE_CHANGES)[number], number>;
}

// `훈 음`: a 훈 of one or more words (no Han character, no separator of `Tables.hunum`), a space, one Hangul syllable.
const HUNUM_TEXT = /^([^\s|;\p{Script=Han}](?:[^|;\p{Script=Han}]*[^\s|;\p{Script=Han}])?) ([가-힣])$/u;
const hunumText = ({ hun, eum }: Hunum) => `${hun} ${eum}`;

/** `훈 음` read as a 훈음, or null when it is not of that form. */
export function parseHunumText(text: string): Hunum | null {
  const match = HUNUM_TEXT.exec(text);
  return match ? { hun: match[1] as string, eum: match[2] as string } : null;
}

/**
 * Applies the project's corrections to the dictionary's 훈음 (`byCharacter`, changed in place),
 * then puts each education hanja's 대표훈음 first, marked `representative`, without a second copy
 * further on. A correction replaces its `as_given` where it stands (`corrected` empty: removes
 * it; `as_given` empty: adds `corrected` at the end). Fails, naming file, line and value, on a row
 * for a character not in the records, an `as_given` that is not among the character's 훈음 as the
 * dictionary gives them, a value not of the form `훈 음`, a repeated row, a 대표훈음 for a
 * character that is not an education hanja, a `change` that does not say what the row does, or an
 * education hanja without a 대표훈음 (when the file has rows). A 음 outside Unihan's readings is
 * kept, as the dictionary's are (counted by `joinHunum`).
 */
export function applyHunumOverlay(
  byCharacter: Map<string, Hunum[]>,
  records: readonly HanjaRecord[],
  overlay: HunumOverlay,
): { counts: OverlayCounts; representative: Map<string, Hunum> } {
  const counts: OverlayCounts = { corrected: 0, added: 0, removed: 0, representative: { kept: 0, moved: 0, corrected: 0, added: 0 } };
  const problems: string[] = [];
  const recordOf = new Map(records.map((r) => [r.character, r]));
  const published = new Map([...byCharacter].map(([c, list]) => [c, list.map(hunumText)]));
  const seen = new Map<string, number>();
  const fixes: { character: string; from: string; to: Hunum | null }[] = [];
  for (const { line, values } of overlay.corrections) {
    const bad = (why: string) => problems.push(`${HUNUM_FILES.corrections}:${line}: ${why}`);
    const { character, as_given, corrected } = values;
    if (!recordOf.has(character)) {
      bad(`character ${JSON.stringify(character)} is not in the character dataset`);
      continue;
    }
    const given = published.get(character) ?? [];
    if (as_given === "" && corrected === "") bad(`${character}: as_given and corrected are both empty`);
    if (as_given !== "" && !given.includes(as_given)) {
      bad(`${character}: as_given ${JSON.stringify(as_given)} is not one of its 훈음 in the dictionary (${given.join(", ") || "none"})`);
    }
    const to = corrected === "" ? null : parseHunumText(corrected);
    if (corrected !== "" && to === null) bad(`${character}: corrected ${JSON.stringify(corrected)} is not of the form "훈 음" ("대궐 궁")`);
    const key = `${character} ${as_given === "" ? `+${corrected}` : as_given}`;
    if (seen.has(key)) bad(`${character}: ${JSON.stringify(as_given || corrected)} repeats line ${seen.get(key)}`);
    seen.set(key, line);
    fixes.push({ character, from: as_given, to });
  }
  const representative = new Map<string, Hunum>();
  const lines = new Map<string, number>();
  for (const { line, values } of overlay.representative) {
    const bad = (why: string) => problems.push(`${HUNUM_FILES.representative}:${line}: ${why}`);
    const { character, hun, eum, change } = values;
    const record = recordOf.get(character);
    if (record === undefined || !record.education_hanja) {
      bad(`character ${JSON.stringify(character)} is not one of the education hanja in the character dataset`);
      continue;
    }
    if (lines.has(character)) bad(`${character} repeats line ${lines.get(character)}`);
    lines.set(character, line);
    const hunum = /^[가-힣]$/.test(eum) ? parseHunumText(`${hun} ${eum}`) : null;
    if (hunum === null) {
      bad(`${character}: hun ${JSON.stringify(hun)} and eum ${JSON.stringify(eum)} are not a 훈 and a one-syllable 음`);
      continue;
    }
    const given = published.get(character) ?? [];
    const at = given.indexOf(hunumText(hunum));
    const expected = at === 0 ? "kept" : at > 0 ? "moved" : null;
    if (!(REPRESENTATIVE_CHANGES as readonly string[]).includes(change))
      bad(`${character}: change ${JSON.stringify(change)} is not one of ${REPRESENTATIVE_CHANGES.join(", ")}`);
    else if (expected !== null ? change !== expected : change === "kept" || change === "moved") {
      bad(
        `${character}: change ${JSON.stringify(change)}, but ${JSON.stringify(hunumText(hunum))} is ${at === -1 ? "not among" : `number ${at + 1} of`} its 훈음 in the dictionary (${given.join(", ") || "none"})`,
      );
    } else counts.representative[change as (typeof REPRESENTATIVE_CHANGES)[number]]++;
    representative.set(character, hunum);
  }
  if (overlay.representative.length > 0) {
    const missing = records.filter((r) => r.education_hanja && !representative.has(r.character) && !lines.has(r.character));
    if (missing.length > 0)
      problems.push(`${HUNUM_FILES.representative}: ${missing.length} education hanja without a row: ${missing.map((r) => r.character).join(" ")}`);
  }
  if (problems.length > 0) throw new InputError(`${problems.length} bad row(s) of the 훈음 overlay:\n  ${problems.join("\n  ")}`);

  for (const { character, from, to } of fixes) {
    const list = byCharacter.get(character) ?? [];
    const at = from === "" ? -1 : list.findIndex((h) => hunumText(h) === from);
    if (to === null) list.splice(at, 1);
    else if (at === -1) list.push(to);
    else list[at] = to;
    // A corrected 훈음 the list already has (깍을 삭 → 깎을 삭) is kept once, where it stood first.
    const unique = list.filter((h, i) => list.findIndex((o) => hunumText(o) === hunumText(h)) === i);
    if (unique.length > 0) byCharacter.set(character, unique);
    else byCharacter.delete(character);
    counts[to === null ? "removed" : from === "" ? "added" : "corrected"]++;
  }
  for (const [character, hunum] of representative) {
    const rest = (byCharacter.get(character) ?? []).filter((h) => hunumText(h) !== hunumText(hunum));
    byCharacter.set(character, [{ ...hunum, representative: true }, ...rest]);
  }
  return { counts, representative };
}

/** The build summary's line on 훈음. */
export function hunumSummary(counts: HunumCounts, total: number): string {
  const o = counts.overlay;
  const r = o.representative;
  return (
    `${counts.characters} of ${total} characters with 훈음 (${counts.education_hanja} education, ${counts.name_hanja} name hanja), ` +
    `${counts.hunum} 훈음, ${counts.eum_outside_unihan} with a 음 outside Unihan's readings (kept), ${counts.eum_from_entry} 음 from the entry's reading, ` +
    `${counts.notes_left_out} notes left out; corrections: ${o.corrected} corrected, ${o.added} added, ${o.removed} removed; ` +
    `대표훈음 of ${r.kept + r.moved + r.corrected + r.added} education hanja (${r.kept} the dictionary's first, ${r.moved} moved first, ${r.corrected} corrected, ${r.added} added)`
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

/**
 * The records with `reading`, the representative reading (docs/rules.md "훈음"): an education
 * hanja's is its 대표훈음's 음; any other character's is the reading its words use most, each use
 * counted in its basic form (`usualReadingOf`, what the reader gives the character outside any
 * word), or without words the first of its readings that is not another's initial-sound form.
 */
export function joinReadings(records: readonly HanjaRecord[], words: readonly Word[]): HanjaRecord[] {
  const uses = new Map<string, WordUse[]>();
  for (const { hanja, readings } of words) {
    const characters = [...hanja];
    if (characters.length < 2) continue;
    for (const character of new Set(characters)) {
      let list = uses.get(character);
      if (list === undefined) uses.set(character, (list = []));
      for (const reading of readings) list.push({ hanja: characters, reading: [...reading] });
    }
  }
  return records.map((record) => {
    const representative = record.hunum[0]?.representative ? record.hunum[0].eum : undefined;
    const reading = representative ?? (usualReadingOf(record.character, record.readings, uses.get(record.character) ?? []) as string);
    return reading === record.reading ? record : { ...record, reading };
  });
}
