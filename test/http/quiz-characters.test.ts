/**
 * GET /quiz with the character types: exactly one right answer over many seeded draws (held
 * against an account written apart from the product, test/helpers/characterOracle.ts), the
 * `level` pools, look-alike options for `difficulty=hard`, the published types when `type` is
 * omitted, and `type` as a list.
 */
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../runtime/core/util/random.ts";
import { getJson, testApp } from "../helpers/app.ts";
import { type CharacterQuiz, characterOracle } from "../helpers/characterOracle.ts";
import { Q, expectProblem, ipFor } from "./quiz-helpers.ts";

const TYPES = ["hunum_to_hanja", "hanja_to_hunum", "hanja_to_reading", "idiom_blank"] as const;
const app = testApp({ random: seededRandom(37) });
const oracle = characterOracle(app);
let calls = 0;

/** 20 quizzes per seed, `seeds` seeds, each call from a fresh client (the demo quota is per IP). */
async function draw(query: string, seeds: number): Promise<CharacterQuiz[]> {
  const out: CharacterQuiz[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const { status, body } = await getJson(app, `${Q}/quiz?${query}&count=20&seed=${seed}`, { clientAddress: ipFor(calls++) });
    expect(status, JSON.stringify(body)).toBe(200);
    out.push(...body.quizzes);
  }
  return out;
}

describe("character quizzes: one right answer", () => {
  for (const type of TYPES) {
    it(`${type}: no wrong option is also right, normal and hard, education and all (2,000 seeded quizzes)`, async () => {
      for (const query of [`type=${type}`, `type=${type}&difficulty=hard`, `type=${type}&level=all`, `type=${type}&level=all&difficulty=hard&choices=6`]) {
        const quizzes = await draw(query, 25);
        const second = quizzes.flatMap((quiz) => oracle.judge(quiz).secondRight.map((text) => `${quiz.prompt}: ${text}`));
        expect(second, query).toEqual([]);
        for (const quiz of quizzes) {
          expect(quiz.type).toBe(type);
          const right = quiz.choices.find((choice) => choice.key === quiz.answer);
          expect(right && oracle.alsoRight(quiz, right.text), `${quiz.prompt}: ${right?.text}`).toBe(true);
          expect(new Set(quiz.choices.map((choice) => choice.text)).size).toBe(quiz.choices.length);
        }
      }
    });
  }

  it("keeps out the cases the rules name: a variant (歎/嘆), another reading (樂), a character completing another idiom", async () => {
    // The oracle's rules, checked on the characters the issue names.
    expect(oracle.facts("歎").variants.concat(oracle.facts("嘆").variants)).toEqual(expect.arrayContaining(["嘆"]));
    const joy = { type: "hanja_to_reading", prompt: "樂", choices: [], answer: "1", answer_character: { character: "樂", readings: [], hunum: [] } };
    for (const reading of ["락", "낙", "악", "요"]) expect(oracle.alsoRight(joy, reading), reading).toBe(true);
    expect(oracle.alsoRight(joy, "수")).toBe(false);
    const lament = { type: "hunum_to_hanja", prompt: "탄식할 탄", choices: [], answer: "1", answer_character: { character: "歎", readings: [], hunum: [] } };
    expect(oracle.alsoRight(lament, "嘆")).toBe(true);
  });
});

describe("level pools", () => {
  it.each([
    ["education", (f: ReturnType<typeof oracle.facts>) => f.education],
    ["middle", (f: ReturnType<typeof oracle.facts>) => f.school === "middle"],
    ["high", (f: ReturnType<typeof oracle.facts>) => f.school === "high"],
    ["name", (f: ReturnType<typeof oracle.facts>) => f.name],
    ["all", () => true],
  ] as const)("level=%s: every character asked about and offered is of the pool and has 훈음", async (level, inPool) => {
    for (const type of ["hunum_to_hanja", "hanja_to_reading"]) {
      const quizzes = await draw(`type=${type}&level=${level}&choices=6`, 5);
      for (const quiz of quizzes) {
        const facts = oracle.facts(quiz.answer_character.character);
        expect(inPool(facts) && facts.hunum.length > 0, quiz.answer_character.character).toBe(true);
        if (type === "hunum_to_hanja") for (const choice of quiz.choices) expect(inPool(oracle.facts(choice.text)), choice.text).toBe(true);
      }
    }
  });

  it("education is the default: 1,800 characters, the 1,795 of them with 훈음 asked about", async () => {
    const quizzes = await draw("type=hanja_to_hunum", 10);
    expect(quizzes.every((quiz) => oracle.facts(quiz.answer_character.character).education)).toBe(true);
  });

  it("middle and high split the education hanja: a seeded run of each draws only its own half, and the two halves together are the education draws' pool", async () => {
    const asked = async (level: string) => new Set((await draw(`type=hanja_to_hunum&level=${level}`, 5)).map((quiz) => quiz.answer_character.character));
    const middle = await asked("middle");
    const high = await asked("high");
    expect(middle.size).toBeGreaterThan(20);
    expect(high.size).toBeGreaterThan(20);
    for (const c of middle) expect(high.has(c), c).toBe(false);
    for (const c of [...middle, ...high]) expect(oracle.facts(c).education, c).toBe(true);
  });

  it("another level is a 400 naming level, not metered", async () => {
    const result = await getJson(app, `${Q}/quiz?type=hunum_to_hanja&level=advanced`);
    expectProblem(result, 400, "invalid_parameter", "level");
    expect(result.headers.get("RateLimit")).toBeNull();
  });
});

describe("difficulty=hard for the character types", () => {
  it.each(TYPES)("%s: most hard wrong options look like the answer, few normal ones (1,000 quizzes each)", async (type) => {
    const share = (quizzes: CharacterQuiz[]) => {
      const judged = quizzes.map((quiz) => oracle.judge(quiz));
      return judged.reduce((sum, j) => sum + j.resembling, 0) / judged.reduce((sum, j) => sum + j.wrong, 0);
    };
    const hard = share(await draw(`type=${type}&difficulty=hard`, 50));
    const normal = share(await draw(`type=${type}`, 50));
    expect(hard).toBeGreaterThanOrEqual(0.8);
    expect(normal).toBeLessThan(hard / 2);
  });
});

describe("훈음 quizzes: the 음 alone never gives the answer away", () => {
  it.each(["hunum_to_hanja", "hanja_to_hunum"])(
    "%s: a wrong choice shows the answer's 음 wherever the pool has one, normal and hard, education and all",
    async (type) => {
      for (const [query, level, seeds] of [
        [`type=${type}`, "education", 50],
        [`type=${type}&level=all`, "all", 25],
        [`type=${type}&difficulty=hard`, "education", 25],
        [`type=${type}&level=all&difficulty=hard&choices=2`, "all", 25],
      ] as const) {
        const judged = (await draw(query, seeds)).map((quiz) => ({ quiz, ...oracle.eumAlone(quiz, level) }));
        const given = judged
          .filter((j) => j.alone && j.avoidable)
          .map((j) => `${j.quiz.prompt}: ${j.quiz.choices.map((c) => `${c.text}/${c.hangul}`).join(" ")}`);
        expect(given, query).toEqual([]);
        // Nearly every answer's 음 is shared by another character of the pool, so the rule is exercised.
        expect(judged.filter((j) => j.avoidable).length, query).toBeGreaterThan(judged.length * 0.9);
      }
    },
  );

  it("the wrong choice with the answer's 음 takes any place among the wrong choices", async () => {
    const places = new Set<number>();
    for (const quiz of await draw("type=hunum_to_hanja&choices=5", 10)) {
      const wrong = quiz.choices.filter((choice) => choice.key !== quiz.answer);
      const right = quiz.choices.find((choice) => choice.key === quiz.answer);
      wrong.forEach((choice, i) => {
        if (choice.hangul === right?.hangul) places.add(i);
      });
    }
    expect([...places].sort()).toEqual([0, 1, 2, 3]);
  });
});

describe("type: omitted, a list", () => {
  it("omitted: only the published types, in 1,000 quizzes", async () => {
    const types = new Set<string>();
    for (let seed = 1; seed <= 50; seed++) {
      for (const quiz of (await getJson(app, `${Q}/quiz?count=20&seed=${seed}`, { clientAddress: ipFor(calls++) })).body.quizzes) types.add(quiz.type);
    }
    expect([...types].sort()).toEqual(["hangul_to_hanja", "idiom_to_meaning", "meaning_to_idiom"]);
  });

  it("a list: each quiz of one of the listed types, every one of them drawn; the same seed draws the same", async () => {
    const query = "type=hunum_to_hanja,idiom_blank,meaning_to_idiom";
    const quizzes = await draw(query, 10);
    expect([...new Set(quizzes.map((quiz) => quiz.type))].sort()).toEqual(["hunum_to_hanja", "idiom_blank", "meaning_to_idiom"]);
    const again = await draw(query, 10);
    const content = ({ quiz_id, ...rest }: CharacterQuiz & { quiz_id: string }) => rest;
    expect(again.map((q) => content(q as never))).toEqual(quizzes.map((q) => content(q as never)));
  });

  it("a value outside the list or given twice is a 400 naming type", async () => {
    for (const type of ["hunum_to_hanja,bogus", "idiom_blank,idiom_blank", "hunum_to_hanja,", ""]) {
      expectProblem(await getJson(app, `${Q}/quiz?type=${type}`), 400, "invalid_parameter", "type");
    }
  });

  it("idiom_blank keeps excluded idioms out of its answers, and the withheld ones unless mature=1", async () => {
    type Blank = CharacterQuiz & { answer_idiom: { idx: number } };
    const first = (await draw("type=idiom_blank", 1)) as Blank[];
    const exclude = first.map((quiz) => quiz.answer_idiom.idx).join(",");
    for (const quiz of (await draw(`type=idiom_blank&exclude=${exclude}`, 1)) as Blank[])
      expect(first.map((q) => q.answer_idiom.idx)).not.toContain(quiz.answer_idiom.idx);
    const withheld = new Set(app.data.idioms.quiz.mature.map((p) => app.data.idioms.idioms[p]?.idx));
    const asked = async (query: string) => ((await draw(query, 50)) as Blank[]).map((quiz) => quiz.answer_idiom.idx);
    expect((await asked("type=idiom_blank&level=all")).filter((idx) => withheld.has(idx))).toEqual([]);
    expect((await asked("type=idiom_blank&level=all&mature=1")).some((idx) => withheld.has(idx))).toBe(true);
  });

  it("idiom_blank answers with the idiom and the character; the prompt is the idiom with □ where the character was", async () => {
    for (const quiz of (await draw("type=idiom_blank", 2)) as (CharacterQuiz & { answer_idiom: { hanja: string } })[]) {
      expect(quiz.prompt.replace("□", quiz.answer_character.character)).toBe(quiz.answer_idiom.hanja);
      expect([...quiz.prompt].filter((c) => c === "□")).toHaveLength(1);
    }
  });
});
