/**
 * The access log as each runtime's server writes it to stdout (docs/rules.md "Headers"): one JSON line per request,
 * with method, path, status, duration and request id (and an error's problem code and parameter), the `api_key` value redacted, and nothing
 * lost at a graceful stop. Each runtime's `process.stdout` takes the batches' bytes its own way,
 * so each is read back here.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sendUnencoded } from "./client.ts";
import { type StartServer, bunSource, denoSource, nodeSource } from "./servers.ts";

const work = mkdtempSync(join(tmpdir(), "hanja-access-log-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SERVERS: [string, StartServer][] = [
  ["node", nodeSource],
  ["bun", bunSource],
  ["deno", denoSource],
];

/** A key-shaped value no server knows: sent as `api_key`, it must appear in no log line. */
const KEY = "hj_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0L";

describe.each(SERVERS)("access log on %s", (runtime, start) => {
  it("writes one JSON line per request, in order, with the api_key value redacted, all of them by the time the server has stopped", async () => {
    const server = await start({ ACCESS_LOG: "1", QUOTA_STORE: "memory", QUOTA_DB: join(work, `${runtime}.sqlite`) }, { keepStdout: true });
    const started = Date.now();
    const requests: [string, string, number][] = [
      ["GET", `/hanja/v1/hanja/${encodeURIComponent("水")}`, 200],
      ["GET", `/hanja/v1/hanja?q=${encodeURIComponent("물")}&limit=2`, 200],
      ["GET", `/quiz/v1/quiz?count=1&api_key=${KEY}`, 401],
      ["HEAD", "/no/such/route", 404],
      ["GET", "/quiz/v1/quiz?count=abc", 400],
      ["GET", `/hanja/v1/hanja?q=${encodeURIComponent('"a\\b"')}`, 200],
    ];
    const ids: (string | null)[] = [];
    for (const [method, target, status] of requests) {
      const response = await fetch(server.url + target, { method });
      await response.arrayBuffer();
      expect(response.status, `${method} ${target}`).toBe(status);
      ids.push(response.headers.get("x-request-id"));
    }
    expect(await server.stop()).toBe(0);
    // stdout may close a moment after the exit.
    for (let i = 0; i < 100 && server.stdout().split("\n").length <= requests.length; i++) await new Promise((r) => setTimeout(r, 20));

    const text = server.stdout();
    expect(text.endsWith("\n")).toBe(true);
    expect(text).not.toContain(KEY);
    const lines = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line.method, line.path, line.status])).toEqual(
      requests.map(([method, target, status]) => [method, target.replace(KEY, "REDACTED"), status]),
    );
    for (const [i, line] of lines.entries()) {
      const problem = { 401: ["invalid_key", "api_key"], 404: ["not_found"], 400: ["invalid_parameter", "count"] }[line.status as number] ?? [];
      expect(Object.keys(line)).toEqual(["time", "request_id", "method", "path", "status", "duration_ms", ...["problem", "param"].slice(0, problem.length)]);
      expect([line.problem, line.param].slice(0, problem.length)).toEqual(problem);
      expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Date.parse(line.time as string)).toBeGreaterThanOrEqual(started - 1000);
      expect(Date.parse(line.time as string)).toBeLessThanOrEqual(Date.now());
      expect(typeof line.duration_ms).toBe("number");
      expect(line.duration_ms as number).toBeGreaterThanOrEqual(0);
      // Problems carry their request id; the log line has the same one.
      if (ids[i] !== null) expect(line.request_id).toBe(ids[i]);
    }
    expect(new Set(lines.map((line) => line.request_id)).size).toBe(requests.length);
  });

  it("writes no credential: every credential-named parameter and the admin token, anywhere in a target, are redacted", async () => {
    const adminToken = "log-admin-token-0123456789abcdef";
    const server = await start({ ACCESS_LOG: "1", QUOTA_STORE: "memory", ADMIN_TOKEN: adminToken }, { keepStdout: true });
    const names = ["api_key", "token", "access_token", "admin_token", "key", "password", "secret", "client_secret", "auth", "signature", "session_id"];
    const targets = [
      ...names.map((name, i) => `/hanja/v1/meta?${name}=secret-value-${i}-zz`),
      `/quiz/v1/admin/keys?x=${adminToken}`,
      `/quiz/v1/admin/keys/${encodeURIComponent(adminToken).replace("a", "%61")}`,
      `/hanja/v1/hanja?q=${adminToken}`,
    ];
    for (const target of targets) await (await fetch(server.url + target)).arrayBuffer();
    expect(await server.stop()).toBe(0);
    for (let i = 0; i < 100 && server.stdout().split("\n").length <= targets.length; i++) await new Promise((r) => setTimeout(r, 20));
    const text = server.stdout();
    expect(text.trimEnd().split("\n")).toHaveLength(targets.length);
    expect(text).not.toMatch(/secret-value/);
    expect(text).not.toContain(adminToken);
    expect(text).not.toContain("0123456789abcdef");
    expect(text).toContain("/hanja/v1/meta?token=REDACTED");
  });

  it("logs a target the same way on every runtime: raw UTF-8 percent-encoded, a very long one cut at 8,192 characters with …", async () => {
    const server = await start({ ACCESS_LOG: "1", QUOTA_STORE: "memory" }, { keepStdout: true });
    const raw = await sendUnencoded(server.url, "/hanja/v1/hanja?q=수&per_page=1");
    const long = `/hanja/v1/hanja?q=${"a".repeat(10_000)}`;
    expect((await fetch(server.url + long)).status).toBe(400);
    expect(await server.stop()).toBe(0);
    for (let i = 0; i < 100 && server.stdout().split("\n").length <= 2; i++) await new Promise((r) => setTimeout(r, 20));
    const [first, second] = server
      .stdout()
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { path: string; status: number });
    // Node's parser refuses raw UTF-8 in the request line (logged without its target); Bun and Deno answer it.
    if (runtime === "node") expect(first).toMatchObject({ path: "-", status: 400 });
    else expect(first).toMatchObject({ path: "/hanja/v1/hanja?q=%EC%88%98&per_page=1", status: raw.status });
    expect(raw.status).toBe(runtime === "node" ? 400 : 200);
    expect(second).toMatchObject({ path: `${long.slice(0, 8_192)}…`, status: 400 });
  });
});
