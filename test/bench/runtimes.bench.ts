/**
 * Every runtime (issue 6): requests/second and p99 for a character detail, a reading search and a
 * quiz with a key (SQLite store), each beside that runtime's own plain hello-world server measured
 * in the same run; cold start to the first character response; RSS after load.
 * Targets: Bun and Deno detail ≥ 60 % of their baseline; cold start ≤ 500 ms on Node and Deno,
 * ≤ 1.5 s for the binary; RSS ≤ 200 MB on Node. `npm run bench -- runtimes`; `RUNTIMES=deno,bun`
 * measures only those (`ROUNDS` rounds, `SECONDS` per case). The service runs with its default
 * configuration, access log included (`ACCESS_LOG=0` measures it without).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBinary } from "../../scripts/build-binary.ts";
import { bundle } from "../../scripts/bundle.ts";
import { DIST } from "../../scripts/ensureDist.ts";
import { BIN, LOAD_TOOL, ROOT, Results, annualKeys, load, median, rssMb, startServer, table } from "./lib.ts";

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 5);
const ADMIN = "bench-admin-token-0123456789";
const DETAIL = `/hanja/v1/hanja/${encodeURIComponent("水")}`;
const SEARCH = `/hanja/v1/hanja?q=${encodeURIComponent("수")}`;

const NAMES = ["node", "bun", "deno", "binary"];
const chosen =
  process.env.RUNTIMES?.split(",")
    .map((name) => name.trim())
    .filter(Boolean) ?? [];
const unknown = chosen.filter((name) => !NAMES.includes(name));
if (unknown.length > 0) throw new Error(`RUNTIMES: ${unknown.join(", ")} is not one of ${NAMES.join(", ")}`);
const measured = (name: string) => chosen.length === 0 || chosen.includes(name);

const server = await bundle();
const work = mkdtempSync(join(tmpdir(), "hanja-bench-runtimes-"));
const binary = measured("binary") ? await buildBinary() : "";
const helloBinary = join(work, "hello-bin");
if (measured("binary")) {
  const compiled = spawnSync(join(BIN, "bun"), ["build", "--compile", join(ROOT, "test/bench/baselines/hello.bun.ts"), "--outfile", helloBinary], {
    stdio: "ignore",
  });
  if (compiled.status !== 0) throw new Error("could not compile the hello-world binary");
}

interface Runtime {
  name: string;
  baseline: [string, string[]];
  server: (db: string) => [string, string[]];
}
const deno = join(BIN, "deno");
const denoFlags = (db: string) => [`--allow-read=${DIST},${join(db, "..")}`, `--allow-write=${join(db, "..")}`, "--allow-env", "--allow-net=127.0.0.1"];
const RUNTIMES = (
  [
    { name: "node", baseline: ["node", [join(ROOT, "test/bench/baselines/hello.node.mjs")]], server: () => ["node", [server]] },
    { name: "bun", baseline: [join(BIN, "bun"), [join(ROOT, "test/bench/baselines/hello.bun.ts")]], server: () => [join(BIN, "bun"), [server]] },
    {
      name: "deno",
      baseline: [
        deno,
        ["run", "--allow-net=127.0.0.1", "--allow-env=PORT,BODY_FILE,HEADERS_FILE", `--allow-read=${work}`, join(ROOT, "test/bench/baselines/hello.deno.ts")],
      ],
      server: (db) => [deno, ["run", ...denoFlags(db), server]],
    },
    { name: "binary", baseline: [helloBinary, []], server: () => [binary, []] },
  ] satisfies Runtime[]
).filter((runtime) => measured(runtime.name));

// The detail's body and headers, for the same-answer baseline (the server adds the framing ones).
const detailBody = join(work, "detail.json");
const detailHeaders = join(work, "detail-headers.json");
{
  const probe = await startServer("node", [server], { QUOTA_STORE: "memory" }, DETAIL);
  const response = await fetch(probe.url + DETAIL, { headers: { connection: "close" } });
  writeFileSync(detailBody, Buffer.from(await response.arrayBuffer()));
  const framing = new Set(["date", "content-length", "connection", "keep-alive", "transfer-encoding"]);
  writeFileSync(detailHeaders, JSON.stringify(Object.fromEntries([...response.headers].filter(([name]) => !framing.has(name)))));
  await probe.stop();
}

/**
 * Annual keys the quiz case spreads its calls over: 10,000 calls a day each, so the 6 s of a case
 * (warm-up included) stay under the quota up to 200,000 requests/second. (40 ran out on a fast Bun
 * round: 2,429 answers of 429.)
 */
const KEYS = 120;
const cells = new Results();
const cold = new Map<string, number[]>();
const rss = new Map<string, number[]>();
const push = (map: Map<string, number[]>, key: string, value: number) => map.set(key, [...(map.get(key) ?? []), value]);

for (let round = 1; round <= ROUNDS; round++) {
  for (const runtime of RUNTIMES) {
    const base = await startServer(runtime.baseline[0], runtime.baseline[1], {}, "/");
    await load(base.url, ["/"], { seconds: 1 });
    cells.add(`${runtime.name}:baseline`, await load(base.url, ["/"], { seconds: SECONDS, server: base.proc }));
    await base.stop();

    // The same hello-world server answering the exact bytes and headers of the detail response, the
    // fastest way the runtime offers (Bun, Deno: clones of one ready Response): what the runtime's
    // server itself costs for that answer at best.
    const same = await startServer(runtime.baseline[0], runtime.baseline[1], { BODY_FILE: detailBody, HEADERS_FILE: detailHeaders }, "/");
    await load(same.url, ["/"], { seconds: 1 });
    cells.add(`${runtime.name}:same-answer`, await load(same.url, ["/"], { seconds: SECONDS, server: same.proc }));
    await same.stop();

    const dir = mkdtempSync(join(work, "db-"));
    const db = join(dir, "quota.sqlite");
    const [command, args] = runtime.server(db);
    const app = await startServer(command, args, { QUOTA_DB: db, ADMIN_TOKEN: ADMIN, TRUST_PROXY_HOPS: "1" }, DETAIL);
    push(cold, runtime.name, app.coldStartMs);
    const keys = await annualKeys(app.url, KEYS, ADMIN);
    const cases: [string, string[], Record<string, string>[] | undefined][] = [
      ["detail", [DETAIL], undefined],
      ["search", [SEARCH], undefined],
      ["quiz", keys.map(() => "/quiz/v1/quiz"), keys.map((k) => ({ "X-API-Key": k }))],
    ];
    for (const [name, paths, headers] of cases) {
      await load(app.url, paths, { seconds: 1, headers });
      const r = await load(app.url, paths, { seconds: SECONDS, headers, server: app.proc });
      if (r.non2xx > 0) throw new Error(`${runtime.name} ${name}: ${r.non2xx} non-2xx responses`);
      cells.add(`${runtime.name}:${name}`, r);
    }
    push(rss, runtime.name, rssMb(app.proc.pid));
    await app.stop();
    console.error(`round ${round}/${ROUNDS}: ${runtime.name} done`);
  }
}
rmSync(work, { recursive: true, force: true });

const rows: (string | number)[][] = [
  [
    "runtime",
    "hello req/s",
    "detail req/s (% of hello)",
    "p99",
    "by CPU",
    "same answer req/s (% of hello)",
    "detail % of same answer",
    "search req/s (%)",
    "p99",
    "quiz req/s (%)",
    "p99",
    "cold start ms",
    "RSS MB",
  ],
];
for (const { name } of RUNTIMES) {
  const base = median(cells.get(`${name}:baseline`).rps);
  const cell = (c: string) => {
    const v = cells.get(`${name}:${c}`);
    return [`${Math.round(median(v.rps))} (${((median(v.rps) / base) * 100).toFixed(0)} %)`, `${median(v.p99).toFixed(1)} ms`];
  };
  const sameAnswer = median(cells.get(`${name}:same-answer`).rps);
  const detail = median(cells.get(`${name}:detail`).rps);
  const cpu = (c: string) => median(cells.get(`${name}:${c}`).cpuUs);
  rows.push([
    name,
    Math.round(base),
    ...cell("detail"),
    `${((cpu("baseline") / cpu("detail")) * 100).toFixed(0)} %`,
    `${Math.round(sameAnswer)} (${((sameAnswer / base) * 100).toFixed(0)} %)`,
    `${((detail / sameAnswer) * 100).toFixed(0)} %`,
    ...cell("search"),
    ...cell("quiz"),
    Math.round(median(cold.get(name) ?? [])),
    Math.round(median(rss.get(name) ?? [])),
  ]);
}
console.log(
  `\nAll runtimes, ${LOAD_TOOL}, 50 connections, ${SECONDS} s per case, median of ${ROUNDS} rounds; quiz = GET /quiz with annual keys on the SQLite store\n`,
);
console.log(table(rows));
console.log(
  "\nby CPU: hello's CPU time per request over the detail's (server process, user + system, all threads), the\n" +
    "ratio requests/second would show if nothing else took the server's core. same answer: the runtime's\n" +
    "hello-world server answering the detail's exact body and headers the fastest way it offers (Bun and\n" +
    "Deno: a clone of one ready Response, as the service does for a character): a ceiling, up to noise.",
);
