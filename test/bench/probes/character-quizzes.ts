// One right answer and hard look-alikes of the character quizzes, measured (issue 37): for each
// character type, `--quizzes` seeded quizzes (20 a request, seeds 1, 2, …, as GET /quiz?seed=
// draws them) at `difficulty=hard` and `normal`, the share of wrong options that resemble the
// answer and the count of wrong options that would also be right, both by the account in
// test/helpers/characterOracle.ts (written apart from the product). Also the time of the first
// character quiz (the bank of 7,173 records is read then) and of a quiz after it.
// `npx tsx test/bench/probes/character-quizzes.ts [--quizzes 1000] [--level education]`. Prints a table and one JSON line.
import { parseArgs } from "node:util";
import { testApp } from "../../helpers/app.ts";
import { characterOracle } from "../../helpers/characterOracle.ts";

const { values } = parseArgs({ options: { quizzes: { type: "string" }, level: { type: "string" } } });
const total = Number(values.quizzes ?? 1000);
const level = values.level ?? "education";
const TYPES = ["hunum_to_hanja", "hanja_to_hunum", "hanja_to_reading", "idiom_blank"];

const app = testApp();
let ip = 0;
const get = async (query: string) => {
  ip++;
  const response = await app.fetch(new Request(`http://localhost/quiz/v1/quiz?${query}`), { clientAddress: `10.${(ip >> 8) & 255}.${ip & 255}.9` });
  return response.json();
};
let started = performance.now();
await get("type=hunum_to_hanja");
const firstMs = performance.now() - started;
started = performance.now();
await get("type=hunum_to_hanja&count=20");
const nextMs = performance.now() - started;
const oracle = characterOracle(app);

const rows: Record<string, number | string>[] = [];
for (const type of TYPES) {
  const row: Record<string, number | string> = { type };
  for (const difficulty of ["hard", "normal"]) {
    let wrong = 0;
    let resembling = 0;
    let second = 0;
    for (let seed = 1; seed * 20 <= total; seed++) {
      for (const quiz of (await get(`type=${type}&difficulty=${difficulty}&level=${level}&count=20&seed=${seed}`)).quizzes) {
        const judged = oracle.judge(quiz);
        wrong += judged.wrong;
        resembling += judged.resembling;
        second += judged.secondRight.length;
      }
    }
    row[`${difficulty} resembling`] = `${((100 * resembling) / wrong).toFixed(1)} %`;
    row[`${difficulty} second right`] = second;
  }
  rows.push(row);
}
console.table(rows);
console.log(JSON.stringify({ quizzes: total, level, firstQuizMs: Math.round(firstMs), twentyQuizzesMs: Math.round(nextMs), rows }));
