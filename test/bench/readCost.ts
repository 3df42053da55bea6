/**
 * The CPU a `/read` costs in process, in a process of its own that holds only the service (as a
 * server does: measured inside the benchmark's process, which also holds the `hanja` package and
 * the megabyte of mixed text, the same reading cost two to three times as much, and varied more).
 * Reads the texts from the JSON file named by its argument, reads each once (the words load, the
 * characters' usual readings are worked out), then times, turn by turn, the reading alone
 * (`readHanja`) and the whole answer (`app.handle` of `GET /read`: the query decoded, the text read
 * and written as JSON in bytes). Prints `{"read": µs, "handle": µs}`, medians of the turns, per text.
 *   npx tsx test/bench/readCost.ts <texts.json>
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../runtime/core/app.ts";
import { readHanja } from "../../runtime/core/read/readHanja.ts";
import { loadDistFiles } from "../../runtime/entry/loadDist.ts";
import { ROOT, median } from "./lib.ts";
import { readRequests } from "./readerTexts.ts";

const TURNS = 15;
const texts = JSON.parse(readFileSync(process.argv[2] as string, "utf8")) as string[];
const app = createApp({ dist: loadDistFiles(join(ROOT, "dist")) });
const requests = readRequests(texts);
// The answers one after another: `/read` answers once its reading is done (in slices, read/slices.ts).
const phases = {
  read: async () => texts.forEach((text) => readHanja(text, app.data)),
  handle: async () => {
    for (const request of requests) await app.handle(request);
  },
};
const times = { read: [] as number[], handle: [] as number[] };
await phases.read();
await phases.handle();
for (let turn = 0; turn < TURNS; turn++) {
  for (const name of ["read", "handle"] as const) {
    const before = process.cpuUsage();
    await phases[name]();
    const used = process.cpuUsage(before);
    times[name].push((used.user + used.system) / texts.length);
  }
}
console.log(JSON.stringify({ read: median(times.read), handle: median(times.handle) }));
