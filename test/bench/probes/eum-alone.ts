// How often a 훈음 quiz can be answered from the 음 alone (the answer is the only choice with its 음,
// so a learner who knows only readings picks it): for `hunum_to_hanja` and `hanja_to_hunum`,
// `--quizzes` seeded quizzes (20 a request, seeds 1, 2, …, as GET /quiz?seed= draws them) per
// difficulty, the share answerable from the 음, and the share of those where the pool had a
// character to offer a wrong choice with that 음, both by the account in
// test/helpers/characterOracle.ts (written apart from the product).
// `npx tsx test/bench/probes/eum-alone.ts [--quizzes 1000] [--level education] [--tree <worktree>]`
// (`--tree`: measure another tree's quizzes on this tree's dist/). Prints a table and one JSON line.
import { join } from "node:path";
import { parseArgs } from "node:util";
import { characterOracle } from "../../helpers/characterOracle.ts";
import { ROOT } from "../lib.ts";

const { values } = parseArgs({ options: { quizzes: { type: "string" }, level: { type: "string" }, tree: { type: "string" } } });
const total = Number(values.quizzes ?? 1000);
const level = values.level ?? "education";
const tree = values.tree ?? ROOT;
const { createApp } = await import(join(tree, "runtime/core/app.ts"));
const { loadDistFiles } = await import(join(tree, "runtime/entry/loadDist.ts"));
const app = createApp({ dist: loadDistFiles(join(ROOT, "dist")) });
const oracle = characterOracle(app);

let ip = 0;
const get = async (query: string) => {
  ip++;
  const response = await app.fetch(new Request(`http://localhost/quiz/v1/quiz?${query}`), { clientAddress: `10.${(ip >> 8) & 255}.${ip & 255}.9` });
  return response.json();
};

const percent = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} % (${n})`;
const rows: Record<string, number | string>[] = [];
for (const type of ["hunum_to_hanja", "hanja_to_hunum"]) {
  for (const difficulty of ["normal", "hard"]) {
    let quizzes = 0;
    let alone = 0;
    let avoidable = 0;
    for (let seed = 1; seed * 20 <= total; seed++) {
      for (const quiz of (await get(`type=${type}&difficulty=${difficulty}&level=${level}&count=20&seed=${seed}`)).quizzes) {
        const judged = oracle.eumAlone(quiz, level);
        quizzes++;
        if (judged.alone) alone++;
        if (judged.alone && judged.avoidable) avoidable++;
      }
    }
    rows.push({
      type,
      difficulty,
      quizzes,
      "answerable from the 음": percent(alone, quizzes),
      "of them, the pool had a same-음 choice": percent(avoidable, quizzes),
    });
  }
}
console.log(`${level}, quizzes of the tree ${tree}`);
console.table(rows);
console.log(JSON.stringify({ quizzes: total, level, rows }));
