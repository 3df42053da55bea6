// One right answer, measured: how many of the pairs the review decided "same" stand together as
// answer and wrong choice (two right answers) in seeded quizzes drawn from a built dist; and, apart,
// how many appear as two wrong choices (not a second right answer: both are wrong).
// `npx tsx test/bench/probes/synonym-cooccurrence.ts [--dist dist] [--review pipeline/data/idiom-pairs-reviewed.csv]
//  [--quizzes 28000] [--seed 1]`: quizzes of every type and both difficulties, 4 choices, 20 a
// request, as GET /quiz draws them. Prints one JSON line: the pairs met, how often, and examples.
// Run it on an older dist with today's review to see what the review changed.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parse } from "csv-parse/sync";
import { DIFFICULTIES, createQuizMaker } from "../../../runtime/core/quiz/makeQuiz.ts";
import { type IdiomTypeName, PUBLISHED_TYPES } from "../../../runtime/core/quiz/types/index.ts";
import { loadData } from "../../../runtime/core/data/load.ts";
import { seededRandom } from "../../../runtime/core/util/random.ts";
import { loadDistFiles } from "../../../runtime/entry/loadDist.ts";

const { values } = parseArgs({
  options: { dist: { type: "string" }, review: { type: "string" }, quizzes: { type: "string" }, seed: { type: "string" } },
});
const data = loadData(loadDistFiles(values.dist ?? "dist")).idioms;
const reviewed = parse(readFileSync(values.review ?? "pipeline/data/idiom-pairs-reviewed.csv", "utf8"), { columns: true }) as Record<string, string>[];
// The pairs decided "same", directly or through a chain of such pairs (as the groups hold them).
const parent = new Map<number, number>();
const root = (x: number): number => ((parent.get(x) ?? x) === x ? x : root(parent.get(x) as number));
for (const row of reviewed.filter((r) => r.decision === "same")) parent.set(root(Number(row.idx_a)), root(Number(row.idx_b)));
const members = new Map<number, number[]>();
for (const x of new Set([...parent.keys(), ...parent.values()])) members.set(root(x), [...(members.get(root(x)) ?? []), x]);
const wanted = new Set<string>();
for (const list of members.values()) for (const a of list) for (const b of list) if (a < b) wanted.add(`${a}/${b}`);

// A choice is known by its text: the hanja (unique) or, for idiom_to_meaning, the meaning.
const byText = new Map<string, number>();
for (const idiom of data.idioms) byText.set(`${idiom.hanja}`, idiom.idx).set(`m:${idiom.meaning}`, idiom.idx);
const maker = createQuizMaker(data.idioms, data.itemsB, data.quiz);
const random = seededRandom(Number(values.seed ?? 1));
const total = Number(values.quizzes ?? 28_000);
const met = new Map<string, number>();
const wrongPairs = new Map<string, number>();
let drawn = 0;
const QUIZ_TYPES = PUBLISHED_TYPES as readonly IdiomTypeName[];
for (let round = 0; drawn < total; round++) {
  const type = QUIZ_TYPES[round % QUIZ_TYPES.length];
  const difficulty = DIFFICULTIES[Math.floor(round / QUIZ_TYPES.length) % DIFFICULTIES.length];
  for (const { text: rest } of maker.quizzes({ type, choices: 4, count: 20, exclude: new Set(), difficulty }, random) ?? []) {
    const quiz = JSON.parse(`{"quiz_id":"${rest}`) as { type: string; answer: string; choices: { text: string }[] };
    const idx = quiz.choices.map((c) => byText.get(quiz.type === "idiom_to_meaning" ? `m:${c.text}` : c.text) as number);
    const answer = Number(quiz.answer) - 1;
    for (let i = 0; i < idx.length; i++)
      for (let j = i + 1; j < idx.length; j++) {
        const key = [idx[i] as number, idx[j] as number].sort((a, b) => a - b).join("/");
        if (!wanted.has(key)) continue;
        const counts = i === answer || j === answer ? met : wrongPairs;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    drawn++;
  }
}
const name = (key: string) =>
  key
    .split("/")
    .map((idx) => `${idx} ${data.idioms[data.positionOfIdx.get(Number(idx)) as number]?.hangul}`)
    .join(" / ");
console.log(
  JSON.stringify({
    quizzes: drawn,
    samePairs: wanted.size,
    pairsMet: met.size,
    timesMet: [...met.values()].reduce((a, b) => a + b, 0),
    examples: [...met.entries()].sort((a, b) => b[1] - a[1]).map(([key, times]) => `${name(key)} ×${times}`),
    asTwoWrongChoices: { pairs: wrongPairs.size, times: [...wrongPairs.values()].reduce((a, b) => a + b, 0) },
  }),
);
