/**
 * Quiz ids (`quizId.ts`): the claims are encrypted, so decoding ids tells nothing of the answer (a
 * test over 10,000 quizzes finds no byte or bit of them that predicts the right key better than
 * chance); altered, foreign, old-format, expired and future-stamped ids are refused; a rotation
 * (`new,old`) still opens the old secret's ids.
 */
import { describe, expect, it } from "vitest";
import { QUIZ_ID_SKEW_SECONDS, QUIZ_ID_TTL_SECONDS, type QuizClaims, QuizIdError, createQuizIds } from "../../runtime/core/quiz/quizId.ts";
import { QUIZ_TYPES } from "../../runtime/core/quiz/types/index.ts";
import { seededRandom } from "../../runtime/core/util/random.ts";
import { firstFormatQuizId } from "../helpers/firstFormatQuizId.ts";
import { testClock } from "../http/quiz-helpers.ts";

const SECRET = "quiz-id-test-secret-0123456789";
const DATA_HASH = "5e1f0a9c";
const clock = testClock("2026-09-01T00:00:00Z");
const ids = (secrets: readonly string[] | null = [SECRET], at: () => Date = clock.now, dataHash = DATA_HASH) =>
  createQuizIds({ secrets: secrets ?? undefined, now: at, dataHash });
const claims: QuizClaims = { type: "hunum_to_hanja", typed: false, key: 3, subject: 4_321, blank: 0 };
const one = async (made = ids(), claim = claims) => (await made.sign([claim]))[0] as string;
const bytesOf = (id: string) => Buffer.from(id.slice(3), "base64url");
const idOf = (bytes: Uint8Array) => `qz_${Buffer.from(bytes).toString("base64url")}`;

/** The `QuizIdError` message `verify` refuses `id` with (fails when it is accepted). */
async function refusal(made: ReturnType<typeof ids>, id: unknown): Promise<string> {
  const error = await made.verify(id).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, String(id)).toBeInstanceOf(QuizIdError);
  return (error as QuizIdError).message;
}

/**
 * How well one feature of the ids' bytes predicts the right key: for each byte position, its whole
 * value and each of its 8 bits, the most frequent key per feature value is learnt on the first
 * half of the quizzes and scored on the second. `chance` is the score of always guessing the first
 * half's most frequent key.
 */
function bestPredictor(idBytes: Uint8Array[], keys: number[]): { feature: string; accuracy: number; chance: number } {
  const half = Math.floor(keys.length / 2);
  const score = (value: (bytes: Uint8Array) => number, values: number) => {
    const counts = Array.from({ length: values }, () => new Map<number, number>());
    for (let i = 0; i < half; i++) {
      const seen = counts[value(idBytes[i] as Uint8Array)] as Map<number, number>;
      seen.set(keys[i] as number, (seen.get(keys[i] as number) ?? 0) + 1);
    }
    const guess = counts.map((seen) => [...seen].sort((a, b) => b[1] - a[1])[0]?.[0]);
    let right = 0;
    for (let i = half; i < keys.length; i++) if (guess[value(idBytes[i] as Uint8Array)] === keys[i]) right++;
    return right / (keys.length - half);
  };
  const chance = score(() => 0, 1);
  let best = { feature: "none", accuracy: 0, chance };
  const length = Math.max(...idBytes.map((bytes) => bytes.length));
  for (let at = 0; at < length; at++) {
    const byte = (bytes: Uint8Array) => bytes[at] ?? 0;
    const features: [string, number][] = [[`byte ${at}`, score(byte, 256)]];
    for (let bit = 0; bit < 8; bit++) features.push([`byte ${at} bit ${bit}`, score((bytes) => (byte(bytes) >> bit) & 1, 2)]);
    for (const [feature, accuracy] of features) if (accuracy > best.accuracy) best = { feature, accuracy, chance };
  }
  return best;
}

describe("quiz ids reveal nothing", () => {
  it("over 10,000 quizzes, no byte or bit of the ids predicts the right key better than chance", async () => {
    const random = seededRandom(46);
    const made = ids();
    const keys: number[] = [];
    const idBytes: Uint8Array[] = [];
    // Signed as the route signs them: lists of 20, the clock moving between lists.
    for (let list = 0; list < 500; list++) {
      const drawn = Array.from({ length: 20 }, (): QuizClaims => {
        const key = 1 + random.int(4);
        keys.push(key);
        return { type: QUIZ_TYPES[random.int(QUIZ_TYPES.length)] as QuizClaims["type"], typed: false, key, subject: random.int(9_000), blank: random.int(4) };
      });
      for (const id of await made.sign(drawn)) idBytes.push(bytesOf(id));
      clock.advance(7_000);
    }
    const best = bestPredictor(idBytes, keys);
    // 5,000 scored guesses at 1 in 4: one standard deviation is 0.6 points; 4 points is over 6 of
    // them, which none of the 378 features reaches by luck, while a key in the clear scores 100 %.
    expect(best.accuracy, JSON.stringify(best)).toBeLessThan(best.chance + 0.04);
    expect(best.chance).toBeGreaterThan(0.22);
    expect(best.chance).toBeLessThan(0.28);
  });

  it("each id is qz_ and 56 base64url characters, different for the same claims in the same second, and opens to its claims", async () => {
    const made = ids();
    const all = QUIZ_TYPES.map((type, n): QuizClaims => ({ type, typed: n % 2 === 1, key: n % 7, subject: 2 ** 32 - 1 - n, blank: n % 4 }));
    const signed = await made.sign([...all, claims, claims]);
    for (const id of signed) expect(id).toMatch(/^qz_[0-9A-Za-z_-]{56}$/);
    expect(new Set(signed).size).toBe(signed.length);
    expect(await Promise.all(signed.map((id) => made.verify(id)))).toEqual([...all, claims, claims]);
  });
});

describe("quiz ids refused", () => {
  it("altering any byte (any bit of it) or the prefix is refused as altered", async () => {
    const made = ids();
    const bytes = bytesOf(await one(made));
    for (let at = 1; at < bytes.length; at++) {
      for (let bit = 0; bit < 8; bit++) {
        const altered = Uint8Array.from(bytes);
        altered[at] = (altered[at] as number) ^ (1 << bit);
        expect(await refusal(made, idOf(altered)), `byte ${at} bit ${bit}`).toContain("was altered or made under another QUIZ_SECRET");
      }
    }
    // The version byte is authenticated too: another value is no id of this format.
    for (const version of [0, 1, 3, 255]) expect(await refusal(made, idOf(Uint8Array.of(version, ...bytes.subarray(1))))).toContain("is not an id");
    for (const id of [`QZ_${idOf(bytes).slice(3)}`, `${idOf(bytes)}A`, idOf(bytes).slice(0, -1), `${idOf(bytes).slice(0, -4)}====`]) {
      expect(await refusal(made, id)).toContain("is not an id");
    }
  });

  it("the first format (version 1: the claims in the clear, HMAC-signed under the same secret) is refused as an older format", async () => {
    const old = await firstFormatQuizId(claims, SECRET, DATA_HASH, clock.current);
    expect(old).toMatch(/^qz_AQ[0-9A-Za-z_-]{46}$/);
    expect(await refusal(ids(), old)).toBe("quiz_id is of an older format, no longer graded; draw a new quiz with GET /quiz");
  });

  it(`stamped more than ${QUIZ_ID_SKEW_SECONDS} s ahead of this server's clock is refused; up to ${QUIZ_ID_SKEW_SECONDS} s ahead is graded`, async () => {
    const ahead = (seconds: number) => () => new Date(clock.current.getTime() + seconds * 1000);
    const here = ids();
    for (const seconds of [1, 59, 60]) expect(await here.verify(await one(ids([SECRET], ahead(seconds)))), `${seconds} s`).toEqual(claims);
    for (const seconds of [61, 3_600, QUIZ_ID_TTL_SECONDS * 30]) {
      expect(await refusal(here, await one(ids([SECRET], ahead(seconds))))).toBe(
        `quiz_id is dated ${seconds} s ahead of this server's clock (at most 60 s of clock difference is allowed); draw a new quiz with GET /quiz`,
      );
    }
  });

  it(`expired ${QUIZ_ID_TTL_SECONDS / 3600} hours after it was made`, async () => {
    const made = ids();
    const id = await one(made);
    clock.advance(QUIZ_ID_TTL_SECONDS * 1000);
    expect(await made.verify(id)).toEqual(claims);
    clock.advance(1000);
    expect(await refusal(made, id)).toContain("expired (quizzes can be graded for 24 hours)");
  });

  it("made from another data release: refused, naming the release", async () => {
    expect(await refusal(ids(), await one(ids([SECRET], clock.now, "77aa01")))).toContain("was made from another data release");
  });

  it("rotation: the first secret encrypts, each opens; an id of neither secret, or of a process's own random secret, is refused", async () => {
    const old = await one(ids(["old-secret-0123456789"]));
    const rotating = ids(["new-secret-0123456789", "old-secret-0123456789"]);
    expect(await rotating.verify(old)).toEqual(claims);
    const fresh = await one(rotating);
    expect(await ids(["new-secret-0123456789"]).verify(fresh)).toEqual(claims);
    expect(await refusal(ids(["old-secret-0123456789"]), fresh)).toContain("was altered or made under another QUIZ_SECRET");
    expect(await refusal(ids(["third-secret-0123456789"]), old)).toContain("was altered or made under another QUIZ_SECRET");
    const unconfigured = ids(null);
    const own = await one(unconfigured);
    expect(await unconfigured.verify(own)).toEqual(claims);
    expect(await refusal(ids(null), own)).toContain("was altered or made under another QUIZ_SECRET");
  });

  it("anything else is refused, never thrown as another error", async () => {
    for (const id of [undefined, null, 42, "", "qz_", "nope", "qz_0123456789abcdef", `qz_${"A".repeat(56)}`, `qz_${"_".repeat(56)}`, `qz_${"é".repeat(56)}`])
      await refusal(ids(), id);
  });
});
