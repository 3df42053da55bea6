// The reader benchmark's accuracy part alone (`npm run bench -- reader` step 1, without its load
// rounds): the share of the phrases of test/content/reader-phrases.csv the reader reads exactly as
// their standard reading, beside the `hanja` package (1.1.5), and the phrases it misses.
//   npx tsx test/bench/probes/reader-accuracy.ts [tree]
// `tree` (default this one) is a worktree whose reader is measured, on this tree's dist/ and phrases.
import { join } from "node:path";
import hanjaPackage from "hanja";
import { ROOT } from "../lib.ts";
import { readerPhrases } from "../readerTexts.ts";

const tree = process.argv[2] ?? ROOT;
const peer = ((hanjaPackage as unknown as { default?: typeof hanjaPackage }).default ?? hanjaPackage) as typeof hanjaPackage;
const { createApp } = await import(join(tree, "runtime/core/app.ts"));
const { readHanja } = await import(join(tree, "runtime/core/read/readHanja.ts"));
const { loadDistFiles } = await import(join(tree, "runtime/entry/loadDist.ts"));
const data = createApp({ dist: loadDistFiles(join(ROOT, "dist")) }).data;

const phrases = readerPhrases();
const right = { service: 0, peer: 0 };
const missed: string[] = [];
for (const { phrase, reading } of phrases) {
  const read = (readHanja(phrase, data) as { hangul: string }).hangul;
  if (read === reading) right.service++;
  else missed.push(`${phrase}: ${read} (standard ${reading})`);
  if (peer.translate(phrase, "SUBSTITUTION") === reading) right.peer++;
}
const share = (n: number) => `${((n / phrases.length) * 100).toFixed(1)} % (${n} of ${phrases.length})`;
console.log(`Phrases read exactly right (${phrases.length} phrases, test/content/reader-phrases.csv), reader at ${tree}`);
console.log(`reader       ${share(right.service)}`);
console.log(`hanja 1.1.5  ${share(right.peer)}`);
for (const line of missed) console.log(`  missed ${line}`);
