// Two builds of the server compared in one session: a character detail and a quiz with a key
// (SQLite store, access log on, as `npm run bench -- runtimes` runs them), on Node or Bun, the two
// bundles taking turns within each round (which goes first alternates), medians of ROUNDS rounds.
// Reports requests/second and the server's CPU time per request, which a shared machine disturbs
// far less than requests/second; and, per build, the time to the first detail (cold start) and the
// server's RSS once that detail has been answered (Linux `/proc`), medians over the rounds. Build the "before" bundle from the older commit in a temporary
// worktree (`npx tsx -e` cannot await: call scripts/bundle.ts's `bundle(outfile)` from a .mts file).
//   npx tsx test/bench/probes/compare-bundles.ts /tmp/before/hanja-api.mjs dist/runtime/hanja-api.mjs
// ROUNDS (default 7), SECONDS per case (default 4), RUNTIME (node or bun), DIST_DIR (default dist/),
// CASES (default `detail,quiz-with-key`: the cases to load, say `detail` alone; also `search` for
// q=수, `words` for /words?q=수, `read` for /read with 500 different texts of 200 characters);
// BEFORE_DIST and AFTER_DIST give each build its own dist/ (default DIST_DIR), for builds whose
// dist formats differ (the "before" one built by `npx tsx pipeline/cli.ts` in its worktree).
// BEFORE_ENV and AFTER_ENV add settings to one build's servers (`METRICS_TOKEN=…,ACCESS_LOG=0`).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, ROOT, Results, annualKeys, load, median, startServer, table } from "../lib.ts";
import { phrasePicker, readTargets, readerTexts } from "../readerTexts.ts";

const [before, after] = process.argv.slice(2);
if (!before || !after) throw new Error("usage: compare-bundles.ts <before bundle> <after bundle>");
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const SECONDS = Number(process.env.SECONDS ?? 4);
const RUNTIME = process.env.RUNTIME ?? "node";
const command = RUNTIME === "bun" ? join(BIN, "bun") : "node";
const DETAIL = `/hanja/v1/hanja/${encodeURIComponent("水")}`;
const ADMIN = "bench-admin-token-0123456789";
const KEYS = 40;
const CASES = (process.env.CASES ?? "detail,quiz-with-key").split(",");
const enc = encodeURIComponent;
const TEXTS = readTargets(readerTexts(phrasePicker(), "compare", 500, 200));
const work = mkdtempSync(join(tmpdir(), "hanja-compare-"));
const results = new Results();
const builds = { before, after };
const defaultDist = process.env.DIST_DIR ?? join(ROOT, "dist");
const distOf = { before: process.env.BEFORE_DIST ?? defaultDist, after: process.env.AFTER_DIST ?? defaultDist };
/** A build's extra settings, from `NAME=value,…`. */
const extraEnv = (text = "") =>
  Object.fromEntries(
    text
      .split(",")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
  );
const envOf = { before: extraEnv(process.env.BEFORE_ENV), after: extraEnv(process.env.AFTER_ENV) };
const startup = { before: { ms: [] as number[], rssMb: [] as number[] }, after: { ms: [] as number[], rssMb: [] as number[] } };

/** A process's resident set in MB, from `/proc/<pid>/status` (Linux). */
function rssMb(pid: number | undefined): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match?.[1] ?? Number.NaN) / 1024;
}

for (let round = 1; round <= ROUNDS; round++) {
  const order = round % 2 === 1 ? (["before", "after"] as const) : (["after", "before"] as const);
  for (const name of order) {
    const db = join(mkdtempSync(join(work, "db-")), "quota.sqlite");
    const env = { QUOTA_DB: db, ADMIN_TOKEN: ADMIN, TRUST_PROXY_HOPS: "1", DIST_DIR: distOf[name], ...envOf[name] };
    const server = await startServer(command, [builds[name]], env, DETAIL);
    startup[name].ms.push(server.coldStartMs);
    startup[name].rssMb.push(rssMb(server.proc.pid));
    const keys = CASES.includes("quiz-with-key") ? await annualKeys(server.url, KEYS, ADMIN) : [];
    const cases: [string, string[], Record<string, string>[] | undefined][] = [
      ["detail", [DETAIL], undefined] as [string, string[], undefined],
      ["quiz-with-key", keys.map(() => "/quiz/v1/quiz"), keys.map((key) => ({ "X-API-Key": key }))] as [string, string[], Record<string, string>[]],
      ["search", [`/hanja/v1/hanja?q=${enc("수")}`], undefined] as [string, string[], undefined],
      ["words", [`/hanja/v1/words?q=${enc("수")}`], undefined] as [string, string[], undefined],
      ["read", TEXTS, undefined] as [string, string[], undefined],
    ].filter(([label]) => CASES.includes(label));
    for (const [label, paths, headers] of cases) {
      await load(server.url, paths, { seconds: 1, headers });
      const result = await load(server.url, paths, { seconds: SECONDS, headers, server: server.proc });
      if (result.non2xx > 0) throw new Error(`${name} ${label}: ${result.non2xx} non-2xx answers`);
      results.add(`${label}:${name}`, result);
    }
    await server.stop();
  }
  console.error(`round ${round}/${ROUNDS} done`);
}
rmSync(work, { recursive: true, force: true });

const rows: (string | number)[][] = [["case", "build", "req/s (median)", "CPU µs/req (median)", "CPU µs/req (all rounds)", "CPU vs before"]];
for (const label of CASES) {
  const cpuBefore = median(results.get(`${label}:before`).cpuUs);
  for (const name of ["before", "after"] as const) {
    const samples = results.get(`${label}:${name}`);
    const cpu = median(samples.cpuUs);
    rows.push([
      label,
      name,
      Math.round(median(samples.rps)),
      cpu.toFixed(1),
      samples.cpuUs.map((c) => c.toFixed(1)).join(" "),
      `${((cpu / cpuBefore - 1) * 100).toFixed(1)} %`,
    ]);
  }
}
const startRows: (string | number)[][] = [["build", "first detail ms (median)", "RSS after it, MB (median)", "RSS, all rounds"]];
for (const name of ["before", "after"] as const) {
  const { ms, rssMb: rss } = startup[name];
  startRows.push([name, median(ms).toFixed(0), median(rss).toFixed(1), rss.map((r) => r.toFixed(0)).join(" ")]);
}
console.log(`${RUNTIME}, ${ROUNDS} rounds of ${SECONDS} s per case, builds interleaved\n${table(rows)}\n\n${table(startRows)}`);
