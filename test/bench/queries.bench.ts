/**
 * What one uncached `GET /hanja?q=` costs for the most expensive text queries a client can send
 * (interface A has no quota, so a query that costs much CPU is a way to load the server), beside
 * an ordinary one (`q=water…`) measured in the same run, and Hangul queries of each shape the
 * matching reads (a reading, a 훈, a 훈음, a long one). In process, no HTTP: every query is new,
 * so the result cache never answers. `npm run bench -- queries` (ROUNDS to change the default).
 */
import { join } from "node:path";
import { createApp } from "../../runtime/core/app.ts";
import { loadDistFiles } from "../../runtime/entry/loadDist.ts";
import { ensureDist } from "../../scripts/ensureDist.ts";
import { ROOT, median, table } from "./lib.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const PER_ROUND = 40;
const LETTERS = "abcdefghijklmnopqrstuvwxyz";
const pick = (n: number) => Array.from({ length: n }, () => LETTERS[Math.floor(Math.random() * 26)]).join("");
const words = (count: number, length: number) =>
  Array.from({ length: count }, () => pick(length))
    .join(" ")
    .slice(0, 80);
const ORDINARY = ["water", "fire", "tree", "mountain", "river", "heart", "stone", "rain"];
const syllables = (n: number) => Array.from({ length: n }, () => String.fromCodePoint(0xac00 + Math.floor(Math.random() * 11172))).join("");

const CASES: [string, () => string][] = [
  ["ordinary: one English word and a random one", () => `${ORDINARY[Math.floor(Math.random() * ORDINARY.length)]} ${pick(3)}`],
  ["40 one-letter words", () => words(40, 1)],
  ["the 26 letters, shuffled", () => [...LETTERS].sort(() => Math.random() - 0.5).join(" ")],
  ["26 two-letter words", () => words(26, 2)],
  ["16 four-letter words (the typo pass)", () => words(16, 4)],
  // Hangul: the reading map, the 훈음 and 훈 maps, then a scan of every gloss and 훈.
  ["one Hangul syllable (a reading)", () => syllables(1)],
  ["two Hangul syllables (a 훈)", () => syllables(2)],
  ["훈 음: two syllables, a space, one", () => `${syllables(2)} ${syllables(1)}`],
  ["80 Hangul code points in words of three", () => Array.from({ length: 20 }, () => syllables(3)).join(" ")],
];

await ensureDist();
const app = createApp({ dist: loadDistFiles(join(ROOT, "dist")) });
const ms = new Map<string, number[]>(CASES.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, make] of CASES) {
    const started = performance.now();
    for (let i = 0; i < PER_ROUND; i++) await app.handle(new Request(`http://localhost/hanja/v1/hanja?q=${encodeURIComponent(make())}`));
    ms.get(name)?.push((performance.now() - started) / PER_ROUND);
  }
}
const base = median(ms.get(CASES[0]?.[0] ?? "") ?? []);
console.log(`Uncached GET /hanja?q= in process: ms per query, median of ${ROUNDS} rounds of ${PER_ROUND} new queries\n`);
console.log(
  table([["query", "ms", "× ordinary"], ...CASES.map(([name]) => [name, median(ms.get(name) ?? []), `${(median(ms.get(name) ?? []) / base).toFixed(1)}×`])]),
);
