// What a long run of punctuation in `q` costs a server: the median time of a request whose `q` is
// `a` + 15,000 `!` + `b` against a short one (`a!b`) on Node, and on Deno (which accepts 64 KiB
// targets) how long a short request waits while ten 64 KiB ones are answered at once. Run it for a
// checkout (default: this one); for the "before" figures, a worktree of the older commit with this
// checkout's node_modules and dist/ linked in:
//   git worktree add /tmp/before <commit> && ln -s "$PWD/node_modules" "$PWD/dist" /tmp/before/
//   npx tsx test/bench/probes/long-query.ts /tmp/before
//   npx tsx test/bench/probes/long-query.ts
// RUNS (default 15) sequential requests of each kind per runtime; BURSTS (default 3) of ten on
// Deno; RUNTIMES (default node,deno); CAP_MS (default 120,000): a request unanswered by then is
// given as status 0 and an infinite time.
import { join, resolve } from "node:path";
import { BIN, ROOT, median, startServer, table } from "../lib.ts";

const checkout = resolve(process.argv[2] ?? ROOT);
const RUNS = Number(process.env.RUNS ?? 15);
const RUNTIMES = (process.env.RUNTIMES ?? "node,deno").split(",");
/** Bursts of ten 64 KiB requests on Deno (one took minutes before the fix on this machine). */
const BURSTS = Number(process.env.BURSTS ?? 3);
const entry = join(checkout, "runtime/entry/server.ts");
const env = { QUOTA_STORE: "memory", ACCESS_LOG: "0", DIST_DIR: join(checkout, "dist") };

/** How long a request may take before it counts as unanswered (status 0, `Infinity` ms). */
const CAP_MS = Number(process.env.CAP_MS ?? 120_000);

/** Milliseconds from sending `path` to the end of its answer, and its status. */
async function timed(url: string, path: string): Promise<{ ms: number; status: number }> {
  const t0 = performance.now();
  try {
    const response = await fetch(url + path, { signal: AbortSignal.timeout(CAP_MS) });
    await response.arrayBuffer();
    return { ms: performance.now() - t0, status: response.status };
  } catch {
    return { ms: Number.POSITIVE_INFINITY, status: 0 };
  }
}

/** Median milliseconds of `RUNS` sequential requests for `path`, with the statuses seen. */
async function medianMs(url: string, path: string): Promise<string> {
  const times: number[] = [];
  const statuses = new Set<number>();
  for (let i = 0; i < RUNS; i++) {
    const { ms, status } = await timed(url, path);
    times.push(ms);
    statuses.add(status);
  }
  return `${median(times).toFixed(1)} (${[...statuses].join("/")})`;
}

const long = (n: number) => `/hanja/v1/hanja?q=a${"!".repeat(n)}b`;
const rows: (string | number)[][] = [["runtime", "case", "median ms (status)"]];
for (const runtime of RUNTIMES) {
  const [command, args] =
    runtime === "node"
      ? [process.execPath, ["--import", "tsx", entry]]
      : [join(BIN, "deno"), ["run", `--allow-read=${checkout}`, "--allow-env", "--allow-net=127.0.0.1", entry]];
  const server = await startServer(command, args, env, "/healthz");
  try {
    rows.push([runtime, "q=a!b", await medianMs(server.url, "/hanja/v1/hanja?q=a!b")]);
    rows.push([runtime, "q=a + 15,000 ! + b", await medianMs(server.url, long(15_000))]);
    if (runtime === "deno" && BURSTS > 0) {
      // Ten 64 KiB targets at once, and a short request sent with them: how long it waits.
      const waits: number[] = [];
      const bursts: number[] = [];
      for (let i = 0; i < BURSTS; i++) {
        const t0 = performance.now();
        const burst = Array.from({ length: 10 }, () => timed(server.url, long(65_000)));
        waits.push((await timed(server.url, "/hanja/v1/hanja?q=a!b")).ms);
        await Promise.all(burst);
        bursts.push(performance.now() - t0);
      }
      rows.push([runtime, "q=a!b sent with ten 64 KiB", `${median(waits).toFixed(1)}`]);
      rows.push([runtime, "the ten 64 KiB, all answered", `${median(bursts).toFixed(1)}`]);
    }
  } finally {
    await server.stop();
  }
}
console.log(`${checkout}\n${table(rows)}`);
