/**
 * GET /quiz?seed= (the same quiz for a whole class) and the idioms withheld from the school set
 * (`mature`, on /quiz and /idiom).
 */
import { describe, expect, it } from "vitest";
import { cryptoRandom, seededRandom } from "../../runtime/core/util/random.ts";
import { DIST_FILES } from "../../runtime/format/dist.ts";
import { distWithFirstIdioms, getJson, testApp } from "../helpers/app.ts";
import { Q, expectProblem, ipFor, me, quizzes } from "./quiz-helpers.ts";

/** A quiz without its id: what a seed repeats. */
const content = ({ quiz_id, ...rest }: any) => rest;

describe("GET /quiz?seed=", () => {
  it("the same seed and parameters give the same quizzes, on another app and another day; quiz ids still differ", async () => {
    for (const query of [
      "?seed=42",
      "?seed=42&count=20",
      "?seed=0&count=20&choices=6&type=idiom_to_meaning",
      "?seed=4294967295&count=10&difficulty=hard&exclude=1,2,3",
    ]) {
      const first = await quizzes(testApp(), query, 1);
      const again = await quizzes(testApp({ random: seededRandom(999) }), query, 1);
      expect(again.map(content)).toEqual(first.map(content));
      const ids = new Set([...first, ...again].map((q) => q.quiz_id));
      expect(ids.size).toBe(first.length * 2);
    }
  });

  it("another seed or other parameters give other quizzes; no seed gives a fresh draw every call", async () => {
    const app = testApp({ random: cryptoRandom });
    const base = (await quizzes(app, "?seed=42&count=20", 1)).map(content);
    expect((await quizzes(app, "?seed=43&count=20", 1)).map(content)).not.toEqual(base);
    expect((await quizzes(app, "?seed=42&count=20&choices=5", 1)).map(content)).not.toEqual(base);
    const unseeded = await quizzes(app, "?count=20", 2);
    expect(unseeded.slice(0, 20).map(content)).not.toEqual(unseeded.slice(20).map(content));
  });

  it.each(["-1", "4294967296", "1.5", "abc", "", "1e3"])("seed=%j → 400 naming seed, not metered", async (value) => {
    const app = testApp();
    expectProblem(await getJson(app, `${Q}/quiz?seed=${encodeURIComponent(value)}`, { clientAddress: ipFor(1) }), 400, "invalid_parameter", "seed");
    expect((await me(app, { clientAddress: ipFor(1) })).used_today).toBe(0);
  });
});

describe("withheld idioms (177 路柳墻花)", () => {
  const app = testApp({ random: seededRandom(177) });
  const withheld = 177;
  const appears = (q: any) => q.answer_idiom.idx === withheld || q.choices.some((c: any) => c.hangul === "노류장화");

  it("are listed in the quiz tables, and only 177 today", () => {
    const { idioms, quiz } = app.data.idioms;
    expect(quiz.mature.map((p) => idioms[p]?.idx)).toEqual([withheld]);
  });

  it("never appear in quizzes, as answer or option, unless mature=1 (4,000 quizzes of 6 options each way)", async () => {
    const school = await quizzes(app, "?count=20&choices=6", 200);
    expect(school.filter(appears)).toHaveLength(0);
    const all = await quizzes(app, "?count=20&choices=6&mature=1", 200);
    expect(all.filter(appears).length).toBeGreaterThan(0);
    expect(all.some((q) => q.answer_idiom.idx === withheld)).toBe(true);
  });

  it("never come as random idioms unless mature=1; /idiom/177 and /search still serve it", async () => {
    const seen = async (query: string) => {
      let n = 0;
      for (let call = 0; call < 100; call++) {
        const { status, body } = await getJson(app, `${Q}/idiom?count=50${query}`, { clientAddress: ipFor(call) });
        expect(status).toBe(200);
        n += body.idioms.filter((i: any) => i.idx === withheld).length;
      }
      return n;
    };
    expect(await seen("")).toBe(0);
    expect(await seen("&mature=1")).toBeGreaterThan(0);
    expect((await getJson(app, `${Q}/idiom/177`, { clientAddress: ipFor(500) })).body.idiom.hanja).toBe("路柳墻花");
    expect((await getJson(app, `${Q}/search?q=노류장화`, { clientAddress: ipFor(501) })).body.idioms[0].idx).toBe(withheld);
  });

  it("count against exclude: leaving only withheld idioms to ask about is a 400 without mature=1", async () => {
    // Ten idioms, the last withheld; excluding the first eight leaves one school idiom.
    const files = distWithFirstIdioms(10);
    const tables = JSON.parse(files[DIST_FILES.quiz] as string);
    const small = testApp({ dist: { ...files, [DIST_FILES.quiz]: JSON.stringify({ ...tables, mature: [9] }) } });
    const ten = small.data.idioms.idioms;
    const exclude = ten
      .slice(0, 8)
      .map((i) => i.idx)
      .join(",");
    const refused = await getJson(small, `${Q}/quiz?count=2&exclude=${exclude}`, { clientAddress: ipFor(1) });
    expectProblem(refused, 400, "invalid_parameter", "exclude");
    // Decided before metering, counting the withheld idiom out: not counted, and the detail says what is left.
    expect(refused.body.detail).toContain("exclude leaves 1 idiom to ask about; count is 2");
    expect((await me(small, { clientAddress: ipFor(1) })).used_today).toBe(0);
    const matureLeft = await getJson(small, `${Q}/quiz?count=3&exclude=${exclude}&mature=1`, { clientAddress: ipFor(1) });
    expect(matureLeft.body.detail).toContain("exclude leaves 2 idioms to ask about; count is 3");
    expect((await me(small, { clientAddress: ipFor(1) })).used_today).toBe(0);
    // Excluding the withheld idiom too takes nothing more from the school set, and one from the whole set.
    const alsoWithheld = `${exclude},${ten[9]?.idx}`;
    expect((await getJson(small, `${Q}/quiz?count=1&exclude=${alsoWithheld}`, { clientAddress: ipFor(4) })).body.quiz.answer_idiom.idx).toBe(ten[8]?.idx);
    const matureOne = await getJson(small, `${Q}/quiz?count=2&exclude=${alsoWithheld}&mature=1`, { clientAddress: ipFor(4) });
    expect(matureOne.body.detail).toContain("exclude leaves 1 idiom to ask about; count is 2");
    const one = await getJson(small, `${Q}/quiz?count=1&exclude=${exclude}`, { clientAddress: ipFor(2) });
    expect(one.body.quiz.answer_idiom.idx).toBe(ten[8]?.idx);
    const both = await getJson(small, `${Q}/quiz?count=2&exclude=${exclude}&mature=1`, { clientAddress: ipFor(3) });
    expect(both.body.quizzes.map((q: any) => q.answer_idiom.idx).sort((a: number, b: number) => a - b)).toEqual([ten[8]?.idx, ten[9]?.idx]);
  });

  it.each(["2", "-1", "yes", ""])("mature=%j → 400 naming mature, on /quiz and /idiom", async (value) => {
    for (const path of ["/quiz", "/idiom"]) {
      expectProblem(await getJson(app, `${Q}${path}?mature=${encodeURIComponent(value)}`, { clientAddress: ipFor(900) }), 400, "invalid_parameter", "mature");
    }
  });
});
