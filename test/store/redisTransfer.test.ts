/**
 * Slow: the keys CLI on the Redis store: a round trip SQLite → Redis → SQLite through `export` and
 * `import` keeps every record, a confirmation made with the CLI reaches a running server at once,
 * and an unreachable Redis is a clear failure, not a stack.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqliteStore } from "../../runtime/stores/sqlite/sqliteStore.ts";
import { nodeSource } from "../conformance/servers.ts";
import { ROOT } from "../helpers/app.ts";
import { type TestRedis, removeAllRedis, skipRedis, startRedis } from "../helpers/redisServer.ts";
import { stopAllServers } from "../helpers/server.ts";
import { Q, applicant } from "../http/quiz-helpers.ts";
import { fillWithKeys } from "./keySet.ts";
import { allKeys } from "../../runtime/core/quota/keyPages.ts";

const dir = mkdtempSync(join(tmpdir(), "quota-redis-transfer-"));

/** Runs the keys CLI with `env` (no QUOTA_* or REDIS_* of the test's own environment); never rejects. */
function keys(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(QUOTA_|REDIS_)/.test(name)));
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "runtime/cli/keys.ts", ...args], { cwd: ROOT, env: { ...base, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe.skipIf(skipRedis)("the keys CLI on the Redis store", () => {
  let redis: TestRedis;
  let onRedis: Record<string, string>;
  beforeAll(async () => {
    redis = await startRedis();
    onRedis = { QUOTA_STORE: "redis", REDIS_URL: redis.url, REDIS_PREFIX: "moved:" };
  });
  afterAll(async () => {
    await stopAllServers();
    await removeAllRedis();
    rmSync(dir, { recursive: true, force: true });
  });

  it("export from SQLite, import into Redis, export again and import into a new SQLite file: every record unchanged", async () => {
    const source = join(dir, "source.sqlite");
    const store = await openSqliteStore(source);
    await fillWithKeys(store);
    const original = await allKeys(store);
    store.close();

    const fromSqlite = await keys({}, "export", "--store", "sqlite", "--db", source);
    expect(fromSqlite.code).toBe(0);
    const file = join(dir, "keys.jsonl");
    writeFileSync(file, fromSqlite.stdout);
    const imported = await keys(onRedis, "import", file);
    expect(imported).toMatchObject({ code: 0, stdout: '{"imported":5,"unchanged":0,"conflicts":0}\n' });
    // Run again: nothing twice.
    expect((await keys(onRedis, "import", file)).stdout).toBe('{"imported":0,"unchanged":5,"conflicts":0}\n');

    const fromRedis = await keys(onRedis, "export");
    expect(fromRedis.code).toBe(0);
    expect(fromRedis.stdout).toBe(fromSqlite.stdout);
    // The two erased applications move erased: erased_at kept, their personal data nowhere.
    expect(fromRedis.stdout.match(/"erased_at":"[^"]+"/g)).toHaveLength(2);
    expect(fromRedis.stdout).not.toContain("lee@example.com");
    const back = join(dir, "back.sqlite");
    writeFileSync(join(dir, "back.jsonl"), fromRedis.stdout);
    expect((await keys({ QUOTA_STORE: "sqlite", QUOTA_DB: back }, "import", join(dir, "back.jsonl"))).code).toBe(0);
    const reopened = await openSqliteStore(back);
    expect(await allKeys(reopened)).toEqual(original);
    reopened.close();

    const listed = await keys(onRedis, "list", "--status", "pending_deposit");
    expect(listed.stdout.trim().split("\n")).toHaveLength(2);
    expect(listed.stdout).toContain("pending@example.com");
  });

  it("a bad export is refused naming the line, before anything is written", async () => {
    const file = join(dir, "bad.jsonl");
    const good = readFileSync(join(dir, "keys.jsonl"), "utf8").split("\n");
    writeFileSync(file, [good[0], good[1], "{not json"].join("\n"));
    const result = await keys({ ...onRedis, REDIS_PREFIX: "untouched:" }, "import", file);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`keys: ${file}: line 3: not JSON; nothing imported\n`);
    expect((await keys({ ...onRedis, REDIS_PREFIX: "untouched:" }, "export")).stdout.trim().split("\n")).toHaveLength(1);
  });

  it("a confirmation made with the CLI applies to the next request a running server reads", async () => {
    const server = await nodeSource(onRedis);
    const response = await fetch(`${server.url}${Q}/subscribe`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(applicant("cli-confirm")),
    });
    const {
      api_key: key,
      key: { id },
    } = (await response.json()) as { api_key: string; key: { id: string } };
    expect((await fetch(`${server.url}${Q}/idiom`, { headers: { "X-API-Key": key } })).headers.get("x-ratelimit-limit")).toBe("100");
    const confirmed = await keys(onRedis, "confirm", id);
    expect(confirmed.code).toBe(0);
    expect((await fetch(`${server.url}${Q}/idiom`, { headers: { "X-API-Key": key } })).headers.get("x-ratelimit-limit")).toBe("10000");
    expect((await keys(onRedis, "revoke", id)).code).toBe(0);
    expect((await fetch(`${server.url}${Q}/idiom`, { headers: { "X-API-Key": key } })).status).toBe(403);
    await server.stop();
  });

  it("an unreachable Redis fails the command with the reason, naming no password", async () => {
    const gone = await startRedis();
    await gone.stop();
    const env = { QUOTA_STORE: "redis", REDIS_URL: `redis://:cli-secret-pw@127.0.0.1:${gone.port}/0` };
    for (const args of [["list"], ["import", join(dir, "keys.jsonl")]]) {
      const result = await keys(env, ...args);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^keys: .*redis://127\\.0\\.0\\.1:${gone.port}/0.*(does not answer|not connected)`, "m"));
      expect(result.stderr).not.toContain("cli-secret-pw");
    }
    await gone.remove();
  });
});
