/** The table of word lengths by first two characters: the same answers as a map of the pairs, through its growth. */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { PairLengths } from "../../runtime/core/read/pairLengths.ts";

describe("PairLengths", () => {
  test("answers every pair as a map of the pairs does (bits added up), and 0 for a pair never added, however many were added", () => {
    // Code points of the Han blocks and astral ones, few enough that pairs repeat; up to 5,000 adds (the table starts at 4,096 slots).
    const code = fc.oneof(fc.integer({ min: 0x4e00, max: 0x4e40 }), fc.integer({ min: 0x20000, max: 0x20010 }), fc.integer({ min: 1, max: 0x10ffff }));
    const add = fc.tuple(code, code, fc.integer({ min: 2, max: 31 }));
    fc.assert(
      fc.property(fc.array(add, { maxLength: 5_000 }), fc.array(fc.tuple(code, code), { maxLength: 50 }), (adds, probes) => {
        const table = new PairLengths();
        const expected = new Map<string, number>();
        for (const [first, second, length] of adds) {
          table.add(first, second, 1 << length);
          const key = `${first} ${second}`;
          expected.set(key, (expected.get(key) ?? 0) | (1 << length));
        }
        for (const [first, second] of [...adds.map(([f, s]) => [f, s] as const), ...probes]) {
          expect(table.get(first, second) | 0).toBe(expected.get(`${first} ${second}`) ?? 0);
        }
      }),
      { numRuns: 40 },
    );
  });

  test("grows past 100,000 pairs (all the dictionary's would fit) and keeps each", () => {
    const table = new PairLengths();
    for (let i = 1; i <= 100_000; i++) table.add(0x4e00 + (i % 500), 0x4e00 + Math.floor(i / 500), 1 << (2 + (i % 30)));
    for (let i = 1; i <= 100_000; i++) expect(table.get(0x4e00 + (i % 500), 0x4e00 + Math.floor(i / 500))).toBe((1 << (2 + (i % 30))) >>> 0);
    expect(table.get(0x4e00, 0x9fff)).toBe(0);
  });
});
