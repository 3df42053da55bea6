// A class of 30 end to end on a real server, on each runtime and each quota store:
// `npx tsx test/bench/probes/class-of-30.ts [--rounds 5]`. A teacher's key makes a class quiz of 10
// questions; 30 students (each from an address of its own) open it and submit at once; the teacher
// reads the results. Prints one JSON line per runtime and store: the median milliseconds of each
// phase over the rounds, and the calls counted on the teacher's key and on the students' addresses
// (expected 31 and 0).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type StartServer, bunSource, denoSource, nodeSource } from "../../conformance/servers.ts";
import { startRedis } from "../../helpers/redisServer.ts";

const { values } = parseArgs({ options: { rounds: { type: "string" } } });
const ROUNDS = Number(values.rounds ?? 5);
const STUDENTS = 30;
const JSON_TYPE = { "Content-Type": "application/json" };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function json(url: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.json() };
}

async function round(base: string, n: number): Promise<Record<string, number>> {
  const B = `${base}/quiz/v1`;
  const issued = await json(`${B}/subscribe`, {
    method: "POST",
    headers: JSON_TYPE,
    body: JSON.stringify({ name: "Teacher", email: `t${n}-${Date.now()}@example.com` }),
  });
  const key = issued.body.api_key as string;
  const teacher = { "X-API-Key": key };
  let t = performance.now();
  const made = await json(`${B}/classes`, {
    method: "POST",
    headers: { ...JSON_TYPE, ...teacher },
    body: JSON.stringify({ type: "hunum_to_hanja,hanja_to_reading,idiom_blank", count: 10, students_max: STUDENTS }),
  });
  if (made.status !== 201) throw new Error(`make: ${made.status} ${JSON.stringify(made.body)}`);
  const makeMs = performance.now() - t;
  const code = made.body.class.code as string;
  const address = (i: number) => ({ "X-Forwarded-For": `198.51.100.${i + 1}` });
  t = performance.now();
  const opened = await Promise.all(Array.from({ length: STUDENTS }, (_, i) => json(`${B}/classes/${code}`, { headers: address(i) })));
  const openMs = performance.now() - t;
  if (opened.some((o) => o.status !== 200)) throw new Error("open failed");
  t = performance.now();
  const submitted = await Promise.all(
    Array.from({ length: STUDENTS }, (_, i) =>
      json(`${B}/classes/${code}/submissions`, {
        method: "POST",
        headers: { ...JSON_TYPE, ...address(i) },
        body: JSON.stringify({ name: `학생 ${i + 1}`, answers: Array.from({ length: 10 }, (_, q) => String(1 + ((i + q) % 4))) }),
      }),
    ),
  );
  const submitMs = performance.now() - t;
  if (submitted.some((s) => s.status !== 201)) throw new Error(`submit: ${submitted.map((s) => s.status).join(",")}`);
  t = performance.now();
  const results = await json(`${B}/classes/${code}/results`, { headers: teacher });
  const resultsMs = performance.now() - t;
  if (results.body.students.length !== STUDENTS) throw new Error("results incomplete");
  const counted = (await json(`${B}/me`, { headers: teacher })).body.key.used_today as number;
  const studentCalls = (await Promise.all(Array.from({ length: STUDENTS }, (_, i) => json(`${B}/me`, { headers: address(i) })))).reduce(
    (sum, me) => sum + (me.body.key.used_today as number),
    0,
  );
  return { makeMs, openMs, submitMs, resultsMs, counted, studentCalls };
}

const dir = mkdtempSync(join(tmpdir(), "class-of-30-"));
const redis = await startRedis();
try {
  const runtimes: [string, StartServer][] = [
    ["node", nodeSource],
    ["bun", bunSource],
    ["deno", denoSource],
  ];
  const stores: [string, Record<string, string>][] = [
    ["sqlite", {}],
    ["memory", { QUOTA_STORE: "memory" }],
    ["redis", { QUOTA_STORE: "redis", REDIS_URL: redis.url }],
  ];
  for (const [runtime, start] of runtimes) {
    for (const [store, env] of stores) {
      const server = await start({ QUOTA_DB: join(dir, `${runtime}-${store}.sqlite`), TRUST_PROXY_HOPS: "1", REDIS_PREFIX: `${runtime}:`, ...env });
      try {
        const rounds: Record<string, number>[] = [];
        for (let n = 0; n < ROUNDS; n++) rounds.push(await round(server.url, n));
        const figure = (name: string) => Math.round(median(rounds.map((r) => r[name] as number)) * 10) / 10;
        console.log(
          JSON.stringify({
            runtime,
            store,
            rounds: ROUNDS,
            students: STUDENTS,
            make_ms: figure("makeMs"),
            open_30_ms: figure("openMs"),
            submit_30_ms: figure("submitMs"),
            results_ms: figure("resultsMs"),
            counted_on_key: [...new Set(rounds.map((r) => r.counted))],
            counted_on_students: [...new Set(rounds.map((r) => r.studentCalls))],
          }),
        );
      } finally {
        await server.stop();
      }
    }
  }
} finally {
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
}
