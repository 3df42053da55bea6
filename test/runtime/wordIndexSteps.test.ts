/**
 * The word index built in steps (`wordIndexSteps`, what a server does beside its requests): the
 * same index as built at once, its listed order right on the real words (where the sort merges
 * runs), no step longer than a few milliseconds, and a `/words` request before the reader's
 * preparation answered from the index built in slices while other work goes on.
 */
import { describe, expect, test } from "vitest";
import { wordIndex, wordIndexSteps } from "../../runtime/core/words/wordIndex.ts";
import { DIST_FILES, FLAG_EDUCATION, type Tables } from "../../runtime/format/dist.ts";
import { unpack } from "../../runtime/format/packedStrings.ts";
import { PLACE_NAME_NOTE, compareCodePoints, listedOrder } from "../../runtime/format/words.ts";
import { decodeWords, listWords, listWordsSteps } from "../../runtime/format/wordsDecode.ts";
import { call, distText, testApp } from "../helpers/app.ts";
import { BASE } from "../http/hanja-expect.ts";

const text = distText(DIST_FILES.words);
const tables = JSON.parse(distText(DIST_FILES.tables)) as Tables;
const educationSet = new Set(tables.characters.filter((_, i) => ((tables.flags[i] ?? 0) & FLAG_EDUCATION) !== 0).map((c) => c.codePointAt(0)));
const isEducation = (codePoint: number) => educationSet.has(codePoint);

/** Runs the steps one by one, timing each; the result and each step's milliseconds. */
function timedSteps<T>(steps: Generator<void, T, void>): { value: T; ms: number[] } {
  const ms: number[] = [];
  for (;;) {
    const start = performance.now();
    const next = steps.next();
    ms.push(performance.now() - start);
    if (next.done) return { value: next.value, ms };
  }
}

describe("the word index built in steps", () => {
  test("is the index built at once: the same lines, starts, notes and longest; the same words, lookups and searches", () => {
    const atOnce = listWords(text, isEducation);
    const stepped = timedSteps(listWordsSteps(text, isEducation)).value;
    expect(stepped.hanja.text === atOnce.hanja.text).toBe(true);
    expect(stepped.readings.text === atOnce.readings.text).toBe(true);
    expect(Buffer.from(stepped.hanja.starts.buffer).equals(Buffer.from(atOnce.hanja.starts.buffer))).toBe(true);
    expect(Buffer.from(stepped.readings.starts.buffer).equals(Buffer.from(atOnce.readings.starts.buffer))).toBe(true);
    expect([...stepped.notes]).toEqual([...atOnce.notes]);
    expect(stepped.longest).toBe(atOnce.longest);

    const index = wordIndex(text, isEducation);
    const steppedIndex = timedSteps(wordIndexSteps(text, isEducation)).value;
    expect(steppedIndex.count).toBe(index.count);
    const differing: string[] = [];
    for (let position = 0; position < index.count; position += 7) {
      const word = steppedIndex.word(position);
      if (JSON.stringify(word) !== JSON.stringify(index.word(position)) || steppedIndex.positionOf(word.hanja) !== position)
        differing.push(`${position} ${word.hanja}`);
    }
    expect(differing.slice(0, 5)).toEqual([]);
    for (const q of ["學校", "水", "학교", "수도"]) expect(steppedIndex.search(q)).toEqual(index.search(q));
    expect(steppedIndex.ofCharacter("水")).toEqual(index.ofCharacter("水"));
  });

  test("lists the real words in the listed order: each word before the next by the rule (place names last, core words by best rank, shorter, education hanja, more compounds, code point)", () => {
    const columns = decodeWords(text);
    const order = listedOrder(columns, isEducation);
    expect(new Set(order).size).toBe(columns.hanja.starts.length - 1);
    const bestRank = new Map<string, number>();
    for (const words of columns.core.values()) words.forEach((word, rank) => bestRank.set(word, Math.min(rank, bestRank.get(word) ?? rank)));
    expect(bestRank.size).toBeGreaterThan(5_000);
    const rank = (position: number) => {
      const hanja = unpack(columns.hanja, position);
      const characters = [...hanja];
      return {
        hanja,
        tuple: [
          columns.notes.get(position) === PLACE_NAME_NOTE ? 1 : 0,
          bestRank.get(hanja) ?? 99,
          characters.length,
          characters.every((c) => isEducation(c.codePointAt(0) as number)) ? 0 : 1,
          -Math.min(columns.within[position] as number, 4095),
        ],
      };
    };
    const misplaced: string[] = [];
    let before = rank(order[0] as number);
    for (let listed = 1; listed < order.length; listed++) {
      const next = rank(order[listed] as number);
      const byTuple = before.tuple.findIndex((value, i) => value !== next.tuple[i]);
      const ordered = byTuple === -1 ? compareCodePoints(before.hanja, next.hanja) < 0 : (before.tuple[byTuple] as number) < (next.tuple[byTuple] as number);
      if (!ordered) misplaced.push(`${listed}: ${before.hanja} before ${next.hanja}`);
      before = next;
    }
    expect(misplaced.slice(0, 5)).toEqual([]);
  });

  test("holds the event loop for at most a few milliseconds a step (it was one block of 100-200 ms)", () => {
    // Each step's quickest of three builds: a step the machine's other processes interrupted in one
    // build is not in the others, while a long step is long in all.
    const builds = [0, 1, 2].map(() => timedSteps(wordIndexSteps(text, isEducation)).ms);
    const quickest = (builds[0] as number[]).map((_, step) => Math.min(...builds.map((ms) => ms[step] as number)));
    const longest = Math.max(...quickest);
    // The longest steps are the two that make the listed lines one string each (about 10 ms on a quiet
    // machine, up to twice that on a busy one); the block this guards against was 100-200 ms.
    expect(longest, `longest step ${longest.toFixed(1)} ms of ${quickest.length}`).toBeLessThan(50);
    expect(quickest.length, "steps").toBeGreaterThan(500);
  });
});

describe("GET /words before the words are indexed", () => {
  test("answers from the index built in slices, the event loop turning meanwhile", async () => {
    const app = testApp();
    expect(app.data.wordsIndexed).toBe(false);
    let turns = 0;
    let turning = true;
    const turn = () => {
      turns++;
      if (turning) setTimeout(turn, 0);
    };
    setTimeout(turn, 0);
    const response = await call(app, `${BASE}/words?q=${encodeURIComponent("學校")}&per_page=1`);
    turning = false;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { hanja: string }[] }).data.map((w) => w.hanja)).toEqual(["學校"]);
    expect(app.data.wordsIndexed).toBe(true);
    // Built at once, the index let no timer run until it was made.
    expect(turns).toBeGreaterThan(5);
  });
});
