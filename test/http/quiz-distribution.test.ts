/**
 * The statistics of GET /quiz (docs/rules.md "Interface B"): the answer's position is uniform, choice texts never
 * repeat, and no distractor is a second right answer, also when idioms share a meaning or a reading.
 */
import { describe, expect, it } from "vitest";
import { DIST_FILES } from "../../runtime/format/dist.ts";
import type { IdiomRecord } from "../../runtime/format/records.ts";
import { seededRandom } from "../../runtime/core/util/random.ts";
import { distWithFirstIdioms, testApp } from "../helpers/app.ts";
import { chiSquare, positionCounts, quizzes } from "./quiz-helpers.ts";

const TYPES = ["meaning_to_idiom", "idiom_to_meaning", "hangul_to_hanja"] as const;
// χ² with 3 degrees of freedom: p = 0.001 at 16.27; p ≈ 1e-6 at 30.7. The seeded runs are
// deterministic but change with the data, so they get the looser bound too: a real bias (one
// position at 30% instead of 25% over 6,000 quizzes) scores about 80.
const CHI2_3_P1E6 = 30.7;

describe("answer position", () => {
  it("is uniform over 6,000 quizzes with choices=4 (seeded)", async () => {
    const all = await quizzes(testApp({ random: seededRandom(2024) }), "?count=20&choices=4", 300);
    expect(all).toHaveLength(6000);
    const counts = positionCounts(all, 4);
    for (const c of counts) expect(Math.abs(c - 1500)).toBeLessThan(1500 * 0.15);
    expect(chiSquare(counts)).toBeLessThan(CHI2_3_P1E6);
  });

  it("is uniform over 6,000 quizzes with choices=4 (platform CSPRNG)", async () => {
    const all = await quizzes(testApp(), "?count=20&choices=4", 300);
    const counts = positionCounts(all, 4);
    for (const c of counts) expect(Math.abs(c - 1500)).toBeLessThan(1500 * 0.15);
    expect(chiSquare(counts)).toBeLessThan(CHI2_3_P1E6);
  });

  for (const type of TYPES) {
    it(`is uniform per type (${type}, 2,000 quizzes, choices=4)`, async () => {
      const all = await quizzes(testApp({ random: seededRandom(7) }), `?count=20&choices=4&type=${type}`, 100);
      expect(chiSquare(positionCounts(all, 4))).toBeLessThan(CHI2_3_P1E6);
    });
  }

  it("covers every position with choices=2 and choices=6", async () => {
    const app = testApp({ random: seededRandom(99) });
    for (const choices of [2, 6]) {
      const counts = positionCounts(await quizzes(app, `?count=20&choices=${choices}`, 150), choices);
      const expected = 3000 / choices;
      for (const c of counts) expect(Math.abs(c - expected)).toBeLessThan(expected * 0.2);
    }
  });
});

describe("choices", () => {
  for (const type of TYPES) {
    it(`${type}, choices=6: never a repeated text, never a second right answer (2,000 quizzes)`, async () => {
      const app = testApp({ random: seededRandom(31) });
      const idioms = app.data.idioms.idioms;
      for (const q of await quizzes(app, `?count=20&choices=6&type=${type}`, 100)) {
        expect(q.choices).toHaveLength(6);
        const texts = q.choices.map((c: any) => c.text);
        expect(new Set(texts).size).toBe(6);
        for (const choice of q.choices) {
          if (choice.key === q.answer) continue;
          const owner = idioms.find((i) => (type === "idiom_to_meaning" ? i.meaning : i.hanja) === choice.text) as IdiomRecord;
          if (type === "hangul_to_hanja") expect(owner.hangul).not.toBe(q.prompt);
          if (type === "meaning_to_idiom") expect(owner.meaning).not.toBe(q.prompt);
          if (type === "idiom_to_meaning") expect(owner.hanja).not.toBe(q.prompt);
        }
      }
    });
  }
});

describe("idioms sharing a meaning or a reading", () => {
  // Ten idioms of the real data; the 2nd gets the 1st's meaning, the 4th the 3rd's reading.
  const files = distWithFirstIdioms(10);
  const ten = JSON.parse(files[DIST_FILES.idioms] as string) as IdiomRecord[];
  const [a, b, c, d] = ten as [IdiomRecord, IdiomRecord, IdiomRecord, IdiomRecord];
  b.meaning = a.meaning;
  d.hangul = c.hangul;
  d.chosung = c.chosung;
  const app = testApp({ dist: { ...files, [DIST_FILES.idioms]: JSON.stringify(ten) }, random: seededRandom(5) });

  it("the synthetic data is loaded as built", () => {
    expect(app.data.idioms.idioms).toHaveLength(10);
    expect(app.data.idioms.idioms[1]?.meaning).toBe(a.meaning);
    expect(app.data.idioms.idioms[3]?.hangul).toBe(c.hangul);
  });

  it("meaning_to_idiom: the other idiom with the same meaning is never a distractor", async () => {
    let asked = 0;
    for (const q of await quizzes(app, "?type=meaning_to_idiom&choices=6&count=10", 100)) {
      const texts = q.choices.map((ch: any) => ch.text);
      expect(new Set(texts).size).toBe(texts.length);
      if (q.answer_idiom.idx === a.idx || q.answer_idiom.idx === b.idx) {
        asked++;
        expect(texts.includes(a.hanja) && texts.includes(b.hanja)).toBe(false);
      }
      // Whatever the answer, exactly one choice's idiom has the prompt's meaning.
      const fitting = q.choices.filter((ch: any) => ten.find((i) => i.hanja === ch.text)?.meaning === q.prompt);
      expect(fitting).toHaveLength(1);
      expect(fitting[0].key).toBe(q.answer);
    }
    expect(asked).toBe(200);
  });

  it("hangul_to_hanja: the other idiom with the same reading is never a distractor", async () => {
    let asked = 0;
    for (const q of await quizzes(app, "?type=hangul_to_hanja&choices=6&count=10", 100)) {
      const texts = q.choices.map((ch: any) => ch.text);
      if (q.answer_idiom.idx === c.idx || q.answer_idiom.idx === d.idx) {
        asked++;
        expect(texts.includes(c.hanja) && texts.includes(d.hanja)).toBe(false);
      }
      const fitting = q.choices.filter((ch: any) => ch.hangul === q.prompt);
      expect(fitting).toHaveLength(1);
      expect(fitting[0].key).toBe(q.answer);
    }
    expect(asked).toBe(200);
  });

  it("idiom_to_meaning: a shared meaning is shown once, as the answer", async () => {
    for (const q of await quizzes(app, "?type=idiom_to_meaning&choices=6&count=10", 100)) {
      const texts = q.choices.map((ch: any) => ch.text);
      expect(new Set(texts).size).toBe(texts.length);
      if (q.answer_idiom.idx === a.idx || q.answer_idiom.idx === b.idx) {
        expect(texts.filter((t: string) => t === a.meaning)).toHaveLength(1);
        expect(q.choices.find((ch: any) => ch.key === q.answer).text).toBe(a.meaning);
      }
    }
  });

  it("the pairs do appear together as two distractors (the filter is not over-eager)", async () => {
    let together = 0;
    for (const q of await quizzes(app, "?type=meaning_to_idiom&choices=6&count=10", 50)) {
      const texts = q.choices.map((ch: any) => ch.text);
      if (texts.includes(c.hanja) && texts.includes(d.hanja)) together++;
    }
    expect(together).toBeGreaterThan(0);
  });
});
