/**
 * The service as a node:http request listener (`hanja-api/node`'s `nodeListener`, the Node
 * server's own path): replies written directly, request targets in origin or absolute form,
 * repeated header fields joined, request bodies streamed, failures outside the core answered 500,
 * and requests node:http cannot parse answered with problem details (`clientErrorListener`).
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { App } from "../../runtime/core/app.ts";
import type { AccessLogEntry } from "../../runtime/core/appOptions.ts";
import { nodeCompressors } from "../../runtime/entry/compressors.ts";
import { clientErrorListener, nodeListener } from "../../runtime/entry/nodeListener.ts";
import { testApp } from "../helpers/app.ts";
import { rawExchange } from "../helpers/server.ts";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

async function listen(app: App): Promise<{ url: string; port: number }> {
  const server = createServer(nodeListener(app)).on("clientError", clientErrorListener(app));
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, port };
}

/** The JSON body of a raw answer. */
function problemOf(answer: string): Record<string, unknown> & { detail: string; request_id: string } {
  return JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
}

describe("nodeListener", () => {
  it("answers a GET with the core's reply: status, headers, body and its length", async () => {
    const { url } = await listen(testApp());
    const response = await fetch(`${url}/hanja/v1/hanja/${encodeURIComponent("水")}`, { headers: { "accept-encoding": "identity" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("transfer-encoding")).toBeNull();
    const body = new Uint8Array(await response.arrayBuffer());
    expect(response.headers.get("content-length")).toBe(String(body.length));
    expect(JSON.parse(new TextDecoder().decode(body)).codepoint).toBe("U+6C34");
  });

  it("sends a quiz with the length its fragments add up to, equal to the bytes sent, for every type and size", async () => {
    const { port } = await listen(testApp());
    const types = ["meaning_to_idiom", "idiom_to_meaning", "hangul_to_hanja"];
    for (const [i, query] of [...types.map((t) => `type=${t}&choices=6`), ...types.map((t) => `type=${t}&choices=2&count=20`), "count=7", ""].entries()) {
      const answer = await rawExchange(port, `GET /quiz/v1/quiz?${query} HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.9.0.${i}\r\nConnection: close\r\n\r\n`);
      expect(answer.startsWith("HTTP/1.1 200"), query).toBe(true);
      const body = answer.slice(answer.indexOf("\r\n\r\n") + 4);
      expect(Number(/content-length: (\d+)/i.exec(answer)?.[1]), query).toBe(Buffer.byteLength(body));
      expect(JSON.parse(body).success).toBe(true);
    }
  });

  it("answers HEAD with the GET's Content-Length and no body", async () => {
    const { port } = await listen(testApp());
    const target = `/hanja/v1/hanja/${encodeURIComponent("樂")}`;
    const get = await rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    const head = await rawExchange(port, `HEAD ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1]);
    expect(Number(/content-length: (\d+)/i.exec(get)?.[1])).toBe(length);
    const getBody = get.slice(get.indexOf("\r\n\r\n") + 4);
    expect(Buffer.byteLength(getBody)).toBe(length);
    expect(head.startsWith("HTTP/1.1 200 OK")).toBe(true);
    expect(head.endsWith("\r\n\r\n")).toBe(true);
  });

  it("takes an absolute-form target, and answers 400 to a target that is neither form", async () => {
    const { port } = await listen(testApp());
    const absolute = await rawExchange(port, "GET http://example.org/hanja/v1/meta HTTP/1.1\r\nHost: example.org\r\nConnection: close\r\n\r\n");
    expect(absolute.startsWith("HTTP/1.1 200 OK")).toBe(true);
    expect(absolute).toContain('"counts"');
    const asterisk = await rawExchange(port, "OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(asterisk.startsWith("HTTP/1.1 400 Bad Request")).toBe(true);
    expect(asterisk).toMatch(/content-type: application\/problem\+json; charset=utf-8/i);
    expect(problemOf(asterisk)).toMatchObject({ status: 400, code: "invalid_parameter", detail: expect.stringContaining("request target") });
  });

  it("answers a method a Web Request cannot carry (TRACE) like any other unserved method, and keeps serving", async () => {
    const { port, url } = await listen(testApp());
    for (const method of ["TRACE", "PROPFIND"]) {
      const known = await rawExchange(port, `${method} /quiz/v1/quiz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(known.startsWith("HTTP/1.1 405 Method Not Allowed"), method).toBe(true);
      expect(known).toMatch(/\r\nallow: GET, HEAD, OPTIONS\r\n/i);
      expect(problemOf(known)).toMatchObject({ status: 405, code: "method_not_allowed" });
      const unknown = await rawExchange(port, `${method} /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(problemOf(unknown)).toMatchObject({ status: 404, code: "not_found" });
    }
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it("answers a request node:http cannot parse with problem details, logs it without the target, and keeps serving", async () => {
    const log: AccessLogEntry[] = [];
    const { port, url } = await listen(testApp({ log: (entry) => log.push(entry) }));
    // Raw UTF-8 in the query, as curl sends `?q=수&api_key=…`: node:http's parser refuses it.
    const utf8 = await rawExchange(port, Buffer.from("GET /hanja/v1/hanja?q=수&api_key=hj_secret HTTP/1.1\r\nHost: x\r\n\r\n", "utf8"));
    expect(utf8.startsWith("HTTP/1.1 400 Bad Request\r\n")).toBe(true);
    expect(utf8).toMatch(/\r\ncontent-type: application\/problem\+json; charset=utf-8\r\n/i);
    expect(utf8).toMatch(/\r\nconnection: close\r\n/i);
    const problem = problemOf(utf8);
    expect(problem).toMatchObject({ status: 400, code: "invalid_parameter", success: false, type: "/docs#error-invalid_parameter" });
    expect(problem.detail).toContain("Percent-encode");
    expect(Number(/content-length: (\d+)/i.exec(utf8)?.[1])).toBe(Buffer.byteLength(utf8.slice(utf8.indexOf("\r\n\r\n") + 4)));
    // A header section over node:http's limit.
    const huge = await rawExchange(port, `GET /hanja/v1/meta HTTP/1.1\r\nHost: x\r\nX-Filler: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(huge.startsWith("HTTP/1.1 431 Request Header Fields Too Large\r\n")).toBe(true);
    expect(problemOf(huge)).toMatchObject({ status: 431, code: "payload_too_large" });
    expect(log.map(({ method, path, status, problem }) => ({ method, path, status, problem }))).toEqual([
      { method: "-", path: "-", status: 400, problem: "invalid_parameter" },
      { method: "-", path: "-", status: 431, problem: "payload_too_large" },
    ]);
    expect(log.map((entry) => entry.request_id)).toEqual([problem.request_id, problemOf(huge).request_id]);
    expect((await fetch(`${url}/hanja/v1/meta`)).status).toBe(200);
  });

  it("says what the parser refused when it is not the target: no advice to percent-encode a request without non-ASCII", async () => {
    const { port } = await listen(testApp());
    for (const [request, reason] of [
      ["FOO /hanja/v1/meta HTTP/1.1\r\nHost: x\r\n\r\n", "Invalid method encountered"],
      ["GET /hanja/v1/meta HTTP/1.2\r\nHost: x\r\n\r\n", "Invalid HTTP version"],
      [
        "POST /quiz/v1/subscribe HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
        "Transfer-Encoding can't be present with Content-Length",
      ],
      ["GET /hanja/v1/meta HTTP/1.1\r\nHost x\r\n\r\n", "Invalid header token"],
    ] as const) {
      const answer = await rawExchange(port, request);
      expect(answer.startsWith("HTTP/1.1 400 Bad Request\r\n"), request).toBe(true);
      const problem = problemOf(answer);
      expect(problem.detail, request).toBe(`The server could not parse the request (${reason}).`);
    }
    // A space or a control in the target is the target's fault: the advice names them.
    expect(problemOf(await rawExchange(port, "GET /hanja/v1/hanja?q=a\u0001b HTTP/1.1\r\nHost: x\r\n\r\n")).detail).toContain(
      "Percent-encode characters outside ASCII, spaces and controls",
    );
  });

  it("joins a repeated header field as Headers.get does (Accept-Encoding on two lines)", async () => {
    const { port } = await listen(testApp({ compressors: nodeCompressors }));
    const answer = await rawExchange(
      port,
      `GET /hanja/v1/hanja?q=water HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/content-encoding: gzip/i);
  });

  it("streams a POST body into the core (a subscription is accepted) and answers CORS preflights", async () => {
    const { url } = await listen(testApp());
    const response = await fetch(`${url}/quiz/v1/subscribe`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Test Applicant", email: "applicant@example.org", plan: "annual" }),
    });
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(body.api_key).toMatch(/^hj_/);
    const preflight = await fetch(`${url}/hanja/v1/meta`, { method: "OPTIONS" });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
  });

  it("answers 500 when something outside the core fails (here the access log) and keeps serving", async () => {
    let calls = 0;
    const quiet = console.error;
    console.error = () => {};
    try {
      const app = testApp({
        log: () => {
          if (++calls === 1) throw new Error("log sink is down");
        },
      });
      const { url } = await listen(app);
      const failed = await fetch(`${url}/hanja/v1/meta`);
      expect(failed.status).toBe(500);
      expect(await failed.text()).toBe("Internal error\n");
      const next = await fetch(`${url}/hanja/v1/meta`);
      expect(next.status).toBe(200);
    } finally {
      console.error = quiet;
    }
  });

  it("answers 500 when a reply cannot be written, whether it came at once or later, and keeps serving", async () => {
    const quiet = console.error;
    console.error = () => {};
    try {
      // A header value with a line break: node:http refuses to write it.
      const bad = { status: 200, headers: { "X-Broken": "a\nb" }, body: "never sent", shared: false };
      const good = { status: 200, headers: { "Content-Type": "text/plain" }, body: "ok", shared: false };
      const app = {
        handle: (request: { url: string }) => {
          const path = new URL(request.url).pathname;
          return path === "/now" ? bad : path === "/later" ? Promise.resolve(bad) : good;
        },
      } as unknown as App;
      const { url } = await listen(app);
      for (const path of ["/now", "/later"]) {
        // A reply lost without an answer would leave the request hanging: give up after 5 s.
        const failed = await fetch(url + path, { signal: AbortSignal.timeout(5000) });
        expect(failed.status, path).toBe(500);
        expect(await failed.text()).toBe("Internal error\n");
      }
      const next = await fetch(`${url}/fine`);
      expect(next.status).toBe(200);
      expect(await next.text()).toBe("ok");
    } finally {
      console.error = quiet;
    }
  });

  it("writes the replies ready at once after the turn's reads, together and in the order they came; a reply that cannot be written fails alone", async () => {
    const written: string[] = [];
    /** A response that records what is written on it. */
    const responseFor = (name: string) =>
      ({
        headersSent: false,
        writeHead(status: number) {
          if (name === "bad" && status === 200) throw new Error("a header value node:http refuses");
          written.push(`${name} ${status}`);
          return this;
        },
        end(body?: string) {
          written.push(`${name} ${body ?? ""}`);
          return this;
        },
      }) as unknown as ServerResponse;
    const app = {
      handle: (request: { url: string }) => ({ status: 200, headers: {}, body: new URL(request.url).pathname.slice(1), shared: false }),
    } as unknown as App;
    const listener = nodeListener(app);
    const requestFor = (path: string) => ({ url: path, method: "GET", headers: {}, socket: {} }) as unknown as IncomingMessage;
    const quiet = console.error;
    console.error = () => {};
    try {
      for (const name of ["first", "bad", "second"]) listener(requestFor(`/${name}`), responseFor(name));
      // Nothing yet: node:http may still have requests of this turn to read.
      expect(written).toEqual([]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(written).toEqual(["first 200", "first first", "bad 500", "bad Internal error\n", "second 200", "second second"]);
    } finally {
      console.error = quiet;
    }
  });

  it("gzips a per-request body (a quiz of 20) with node:zlib and it decompresses to JSON", async () => {
    const { url } = await listen(testApp({ compressors: nodeCompressors }));
    const response = await fetch(`${url}/quiz/v1/quiz?count=20`, { headers: { "accept-encoding": "gzip" } });
    expect(response.headers.get("content-encoding")).toBe("gzip");
    // fetch decodes gzip itself; the body is the JSON.
    const body = await response.json();
    expect(body.quizzes).toHaveLength(20);
  });

  it("writes a shared reply's text body as bytes encoded once, the same for every answer, with their length", async () => {
    const body = "水".repeat(1000);
    const reply = { status: 200, headers: { "Content-Type": "text/plain; charset=utf-8" }, body, shared: true };
    const app = { handle: () => reply } as unknown as App;
    const listener = nodeListener(app);
    const written: { headers: Record<string, string>; body: unknown }[] = [];
    const responseFor = () => {
      const entry: { headers: Record<string, string>; body: unknown } = { headers: {}, body: undefined };
      written.push(entry);
      return {
        headersSent: false,
        writeHead(_status: number, headers: Record<string, string>) {
          entry.headers = headers;
          return this;
        },
        end(chunk: unknown) {
          entry.body = chunk;
          return this;
        },
      } as unknown as ServerResponse;
    };
    for (let i = 0; i < 2; i++) listener({ url: "/", method: "GET", headers: {}, socket: {} } as unknown as IncomingMessage, responseFor());
    await new Promise((resolve) => setImmediate(resolve));
    const [first, second] = written;
    expect(Buffer.isBuffer(first?.body)).toBe(true);
    expect(second?.body).toBe(first?.body);
    expect(String(first?.body)).toBe(body);
    expect(first?.headers["Content-Length"]).toBe(String(Buffer.byteLength(body)));
    // The shared reply's own headers are left as they were.
    expect(reply.headers).toEqual({ "Content-Type": "text/plain; charset=utf-8" });
  });
});
