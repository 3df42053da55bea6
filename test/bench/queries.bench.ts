/**
 * What one uncached `GET /hanja?q=` costs for the most expensive text queries a client can send
 * (interface A has no quota, so a query that costs much CPU is a way to load the server), beside
 * an ordinary one (`q=water…`) measured in the same run, and Hangul queries of each shape the
 * matching reads (a reading, a 훈, a 훈음, a long one), and lists without `q` (random filters: a scan
 * of every record) and with `sort` (issue 50: the fixed orders beside the default one). In process,
 * no HTTP: every query is new, so the result cache never answers. With `BEFORE=<another checkout>`
 * its app answers the same queries too, alternating with this one's each round, in a column of its
 * own (its dist/ is this one's). `npm run bench -- queries` (ROUNDS to change the default).
 */
import { join } from "node:path";
import { type App, createApp } from "../../runtime/core/app.ts";
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
const int = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));
/** Filters without `q`: about 10,000 combinations, so nearly every one is new (the search cache keys on them). */
const filters = () => `strokes=${int(1, 24)}&radical_number=${int(1, 214)}&education=${int(0, 1)}`;
const syllables = (n: number) => Array.from({ length: n }, () => String.fromCodePoint(0xac00 + Math.floor(Math.random() * 11172))).join("");

const q = (text: string) => `q=${encodeURIComponent(text)}`;
/** Each case makes the query string of a new request. */
const CASES: [string, () => string][] = [
  ["ordinary: one English word and a random one", () => q(`${ORDINARY[Math.floor(Math.random() * ORDINARY.length)]} ${pick(3)}`)],
  ["40 one-letter words", () => q(words(40, 1))],
  ["the 26 letters, shuffled", () => q([...LETTERS].sort(() => Math.random() - 0.5).join(" "))],
  ["26 two-letter words", () => q(words(26, 2))],
  ["16 four-letter words (the typo pass)", () => q(words(16, 4))],
  // Hangul: the reading map, the 훈음 and 훈 maps, then a scan of every gloss and 훈.
  ["one Hangul syllable (a reading)", () => q(syllables(1))],
  ["two Hangul syllables (a 훈)", () => q(syllables(2))],
  ["훈 음: two syllables, a space, one", () => q(`${syllables(2)} ${syllables(1)}`)],
  ["80 Hangul code points in words of three", () => q(Array.from({ length: 20 }, () => syllables(3)).join(" "))],
  ["no q, random filters (code point order)", filters],
  ["no q, random filters, sort=reading", () => `${filters()}&sort=reading`],
  ["ordinary, sort=reading", () => `${q(`${ORDINARY[Math.floor(Math.random() * ORDINARY.length)]} ${pick(3)}`)}&sort=reading`],
  ["one Hangul syllable, sort=strokes", () => `${q(syllables(1))}&sort=strokes`],
];

await ensureDist();
const dist = loadDistFiles(join(ROOT, "dist"));
type Handler = Pick<App, "handle">;
const apps: [string, Handler][] = [["this build", createApp({ dist })]];
if (process.env.BEFORE) {
  const before = (await import(join(process.env.BEFORE, "runtime/core/app.ts"))) as { createApp: (options: { dist: typeof dist }) => Handler };
  apps.push(["before", before.createApp({ dist })]);
}
const ms = new Map<string, number[]>(CASES.flatMap(([name]) => apps.map(([build]) => [`${name}|${build}`, []] as [string, number[]])));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, make] of CASES) {
    for (const [build, app] of round % 2 === 0 ? apps : [...apps].reverse()) {
      const started = performance.now();
      for (let i = 0; i < PER_ROUND; i++) await app.handle(new Request(`http://localhost/hanja/v1/hanja?${make()}`));
      ms.get(`${name}|${build}`)?.push((performance.now() - started) / PER_ROUND);
    }
  }
}
const at = (name: string, build: string) => median(ms.get(`${name}|${build}`) ?? []);
const base = at(CASES[0]?.[0] ?? "", "this build");
console.log(`Uncached GET /hanja in process: ms per query, median of ${ROUNDS} rounds of ${PER_ROUND} new queries\n`);
console.log(
  table([
    ["query", "ms", "× ordinary", ...(apps.length > 1 ? ["ms before"] : [])],
    ...CASES.map(([name]) => [
      name,
      at(name, "this build"),
      `${(at(name, "this build") / base).toFixed(1)}×`,
      ...(apps.length > 1 ? [at(name, "before")] : []),
    ]),
  ]),
);
