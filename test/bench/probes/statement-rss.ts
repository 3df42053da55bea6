// `keys deposits` on a generated statement of SIZE_MB of deposits (test/store/bigStatement.ts),
// RUNS times, its report piped on and counted: wall time and peak RSS (GNU time -v) of each run,
// and their medians. SOURCE_ROOT runs another checkout's CLI (a worktree of an older commit, for
// the "before" figures).
//   npx tsx test/bench/probes/statement-rss.ts
//   SOURCE_ROOT=/tmp/before RUNS=3 npx tsx test/bench/probes/statement-rss.ts
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../../runtime/stores/sqlite/sqliteStore.ts";
import { bigStatement } from "../../store/bigStatement.ts";
import { keyRecord } from "../../store/contractCases.ts";
import { median } from "../lib.ts";

const ROOT = process.env.SOURCE_ROOT ?? join(import.meta.dirname, "../../..");
const RUNS = Number(process.env.RUNS ?? 3);
const SIZE_MB = Number(process.env.SIZE_MB ?? 65);

const dir = mkdtempSync(join(tmpdir(), "hanja-statement-rss-"));
try {
  const db = join(dir, "quota.sqlite");
  const store = await openSqliteStore(db);
  store.insertKey(keyRecord({ id: "key_ab12cdEFGHIJ", created_at: "2026-11-01T00:00:00.000Z" }));
  store.close();
  const file = join(dir, "statement.csv");
  const last = await bigStatement(file, SIZE_MB * 1e6);
  console.log(`${ROOT}: ${(statSync(file).size / 1e6).toFixed(1)} MB, ${last - 1} deposits`);
  const seconds: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const script = `/usr/bin/time -v node --import tsx runtime/cli/keys.ts deposits '${file}' --db '${db}' 2>'${dir}/time.txt' | wc -l; cat '${dir}/time.txt'`;
    const out = execFileSync("sh", ["-c", script], { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 20 });
    const [, m = "0", s = "0"] = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\d+):([\d.]+)/.exec(out) ?? [];
    seconds.push(Number(m) * 60 + Number(s));
    rss.push(Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(out)?.[1]) / 1024);
    console.log(`  run ${i + 1}: ${out.split("\n")[0]} report lines, ${seconds.at(-1)?.toFixed(1)} s, maxRSS ${rss.at(-1)?.toFixed(0)} MB`);
  }
  console.log(`median: ${median(seconds).toFixed(1)} s, maxRSS ${median(rss).toFixed(0)} MB`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
