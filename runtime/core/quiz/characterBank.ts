/**
 * What the character quizzes draw from (`types/*` with `over: "characters"`): the characters with
 * 훈음, their readings, 훈음, radical, strokes and variants, the pools of `level`, and the idioms
 * (for `idiom_blank`). Made once, on the first character quiz: it reads 7,173 records.
 */
import { FLAG_EDUCATION, FLAG_HIGH_SCHOOL, FLAG_HUNUM, FLAG_MIDDLE_SCHOOL, FLAG_NAME } from "../../format/dist.ts";
import { initialSoundForms } from "../../format/hangul.ts";
import type { IdiomRecord } from "../../format/records.ts";
import type { LoadedData } from "../data/load.ts";
import type { Hunum, RecordFields } from "../data/recordFields.ts";

/**
 * The character pools of `level`: the 1,800 education hanja, the 900 of them taught in middle school
 * or the 900 taught in high school (`school_level`), the name hanja, or every character with 훈음.
 */
export const LEVELS = ["education", "middle", "high", "name", "all"] as const;
export type Level = (typeof LEVELS)[number];

/** What a character quiz asks about: a character (a position in the character tables), or an idiom with the character at `blank` left out. */
export type Subject = { kind: "character"; position: number } | { kind: "idiom"; position: number; blank: number };

export type { Hunum } from "../data/recordFields.ts";

/** A question a character quiz type asks about its subject. */
export interface Asked {
  subject: Subject;
  prompt: string;
  /** The right option: its text and the `hangul` shown with it. */
  right: { text: string; hangul: string };
  /** Every standard answer as written (grading compares them in `gradingForm`). */
  accepted: readonly string[];
  /** The character asked about (for `idiom_blank`, the one left out). */
  character: number;
}

/** The characters and idioms character quizzes draw from. */
export interface CharacterBank {
  character(position: number): string;
  /** Unihan's readings of the character. */
  readings(position: number): readonly string[];
  /** Its representative reading (the record's `reading`: 北 북). */
  reading(position: number): string | undefined;
  /** Its 훈음, an education hanja's 대표훈음 first, then the dictionary's order (the first is the standard answer). */
  hunum(position: number): readonly Hunum[];
  strokes(position: number): number;
  radical(position: number): number;
  /** The positions of its variant characters (either record naming the other). */
  variants(position: number): ReadonlySet<number>;
  position(character: string): number | undefined;
  /** The positions of `level`'s pool, in code point order. */
  pool(level: Level): readonly number[];
  inPool(level: Level, position: number): boolean;
  /** Characters with 훈음 per radical number. */
  byRadical(radical: number): readonly number[];
  /** Characters with a 훈음 of this 음 (in any of its initial-sound forms). */
  byEum(eum: string): readonly number[];
  /** Characters with a 훈음 of this 훈. */
  byHun(hun: string): readonly number[];
  readonly idioms: readonly IdiomRecord[];
  /** Every idiom's hanja (withheld ones included): a character that completes one is a right answer. */
  readonly idiomHanja: ReadonlySet<string>;
}

/** Text as answers are compared: any Unicode normalisation form of it, spaces left out (`물 수` = `물수`, NFD Hangul = NFC). */
export function gradingForm(text: string): string {
  return text.normalize("NFKC").replace(/\s+/gu, "");
}

/** Whether two 음 are the same reading, one perhaps in its initial-sound (두음법칙) form (락 = 낙). */
export function sameEum(a: string, b: string): boolean {
  return a === b || initialSoundForms(a).includes(b) || initialSoundForms(b).includes(a);
}

/** Whether two 훈음 say the same: the same 훈 (spaces aside) and the same 음. */
export function sameHunum(a: Hunum, b: Hunum): boolean {
  return gradingForm(a.hun) === gradingForm(b.hun) && sameEum(a.eum, b.eum);
}

/** A 훈음 as shown: `물 수`. */
export function hunumText(hunum: Hunum): string {
  return `${hunum.hun} ${hunum.eum}`;
}

const push = (map: Map<string | number, number[]>, key: string | number, position: number) => {
  const list = map.get(key);
  if (list === undefined) map.set(key, [position]);
  else if (list.at(-1) !== position) list.push(position);
};

/** The bank over `data`: the records with 훈음, their fields as the data decodes them once (`CharacterData.fields`). */
export function createCharacterBank(data: LoadedData): CharacterBank {
  const { characters } = data;
  const parsed = new Map<number, RecordFields>();
  const pools: Record<Level, number[]> = { education: [], middle: [], high: [], name: [], all: [] };
  const radicals = new Map<string | number, number[]>();
  const eums = new Map<string | number, number[]>();
  const huns = new Map<string | number, number[]>();
  characters.flags.forEach((flags, position) => {
    if (!(flags & FLAG_HUNUM)) return;
    const record = characters.fields(position);
    parsed.set(position, record);
    pools.all.push(position);
    if (flags & FLAG_EDUCATION) pools.education.push(position);
    if (flags & FLAG_MIDDLE_SCHOOL) pools.middle.push(position);
    if (flags & FLAG_HIGH_SCHOOL) pools.high.push(position);
    if (flags & FLAG_NAME) pools.name.push(position);
    push(radicals, characters.radical[position] as number, position);
    for (const { hun, eum } of record.hunum) {
      for (const form of initialSoundForms(eum)) push(eums, form, position);
      push(huns, gradingForm(hun), position);
    }
  });
  const members = Object.fromEntries(LEVELS.map((level) => [level, new Set(pools[level])])) as Record<Level, Set<number>>;
  const variants = new Map<number, Set<number>>();
  const link = (a: number, b: number) => {
    if (a === b) return;
    let set = variants.get(a);
    if (set === undefined) variants.set(a, (set = new Set()));
    set.add(b);
  };
  for (const [position, record] of parsed) {
    for (const variant of record.variants.split(" ")) {
      const other = variant === "" ? undefined : characters.position(variant);
      if (other !== undefined) {
        link(position, other);
        link(other, position);
      }
    }
  }
  const NONE: readonly number[] = [];
  const EMPTY: ReadonlySet<number> = new Set();
  const idioms = data.idioms.idioms;
  return {
    character: (position) => characters.characters[position] as string,
    readings: (position) => parsed.get(position)?.readings ?? [],
    // From the tables (one syllable a record), not the record's text: nothing more to parse.
    reading: (position) => (parsed.has(position) ? characters.reading[position] : undefined),
    hunum: (position) => parsed.get(position)?.hunum ?? [],
    strokes: (position) => characters.strokes[position] as number,
    radical: (position) => characters.radical[position] as number,
    variants: (position) => variants.get(position) ?? EMPTY,
    position: (character) => characters.position(character),
    pool: (level) => pools[level],
    inPool: (level, position) => members[level].has(position),
    byRadical: (radical) => radicals.get(radical) ?? NONE,
    byEum: (eum) => eums.get(eum) ?? NONE,
    byHun: (hun) => huns.get(gradingForm(hun)) ?? NONE,
    idioms,
    idiomHanja: new Set(idioms.map((idiom) => idiom.hanja)),
  };
}

/**
 * Whether the character at `other` looks like the one at `position` to a learner: the same radical
 * and a stroke count within two (情/淸), or a 훈음 with the same 음 (another 훈) or the same 훈 (another 음).
 */
export function looksAlike(bank: CharacterBank, position: number, other: number): boolean {
  if (bank.radical(position) === bank.radical(other) && Math.abs(bank.strokes(position) - bank.strokes(other)) <= 2) return true;
  const mine = bank.hunum(position);
  return bank.hunum(other).some((h) => mine.some((m) => sameEum(m.eum, h.eum) || gradingForm(m.hun) === gradingForm(h.hun)));
}

/** The characters with 훈음 that look like the one at `position` (`looksAlike`), the one itself left out. */
export function lookalikesOf(bank: CharacterBank, position: number): number[] {
  const out = new Set<number>();
  const strokes = bank.strokes(position);
  for (const other of bank.byRadical(bank.radical(position))) if (Math.abs(bank.strokes(other) - strokes) <= 2) out.add(other);
  for (const { hun, eum } of bank.hunum(position)) {
    for (const other of bank.byEum(eum)) out.add(other);
    for (const other of bank.byHun(hun)) out.add(other);
  }
  out.delete(position);
  return [...out];
}
