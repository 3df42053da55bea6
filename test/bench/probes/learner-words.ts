// The words a learner meets first (docs/rules.md "Words"), on a tree's built data: the first
// reading of the words the issue names, how many words of several readings list a 사이시옷 form
// first, where 學's and 車's common words and 首都 in a search for 수도 stand, and 水's first words.
//   npx tsx test/bench/probes/learner-words.ts [tree]
// `tree` (default this one) is a checkout whose dist/ and word index are read.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../lib.ts";

const tree = process.argv[2] ?? ROOT;
const { wordIndex } = await import(join(tree, "runtime/core/words/wordIndex.ts"));
const { addsSaisiot } = await import(join(tree, "runtime/format/syllableRules.ts"));
const dist = (name: string) => readFileSync(join(tree, "dist", name), "utf8");
const records = dist("characters.jsonl")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as { character: string; readings: string[]; hunum: { eum: string }[]; education_hanja: boolean });
const education = new Set(records.filter((r) => r.education_hanja).map((r) => r.character.codePointAt(0)));
const syllables = new Map(records.map((r) => [r.character, [...r.readings, ...r.hunum.map((h) => h.eum)]]));
const index = wordIndex(dist("words.txt"), (codePoint: number) => education.has(codePoint));
const hanjaOf = (positions: number[]) => positions.map((p) => index.word(p).hanja as string);

console.log(`The words a learner meets first, on ${tree}`);
const firsts = ["先生", "行爲", "電車", "下車", "自轉車", "議論", "水道", "沈菜", "寶貝"].map((h) => `${h} ${index.lookup(h)?.readings[0]}`);
console.log(`first readings      ${firsts.join(", ")}`);
let several = 0;
let saisiotFirst = 0;
for (let position = 0; position < index.count; position++) {
  const { hanja, readings } = index.word(position) as { hanja: string; readings: string[] };
  if (readings.length < 2) continue;
  several++;
  const adds = (reading: string) => [...reading].some((s, i) => addsSaisiot(s, syllables.get([...hanja][i] as string) ?? [], reading));
  if (adds(readings[0] as string) && readings.some((r) => !adds(r))) saisiotFirst++;
}
console.log(`사이시옷 form first  ${saisiotFirst} of ${several} words of several readings`);
const learn = hanjaOf(index.ofCharacter("學"));
console.log(`學                  學生 at ${learn.indexOf("學生") + 1}, 學校 at ${learn.indexOf("學校") + 1}; first five ${learn.slice(0, 5).join(" ")}`);
const car = hanjaOf(index.ofCharacter("車"));
console.log(`車                  自動車 at ${car.indexOf("自動車") + 1}, 動車 at ${car.indexOf("動車") + 1}`);
console.log(`q=수도              首都 at ${hanjaOf(index.search("수도")).indexOf("首都") + 1}`);
console.log(`水's first five     ${hanjaOf(index.ofCharacter("水")).slice(0, 5).join(" ")}`);
