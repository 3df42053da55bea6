/**
 * The English meanings (idioms-en.csv) are checked as the Korean ones are: one per idiom, named by
 * idx and hangul, within length bounds, and giving nothing away (no Hangul or Han character, no
 * romanization of the idiom). Every bad row is listed with its file and line.
 */
import { describe, expect, it } from "vitest";
import { InputError } from "../../pipeline/load/types.ts";
import { type EnglishRow, romanizedGiveaway, joinEnglishMeanings } from "../../pipeline/validate/englishMeanings.ts";
import { romanize } from "../../pipeline/validate/romanize.ts";
import type { IdiomRecord } from "../../runtime/format/records.ts";

const idiom = (idx: number, hanja: string, hangul: string): IdiomRecord => ({
  idx,
  hanja,
  hangul,
  chosung: "",
  literal: null,
  meaning: "뜻",
  meaning_en: null,
});
const IDIOMS = [idiom(1, "一石二鳥", "일석이조"), idiom(2, "竹馬故友", "죽마고우")];
const row = (line: number, idx: string, hangul: string, meaning_en: string): EnglishRow => ({ line, values: { idx, hangul, meaning_en } });
const GOOD = [row(2, "1", "일석이조", "Gaining two things from a single effort"), row(3, "2", "죽마고우", "A childhood friend you grew up playing with")];

function problemsOf(rows: EnglishRow[]): string[] {
  try {
    joinEnglishMeanings(rows, IDIOMS);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message.split("\n");
  }
  return [];
}

describe("joinEnglishMeanings", () => {
  it("gives each idiom its English meaning; no file gives none", () => {
    expect(joinEnglishMeanings(GOOD, IDIOMS).map((idiom) => [idiom.idx, idiom.meaning_en])).toEqual([
      [1, "Gaining two things from a single effort"],
      [2, "A childhood friend you grew up playing with"],
    ]);
    expect(joinEnglishMeanings([], IDIOMS).map((idiom) => idiom.meaning_en)).toEqual([null, null]);
    // The rest of each record is kept.
    expect(joinEnglishMeanings(GOOD, IDIOMS)[1]).toEqual({ ...IDIOMS[1], meaning_en: "A childhood friend you grew up playing with" });
  });

  it("lists every bad row with file and line: unknown idx, wrong hangul, a second meaning, an idiom left without one", () => {
    expect(
      problemsOf([row(2, "9", "일석이조", GOOD[0]?.values.meaning_en ?? ""), row(3, "2", "죽마고오", "A childhood friend you grew up playing with")]),
    ).toEqual([
      'idioms-en.csv:2: no idiom has idx "9"',
      'idioms-en.csv:3: idx 2 is 죽마고우 (竹馬故友), not "죽마고오"',
      // A row with a mistyped hangul is not applied, so its idiom has no English meaning either.
      "idioms-en.csv: no English meaning for 2 idiom(s): 1 일석이조, 2 죽마고우",
    ]);
    expect(problemsOf([...GOOD, row(4, "1", "일석이조", "Two gains for the price of one effort")])).toEqual([
      "idioms-en.csv:4: idx 1 (일석이조) has a second English meaning",
    ]);
  });

  it("refuses a meaning out of bounds, with spaces around it, with Hangul or Han characters, or romanizing the idiom", () => {
    const meaning = (text: string) => problemsOf([row(2, "1", "일석이조", text), GOOD[1] as EnglishRow]);
    expect(meaning("Too short")).toEqual(['idioms-en.csv:2: idx 1 (일석이조): meaning_en is 9 characters long (25–160): "Too short"']);
    expect(meaning("x".repeat(161))[0]).toMatch(/is 161 characters long \(25–160\)/);
    expect(meaning(" Gaining two things from a single effort")[0]).toMatch(/has spaces around it/);
    expect(meaning("Gaining two things from one 石 effort")[0]).toMatch(/contains Hangul or a Han character/);
    expect(meaning("Gaining two things from one effort, 일석")[0]).toMatch(/contains Hangul or a Han character/);
    expect(meaning("Gaining two things from one effort (ilseok-ijo)")).toEqual([
      'idioms-en.csv:2: idx 1 (일석이조): meaning_en romanizes the idiom (ilseokijo): "Gaining two things from one effort (ilseok-ijo)"',
    ]);
  });
});

describe("romanization, as the giveaway check spells an idiom", () => {
  it("spells each syllable in the Revised Romanization, letter for letter", () => {
    expect([..."죽마고우각골난망쌍꽃읽"].map(romanize)).toEqual(["juk", "ma", "go", "u", "gak", "gol", "nan", "mang", "ssang", "kkot", "ik"]);
    expect(romanize("a")).toBe("a");
  });

  it("finds the whole idiom anywhere, or two neighbouring syllables as a word, and nothing else", () => {
    expect(romanizedGiveaway("the jukmagou of old", "죽마고우")).toBe("jukmagou");
    expect(romanizedGiveaway("a Juk-Ma Go U story", "죽마고우")).toBe("jukmagou");
    expect(romanizedGiveaway("friends since the gou days", "죽마고우")).toBe("gou");
    expect(romanizedGiveaway("a mago friend", "죽마고우")).toBe("mago");
    // A pair inside a longer word is an ordinary word, not a giveaway.
    expect(romanizedGiveaway("an amagoing friend", "죽마고우")).toBeNull();
    expect(romanizedGiveaway("A childhood friend you grew up playing with", "죽마고우")).toBeNull();
  });
});
