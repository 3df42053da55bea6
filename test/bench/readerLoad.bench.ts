/**
 * The reader's share of the CPU (issue 46, points 2 and 3), on the bundled server on Node, Bun and
 * Deno (memory store, access log off), each round on a fresh server:
 * - the cold read: all 8,525 characters posted (`format=ruby`) as soon as the server answers,
 *   `/healthz` sent one after another meanwhile: the longest it waited, and the reading's time;
 * - the thrash: a text of 300 words of several readings, warm (median of 5), then after five
 *   long texts of distinct words (the quickest of 3 cycles; before, a flushed cache made each slow);
 * - the detail beside heavy reads: 8 clients posting 20,000 random characters (`format=ruby`, a
 *   `429` sent again at once) from a process of their own at a lower priority, and a character's
 *   detail timed one request after another (10 ms apart) for `SECONDS`: its p50 and p99.
 * With `BEFORE=<bundle>` (and `BEFORE_DIST=<its dist/>`) another build runs in the same rounds,
 * before this one: main's bundle, built from a checkout of main with `scripts/bundle.ts`.
 *
 * `npm run bench -- readerLoad` (ROUNDS, SECONDS to change the defaults).
 */
import { Agent } from "node:http";
import { join } from "node:path";
import { bundle } from "../../scripts/bundle.ts";
import { ensureDist } from "../../scripts/ensureDist.ts";
import { heavyLoadProcess, lightRequests, percentile, readerLoadTexts, timedRequest } from "../conformance/heavyReadLoad.ts";
import { ROOT, median, runtimeCommands, startServer, table } from "./lib.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 5);

await ensureDist();
const builds: [string, string, string][] = [["this build", await bundle(), join(ROOT, "dist")]];
if (process.env.BEFORE) builds.unshift(["before", process.env.BEFORE, process.env.BEFORE_DIST ?? join(ROOT, "dist")]);

const { everyCharacter, severalText, distinctTexts } = readerLoadTexts();

/** Per build and runtime, the figures of each round. */
const figures = new Map<string, Record<string, number[]>>();
const record = (key: string, name: string, value: number) => {
  const row = figures.get(key) ?? {};
  (row[name] ??= []).push(value);
  figures.set(key, row);
};

for (let round = 1; round <= ROUNDS; round++) {
  for (const [build, file, dist] of builds) {
    for (const [runtime, command, args] of runtimeCommands(dist)) {
      const key = `${build}\t${runtime}`;
      const server = await startServer(command, [...args, file], { QUOTA_STORE: "memory", ACCESS_LOG: "0", DIST_DIR: dist }, "/healthz");
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const healthAgent = new Agent({ keepAlive: true, maxSockets: 1 });
      const post = (text: string, format = "hangul") => timedRequest(server.url, agent, "POST", `/hanja/v1/read?format=${format}`, text);
      try {
        // The cold read, and /healthz beside it.
        const waits: number[] = [];
        let done = false;
        const cold = post(everyCharacter, "ruby").finally(() => (done = true));
        while (!done) waits.push((await timedRequest(server.url, healthAgent, "GET", "/healthz")).ms);
        record(key, "cold read ms", (await cold).ms);
        record(key, "healthz max ms", Math.max(...waits));
        // The thrash.
        const warm: number[] = [];
        for (let i = 0; i < 5; i++) warm.push((await post(severalText)).ms);
        const after: number[] = [];
        for (let cycle = 0; cycle < 3; cycle++) {
          for (const text of distinctTexts) await post(text);
          after.push((await post(severalText)).ms);
        }
        record(key, "several warm ms", median(warm));
        record(key, "after distinct ms", Math.min(...after));
        // The detail beside 8 heavy clients.
        const load = heavyLoadProcess(server.url, 8, SECONDS * 1000 + 1500);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const detail = (await lightRequests(server.url, "/hanja/v1/hanja/%E6%B0%B4", SECONDS * 1000)).map((answer) => answer.ms);
        const outcome = await load;
        record(key, "detail p50 ms", percentile(detail, 50));
        record(key, "detail p99 ms", percentile(detail, 99));
        record(key, "heavy 200/s", (outcome.statuses[200] ?? 0) / (SECONDS + 1.5));
        record(key, "heavy 429/s", (outcome.statuses[429] ?? 0) / (SECONDS + 1.5));
      } finally {
        agent.destroy();
        healthAgent.destroy();
        await server.stop();
      }
    }
  }
  console.log(`round ${round} of ${ROUNDS} done`);
}

const columns = ["cold read ms", "healthz max ms", "several warm ms", "after distinct ms", "detail p50 ms", "detail p99 ms", "heavy 200/s", "heavy 429/s"];
const rows: (string | number)[][] = [["build", "runtime", ...columns]];
for (const [key, row] of figures) rows.push([...key.split("\t"), ...columns.map((column) => median(row[column] ?? []))]);
console.log(`\nmedians of ${ROUNDS} rounds (detail beside 8 clients posting 20,000 characters for ${SECONDS} s)\n${table(rows)}`);
