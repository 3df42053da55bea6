// Node's heap after each case of the memory benchmark (test/bench/memory.bench.ts's cases, in turn,
// wrk 4 s each): VmRSS and V8's spaces read inside the server by heapSampler.mjs, right after the
// case and 3 s later. GROW=<percent> runs the server with that --heap-growing-percent.
//   npx tsx test/bench/probes/heap-spaces.ts <bundle>
import { join } from "node:path";
import { ROOT, load, rssMb, startServer } from "../lib.ts";
import { phrasePicker, readTargets, readerTexts } from "../readerTexts.ts";

const enc = encodeURIComponent;
const details = ["水", "樂", "人", "學", "𮕩", "國"].map((c) => `/hanja/v1/hanja/${enc(c)}`);
const CASES: [string, string[]][] = [
  ["detail", details],
  ["searches", [`/hanja/v1/hanja?q=${enc("수")}`, "/hanja/v1/hanja?q=water", `/hanja/v1/idioms?q=${enc("일")}`]],
  ["words", [`char=${enc("水")}`, `q=${enc("수")}`, `q=${enc("水道")}`, `char=${enc("學")}`].map((q) => `/hanja/v1/words?${q}`)],
  ["read", readTargets(readerTexts(phrasePicker(), "memory", 500, 200))],
  ["detail again", details],
];
const sampler = join(ROOT, "test/bench/probes/heapSampler.mjs");
const server = await startServer(
  "node",
  ["--import", sampler, process.argv[2] as string],
  { QUOTA_STORE: "memory", ACCESS_LOG: "0", DIST_DIR: join(ROOT, "dist"), GROW: process.env.GROW ?? "" },
  details[0] as string,
);
let stderr = "";
server.proc.stderr?.on("data", (chunk: Buffer) => {
  stderr += chunk.toString();
});
const sample = async (label: string) => {
  const from = stderr.length;
  server.proc.kill("SIGUSR2");
  while (!stderr.slice(from).includes("\n")) await new Promise((r) => setTimeout(r, 20));
  const s = JSON.parse((stderr.slice(from).split("\n")[0] as string).replace("SAMPLE ", ""));
  console.log(
    label.padEnd(20),
    `VmRSS ${rssMb(server.proc.pid).toFixed(0)}`,
    `heapTotal ${s.heapTotal} used ${s.heapUsed}`,
    `old ${s.old_space}`,
    `large ${s.large_object_space}`,
    `arrayBuffers ${s.arrayBuffers}`,
  );
};
await sample("start");
for (const [label, paths] of CASES) {
  await load(server.url, paths, { seconds: 4 });
  await sample(label);
  await new Promise((r) => setTimeout(r, 3000));
  await sample(`${label} +3 s`);
}
await server.stop();
