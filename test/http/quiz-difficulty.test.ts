/**
 * GET /quiz?difficulty= and the synonym groups: `hard` draws wrong options that look like the
 * answer (or, for idiom_to_meaning, meanings of a close theme), `normal` draws them at random,
 * neither from the answer's group; the answer's position stays uniform and it is not the longest
 * option more often than chance. Seeded random sources throughout.
 */
import { describe, expect, it } from "vitest";
import type { IdiomRecord } from "../../runtime/format/records.ts";
import { seededRandom } from "../../runtime/core/util/random.ts";
import { comparedText } from "../../pipeline/validate/closeMeanings.ts";
import { meaningSimilarity } from "../../pipeline/validate/meaningSimilarity.ts";
import { getJson, testApp } from "../helpers/app.ts";
import { Q, chiSquare, expectProblem, ipFor, me, positionCounts, quizzes } from "./quiz-helpers.ts";

const TYPES = ["meaning_to_idiom", "idiom_to_meaning", "hangul_to_hanja"] as const;
const CHI2_3_P1E6 = 30.7;
/** How many closest meanings make an idiom's "close theme" (as the build's pools: HARD_POOL.theme). */
const THEME_SIZE = 16;

const app = testApp({ random: seededRandom(26) });
const idioms = app.data.idioms.idioms;
const position = new Map(idioms.map((i, p) => [i.idx, p]));
const byHanja = new Map(idioms.map((i) => [i.hanja, i]));
const byMeaning = new Map(idioms.map((i) => [i.meaning, i]));
const groupOf = (idiom: IdiomRecord) => new Set(app.data.idioms.quiz.group[position.get(idiom.idx) as number]?.map((p) => idioms[p]?.idx));

/** Written alike, by the definition the docs give: a shared hanja or syllable, or the same first two initial consonants. */
function looksAlike(a: IdiomRecord, b: IdiomRecord): boolean {
  return [...a.hanja].some((c) => b.hanja.includes(c)) || [...a.hangul].some((s) => b.hangul.includes(s)) || a.chosung.slice(0, 2) === b.chosung.slice(0, 2);
}

// The close theme of a meaning, computed here from the measure itself (over literal and meaning,
// as the build's similarity check): its THEME_SIZE nearest idioms outside its group.
const similarity = meaningSimilarity(idioms.map(comparedText));
const themeCache = new Map<number, Set<number>>();
function closeTheme(answer: IdiomRecord): Set<number> {
  const p = position.get(answer.idx) as number;
  let theme = themeCache.get(p);
  if (!theme) {
    const group = groupOf(answer);
    const ranked = idioms.map((other, q) => ({ idx: other.idx, score: q === p || group.has(other.idx) ? -1 : similarity.score(p, q) }));
    theme = new Set(
      ranked
        .sort((x, y) => y.score - x.score)
        .slice(0, THEME_SIZE)
        .map((r) => r.idx),
    );
    themeCache.set(p, theme);
  }
  return theme;
}

/** The idioms behind a quiz's wrong options. */
function distractors(q: any): IdiomRecord[] {
  const own = q.type === "idiom_to_meaning" ? byMeaning : byHanja;
  return q.choices.filter((c: any) => c.key !== q.answer).map((c: any) => own.get(c.text) as IdiomRecord);
}

/** The share of wrong options that resemble the answer (written alike, or of its close theme for idiom_to_meaning). */
function resemblingShare(all: readonly any[]): number {
  let alike = 0;
  let total = 0;
  for (const q of all) {
    const answer = byHanja.get(q.answer_idiom.hanja) as IdiomRecord;
    for (const d of distractors(q)) {
      total++;
      if (q.type === "idiom_to_meaning" ? closeTheme(answer).has(d.idx) : looksAlike(answer, d)) alike++;
    }
  }
  return alike / total;
}

describe("GET /quiz?difficulty=", () => {
  for (const type of TYPES) {
    it(`${type}: at least 80 % of hard wrong options resemble the answer, at most 30 % of normal ones (1,000 quizzes each)`, async () => {
      const hard = await quizzes(testApp({ random: seededRandom(1) }), `?type=${type}&count=20&difficulty=hard`, 50);
      const normal = await quizzes(testApp({ random: seededRandom(1) }), `?type=${type}&count=20&difficulty=normal`, 50);
      const hardShare = resemblingShare(hard);
      const normalShare = resemblingShare(normal);
      expect(hardShare).toBeGreaterThanOrEqual(0.8);
      expect(normalShare).toBeLessThanOrEqual(0.3);
    });
  }

  it("normal is the default: the same seed gives the same quizzes with and without difficulty=normal", async () => {
    const plain = await quizzes(testApp(), "?count=5&seed=7", 1);
    const normal = await quizzes(testApp(), "?count=5&seed=7&difficulty=normal", 1);
    const hard = await quizzes(testApp(), "?count=5&seed=7&difficulty=hard", 1);
    const strip = (all: any[]) => all.map(({ quiz_id, ...rest }) => rest);
    expect(strip(normal)).toEqual(strip(plain));
    expect(strip(hard)).not.toEqual(strip(plain));
  });

  for (const difficulty of ["normal", "hard"]) {
    it(`${difficulty}: no wrong option from the answer's synonym group, and the groups hold the named pairs (3,000 quizzes, choices=6)`, async () => {
      for (const [a, b] of [
        [6, 337],
        [774, 775],
        [662, 675],
      ] as const)
        expect(groupOf(idioms[position.get(a) as number] as IdiomRecord).has(b)).toBe(true);
      let grouped = 0;
      for (const q of await quizzes(testApp({ random: seededRandom(3) }), `?count=20&choices=6&difficulty=${difficulty}`, 150)) {
        const answer = byHanja.get(q.answer_idiom.hanja) as IdiomRecord;
        const group = groupOf(answer);
        if (group.size > 0) grouped++;
        for (const d of distractors(q)) expect(group.has(d.idx), `${answer.hangul}: ${d.hangul} is in its group`).toBe(false);
      }
      expect(grouped).toBeGreaterThan(500);
    });

    it(`${difficulty}: the answer's position is uniform and it is the longest option no more often than chance (2,000 quizzes per type)`, async () => {
      for (const type of TYPES) {
        const all = await quizzes(testApp({ random: seededRandom(11) }), `?type=${type}&count=20&choices=4&difficulty=${difficulty}`, 100);
        expect(chiSquare(positionCounts(all, 4))).toBeLessThan(CHI2_3_P1E6);
        const longest = all.filter((q) => {
          const length = (c: any) => [...c.text].length;
          const answer = q.choices.find((c: any) => c.key === q.answer);
          return q.choices.every((c: any) => c === answer || length(c) < length(answer));
        }).length;
        // Chance is one in four (less when texts tie, as four-character hanja always do); 2,000
        // draws stay within 0.25 + 0.04 with a margin of about four standard deviations.
        expect(longest / all.length, `${type}: answer strictly longest`).toBeLessThan(0.29);
      }
    });
  }

  it.each(["easy", "", "HARD", "1"])("difficulty=%j → 400 naming difficulty, not metered", async (value) => {
    const ip = ipFor(77_000);
    const before = (await me(app, { clientAddress: ip })).used_today;
    expectProblem(await getJson(app, `${Q}/quiz?difficulty=${encodeURIComponent(value)}`, { clientAddress: ip }), 400, "invalid_parameter", "difficulty");
    expect((await me(app, { clientAddress: ip })).used_today).toBe(before);
  });
});
