/**
 * The embedding examples (examples/embed-hono.ts, examples/embed-node-http.ts) started in-process
 * on free ports: under their prefix the service answers exactly as a standalone `createApp` does
 * (bodies, statuses, headers, problems, CORS, caching, compression, request bodies), the demo
 * quota counts the TCP peer the host hands over, and the host's own routes stay its own.
 */
import { Agent } from "node:http";
import { connect } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "hanja-api";
import { loadDistFiles } from "hanja-api/node";
import { page } from "hanja-api/page";
import { openQuotaStore } from "hanja-api/stores";
import * as honoExample from "../../examples/embed-hono.ts";
import * as nodeExample from "../../examples/embed-node-http.ts";
import { rawExchange } from "../helpers/server.ts";
import { type Reply, type SendOptions, send } from "./client.ts";

const DIST = join(import.meta.dirname, "../../dist");
const dist = loadDistFiles(DIST);

/** Headers whose values legitimately differ between two apps or two moments. */
const VOLATILE = new Set(["x-request-id", "ratelimit", "x-ratelimit-reset", "retry-after", "date"]);

/** A standalone app's answer, in the shape of a `Reply`. */
interface Direct {
  status: number;
  headers: Headers;
  text: string;
}

async function callDirect(app: App, path: string, options: SendOptions = {}): Promise<Direct> {
  const response = await app.fetch(
    new Request(`http://localhost${path}`, {
      method: options.method ?? "GET",
      headers: options.headers,
      body: options.body === undefined ? null : new Uint8Array(Buffer.from(options.body)),
    }),
    { clientAddress: "127.0.0.1" },
  );
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = (response.headers.get("content-encoding") === "gzip" ? gunzipSync(bytes) : bytes).toString("utf8");
  return { status: response.status, headers: response.headers, text };
}

/** Framing headers the host's HTTP server writes itself, which a Web `Response` does not carry. */
const FRAMING = new Set(["date", "connection", "keep-alive", "content-length", "transfer-encoding"]);

/**
 * Every header the standalone app sends is sent, with the same value, through the host, and the
 * host adds none but framing (a `Content-Type` on a 304 would overwrite a cache's stored one).
 */
function expectSameHeaders(embedded: Reply, direct: Direct): void {
  for (const [name, value] of direct.headers) {
    if (VOLATILE.has(name)) expect(embedded.headers[name], name).toBeDefined();
    else expect(embedded.headers[name], name).toBe(value);
  }
  const added = Object.keys(embedded.headers).filter((name) => !FRAMING.has(name) && !direct.headers.has(name));
  expect(added, `headers the host added (status ${embedded.status})`).toEqual([]);
}

/** A problem body without its request id, which must match the response's `X-Request-Id`. */
function problemOf(text: string, requestId: string | string[] | null | undefined): Record<string, unknown> {
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body.request_id).toBe(requestId);
  const { request_id: _, ...rest } = body;
  return rest;
}

/** True when this machine lets a client connect from 127.0.0.2 (Linux: all of 127/8 is loopback). */
function canUseSecondLoopback(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port, localAddress: "127.0.0.2" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

const EXAMPLES = [
  { name: "Hono (examples/embed-hono.ts)", example: honoExample, prefix: "/lexicon" },
  { name: "node:http (examples/embed-node-http.ts)", example: nodeExample, prefix: "/api" },
] as const;

describe.each(EXAMPLES)("$name", ({ example, prefix }) => {
  let running: honoExample.Running;
  let direct: App;
  const at = (path: string) => `${running.url}${prefix}${path}`;
  /** The same request through the host and to a standalone app. */
  const both = async (path: string, options: SendOptions = {}) => [await send(at(path), options), await callDirect(direct, path, options)] as const;

  beforeAll(async () => {
    expect(example.PREFIX).toBe(prefix);
    running = await example.start(0);
    // The standalone app told the same mount path: the links it writes are the same.
    direct = createApp({ dist, mountPath: prefix, onError: () => {}, page });
  });
  afterAll(async () => {
    await running?.close();
    await direct?.close();
  });

  it("writes its links under the prefix, and each of them answers through the host", async () => {
    const problem = JSON.parse((await send(at("/nope"))).text) as { type: string };
    expect(problem.type).toBe(`${prefix}/docs#error-not_found`);
    const reference = await send(`${running.url}${problem.type.split("#")[0]}`);
    expect(reference.status).toBe(200);
    expect(reference.text).toContain('id="error-not_found"');
    const openapiHref = /href="([^"]*openapi\.json)"/.exec(reference.text)?.[1];
    expect(openapiHref).toBe(`${prefix}/openapi.json`);
    const openapi = JSON.parse((await send(`${running.url}${openapiHref}`)).text) as { servers: { url: string }[]; paths: Record<string, unknown> };
    expect(openapi.servers[0]?.url).toBe(prefix);
    // A server URL and a path of the document join into a URL the host answers.
    expect(openapi.paths["/hanja/v1/meta"]).toBeDefined();
    const meta = await send(`${running.url}${openapi.servers[0]?.url}/hanja/v1/meta`);
    expect(meta.status).toBe(200);
    const terms = (JSON.parse(meta.text) as { licenses: { idioms: { url: string } } }).licenses.idioms.url;
    expect(terms).toBe(`${prefix}/hanja/v1/terms`);
    expect((await send(`${running.url}${terms}`)).status).toBe(200);
  });

  it("serves the page to a browser at the prefix's root, its assets and API calls inside the mount, as the standalone app does", async () => {
    const browser = { headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" } };
    const [embedded, standalone] = await both("/", browser);
    expect(embedded.status).toBe(200);
    expect(embedded.text).toBe(standalone.text);
    expectSameHeaders(embedded, standalone);
    expect(embedded.headers["content-security-policy"]).toContain("connect-src 'self'");
    expect(embedded.text).toContain(`data-root="${prefix}" data-hanja="${prefix}/hanja/v1" data-quiz="${prefix}/quiz/v1"`);
    for (const asset of [...embedded.text.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1] ?? "")) {
      expect(asset.startsWith(`${prefix}/`), asset).toBe(true);
      expect((await send(`${running.url}${asset}`)).status, asset).toBe(200);
    }
  });

  it("serves a character detail (BMP and astral) with the standalone app's body and headers", async () => {
    for (const path of ["/hanja/v1/hanja/%E6%B0%B4", "/hanja/v1/hanja/%F0%AE%95%A9"]) {
      const [embedded, standalone] = await both(path);
      expect(embedded.status).toBe(200);
      expect(standalone.status).toBe(200);
      expect(embedded.text).toBe(standalone.text);
      expectSameHeaders(embedded, standalone);
    }
    const water = JSON.parse((await send(at("/hanja/v1/hanja/%E6%B0%B4"))).text) as { character: string; readings: string[] };
    expect(water).toMatchObject({ character: "水", readings: ["수"] });
  });

  it("answers searches, the idiom list and /meta as the standalone app does", async () => {
    for (const path of [
      "/hanja/v1/hanja?q=%EB%AC%BC&per_page=5",
      "/hanja/v1/hanja?q=water&strokes=4",
      "/hanja/v1/idioms?q=%E3%84%B1",
      "/hanja/v1/meta",
      "/quiz/v1/me",
    ]) {
      const [embedded, standalone] = await both(path);
      expect(embedded.status, path).toBe(200);
      expect(embedded.text, path).toBe(standalone.text);
      expectSameHeaders(embedded, standalone);
    }
    const list = JSON.parse((await send(at("/hanja/v1/hanja?q=%EB%AC%BC&per_page=5"))).text) as { data: unknown[]; total: number; source: string };
    expect(list.data.length).toBeGreaterThan(0);
    expect(list.source).toBe(direct.data.characters.source);
  });

  it("gives the same 400 problem, naming the parameter", async () => {
    const [embedded, standalone] = await both("/hanja/v1/hanja?strokes=abc");
    expect(embedded.status).toBe(400);
    expect(embedded.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const problem = problemOf(embedded.text, embedded.headers["x-request-id"]);
    expect(problem).toMatchObject({ status: 400, code: "invalid_parameter", param: "strokes", success: false });
    expect(problem).toEqual(problemOf(standalone.text, standalone.headers.get("x-request-id")));
    expectSameHeaders(embedded, standalone);
  });

  it("answers unknown routes under the prefix with the service's 404, and elsewhere with the host's", async () => {
    for (const path of ["/nope", "/hanja/v1/nothing", "/", ""]) {
      const [embedded, standalone] = await both(path || "/");
      const viaHost = path === "" ? await send(`${running.url}${prefix}`) : embedded;
      expect(viaHost.status, `${prefix}${path}`).toBe(404);
      expect(viaHost.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(problemOf(viaHost.text, viaHost.headers["x-request-id"])).toEqual(problemOf(standalone.text, standalone.headers.get("x-request-id")));
    }
    const outside = await send(`${running.url}/hanja/v1/hanja/%E6%B0%B4`);
    expect(outside.status).toBe(404);
    expect(outside.headers["content-type"]).not.toMatch(/problem/);
    // Dot segments are resolved before routing: this is the host's /nope, not the service's.
    const dotted = await send(`${running.url}${prefix}/../nope`);
    expect(dotted.status).toBe(404);
    expect(dotted.headers["content-type"]).not.toMatch(/problem/);
  });

  it("answers a request node:http cannot parse (raw UTF-8 in the query) with the service's 400 problem, and keeps serving", async () => {
    const answer = await rawExchange(running.port, Buffer.from(`GET ${prefix}/hanja/v1/hanja?q=수 HTTP/1.1\r\nHost: x\r\n\r\n`, "utf8"));
    expect(answer.startsWith("HTTP/1.1 400 Bad Request\r\n")).toBe(true);
    expect(answer).toMatch(/\r\ncontent-type: application\/problem\+json; charset=utf-8\r\n/i);
    const problem = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as Record<string, unknown>;
    expect(problem).toMatchObject({ status: 400, code: "invalid_parameter", type: `${prefix}/docs#error-invalid_parameter` });
    expect(problem.detail).toContain("Percent-encode");
    expect((await send(at("/hanja/v1/meta"))).status).toBe(200);
  });

  it("answers a wrong method with 405 and the same Allow", async () => {
    const [embedded, standalone] = await both("/hanja/v1/hanja/%E6%B0%B4", { method: "DELETE" });
    expect(embedded.status).toBe(405);
    expect(embedded.headers.allow).toBe(standalone.headers.get("allow"));
    expect(embedded.headers.allow).toContain("GET");
    expect(problemOf(embedded.text, embedded.headers["x-request-id"])).toEqual(problemOf(standalone.text, standalone.headers.get("x-request-id")));
  });

  it("answers TRACE, which a Web Request cannot carry, with the standalone app's 405", async () => {
    const embedded = await send(at("/hanja/v1/meta"), { method: "TRACE" });
    const standalone = await direct.handle({ method: "TRACE", url: "http://localhost/hanja/v1/meta", headers: new Headers() });
    expect(embedded.status).toBe(405);
    expect(embedded.headers.allow).toBe(standalone.headers.Allow);
    expect(embedded.headers["content-type"]).toBe(standalone.headers["Content-Type"]);
    expect(embedded.headers["access-control-allow-origin"]).toBe("*");
    expect(problemOf(embedded.text, embedded.headers["x-request-id"])).toEqual(problemOf(String(standalone.body), standalone.headers["X-Request-Id"]));
  });

  it("keeps CORS: the header on answers, preflight answered, none on the host's own routes", async () => {
    const [get] = await both("/hanja/v1/meta", { headers: { Origin: "https://example.org" } });
    expect(get.headers["access-control-allow-origin"]).toBe("*");
    const preflightHeaders = { Origin: "https://example.org", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "X-API-Key" };
    const [preflight, standalone] = await both("/quiz/v1/quiz", { method: "OPTIONS", headers: preflightHeaders });
    expect(preflight.status).toBe(standalone.status);
    expect(preflight.status).toBeLessThan(300);
    expectSameHeaders(preflight, standalone);
    expect(String(preflight.headers["access-control-allow-headers"])).toMatch(/x-api-key/i);
    const host = await send(`${running.url}/healthz`, { headers: { Origin: "https://example.org" } });
    expect(host.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("passes ETag/304, HEAD and gzip through unchanged", async () => {
    const first = await send(at("/hanja/v1/hanja/%E6%B0%B4"));
    const etag = String(first.headers.etag);
    const [notModified, standalone304] = await both("/hanja/v1/hanja/%E6%B0%B4", { headers: { "If-None-Match": etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toHaveLength(0);
    expect(notModified.headers["content-type"]).toBeUndefined();
    expectSameHeaders(notModified, standalone304);
    const head = await send(at("/hanja/v1/hanja/%E6%B0%B4"), { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body).toHaveLength(0);
    expect(head.headers["content-type"]).toBe(first.headers["content-type"]);
    const [gzipped, standalone] = await both("/hanja/v1/hanja?per_page=50", { headers: { "Accept-Encoding": "gzip" } });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.text).toBe(standalone.text);
    expect(JSON.parse(gzipped.text).data).toHaveLength(50);
  });

  it("streams request bodies in: 201 from /subscribe, the key works, 415 and 413 as standalone", async () => {
    const json = { "Content-Type": "application/json" };
    const created = await send(at("/quiz/v1/subscribe"), {
      method: "POST",
      headers: json,
      body: JSON.stringify({ name: "Embed Test", email: "embed@example.com" }),
    });
    expect(created.status).toBe(201);
    const { api_key } = JSON.parse(created.text) as { api_key: string };
    const me = await send(at("/quiz/v1/me"), { headers: { "X-API-Key": api_key } });
    expect(me.status).toBe(200);
    expect(JSON.parse(me.text).key).toMatchObject({ plan: "free", status: "pending_deposit", daily_limit: 100 });
    const [wrongType, standaloneType] = await both("/quiz/v1/subscribe", { method: "POST", headers: { "Content-Type": "text/plain" }, body: "hello" });
    expect(wrongType.status).toBe(415);
    expect(standaloneType.status).toBe(415);
    const big = JSON.stringify({ name: "x", email: "big@example.com", pad: "x".repeat(20_000) });
    const [tooLarge, standaloneLarge] = await both("/quiz/v1/subscribe", { method: "POST", headers: json, body: big });
    expect(tooLarge.status).toBe(413);
    expect(standaloneLarge.status).toBe(413);
  });

  it("keeps the host's own routes its own", async () => {
    const home = await send(`${running.url}/`);
    expect(home.status).toBe(200);
    expect(home.text).toContain(`${prefix}/docs`);
    const hostHealth = await send(`${running.url}/healthz`);
    expect(JSON.parse(hostHealth.text)).toEqual({ host: "ok" });
    const serviceHealth = await send(at("/healthz"));
    expect(JSON.parse(serviceHealth.text)).toMatchObject({ status: "ok" });
    const docs = await send(at("/docs"));
    expect(docs.status).toBe(200);
    expect(docs.headers["content-type"]).toMatch(/^text\/html/);
  });
});

describe.each(EXAMPLES)("demo quota through $name", ({ example, prefix }) => {
  let running: honoExample.Running;
  let direct: App;
  const agents = [new Agent({ keepAlive: true, maxSockets: 1 }), new Agent({ keepAlive: true, maxSockets: 1 })] as const;

  beforeAll(async () => {
    running = await example.start(0);
    direct = createApp({ dist, mountPath: prefix, onError: () => {} });
  });
  afterAll(async () => {
    for (const agent of agents) agent.destroy();
    await running?.close();
    await direct?.close();
  });

  it("counts two clients on the same host against one demo quota: 30 calls, then 429 with Retry-After", async () => {
    const ports = new Set<number | undefined>();
    for (let i = 0; i < 30; i++) {
      const reply = await send(`${running.url}${prefix}/quiz/v1/idiom`, { agent: agents[i % 2] });
      const standalone = await callDirect(direct, "/quiz/v1/idiom");
      expect(reply.status, `call ${i + 1}`).toBe(200);
      expect(standalone.status).toBe(200);
      expect(reply.headers["x-ratelimit-remaining"]).toBe(String(29 - i));
      expect(reply.headers["ratelimit-policy"]).toBe('"daily";q=30;w=86400');
      expectSameHeaders(reply, standalone);
      ports.add(reply.localPort);
    }
    // Two connections, two clients; X-Forwarded-For is not trusted (trustProxyHops 0), so it changes nothing.
    expect(ports.size).toBe(2);
    const over = await send(`${running.url}${prefix}/quiz/v1/idiom`, { agent: agents[0], headers: { "X-Forwarded-For": "198.51.100.7" } });
    const standalone = await callDirect(direct, "/quiz/v1/idiom");
    expect(over.status).toBe(429);
    expect(standalone.status).toBe(429);
    expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(over.headers["retry-after"])).toBeLessThanOrEqual(86_400);
    expect(Math.abs(Number(over.headers["retry-after"]) - Number(standalone.headers.get("retry-after")))).toBeLessThanOrEqual(2);
    expectSameHeaders(over, standalone);
    const problem = problemOf(over.text, over.headers["x-request-id"]);
    expect(problem).toMatchObject({ status: 429, code: "quota_exceeded" });
    expect(problem).toEqual(problemOf(standalone.text, standalone.headers.get("x-request-id")));
    // Unmetered service routes and the host's own routes are untouched.
    expect((await send(`${running.url}${prefix}/hanja/v1/hanja/%E6%B0%B4`, { agent: agents[1] })).status).toBe(200);
    const host = await send(`${running.url}/healthz`, { agent: agents[1] });
    expect(host.status).toBe(200);
    expect(host.headers["ratelimit-policy"]).toBeUndefined();
  });

  it("counts the socket's peer address: a client on 127.0.0.2 has its own quota", async (ctx) => {
    if (!(await canUseSecondLoopback(running.port))) ctx.skip("this machine cannot connect from 127.0.0.2");
    const first = await send(`${running.url}${prefix}/quiz/v1/idiom`, { agent: agents[0] });
    expect(first.status).toBe(429);
    const other = await send(`${running.url}${prefix}/quiz/v1/idiom`, { localAddress: "127.0.0.2" });
    expect(other.status).toBe(200);
    expect(other.headers["x-ratelimit-remaining"]).toBe("29");
  });
});

describe("both hosts on one SQLite store (openQuotaStore from hanja-api/stores)", () => {
  let dir: string;
  const hosts: honoExample.Running[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "hanja-embed-"));
    const path = join(dir, "quota.sqlite");
    hosts.push(await honoExample.start(0, { store: await openQuotaStore({ kind: "sqlite", path }) }));
    hosts.push(await nodeExample.start(0, { store: await openQuotaStore({ kind: "sqlite", path }) }));
  });
  afterAll(async () => {
    await Promise.all(hosts.map((h) => h.close()));
    await rm(dir, { recursive: true, force: true });
  });

  it("shares one demo quota between the two embeddings", async () => {
    const urls = [`${hosts[0]?.url}/lexicon/quiz/v1/idiom`, `${hosts[1]?.url}/api/quiz/v1/idiom`];
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await send(urls[i % 2] as string)).status);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
    expect((await send(urls[1] as string)).status).toBe(429);
  });
});
