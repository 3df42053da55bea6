/** `npm run bench [-- hanja|queries|quiz|runtimes|accesslog|embedded|reader|readerLoad|metrics|memory|distinct|cluster]`: runs one benchmark, or all of them in turn. */
import { LOAD_TOOL } from "./lib.ts";

const which = process.argv[2];
if (LOAD_TOOL === "autocannon") {
  // autocannon runs on the same cores as the server and caps the fast runtimes: Bun's and Deno's
  // hello-world servers measure at under half what wrk measures, and every ratio shrinks toward 100 %.
  console.log(
    "wrk is not installed (apt-get install wrk): loading with autocannon, which limits the faster servers itself; the ratios are not comparable with RESULTS.md",
  );
}
const all = ["hanja", "queries", "quiz", "runtimes", "accesslog", "embedded", "reader", "readerLoad", "metrics", "memory", "distinct", "cluster"];
for (const name of which ? [which] : all) {
  if (!all.includes(name)) throw new Error(`unknown benchmark ${name}; choose one of ${all.join(", ")}`);
  console.log(`\n=== ${name} ===`);
  await import(`./${name}.bench.ts`);
}
