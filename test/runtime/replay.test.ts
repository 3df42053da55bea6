/**
 * Remembered answers and shared replies: a GET or HEAD of a target already answered with a
 * cacheable body is answered again without routing (synchronously), negotiated for the new
 * request (encoding, 304, HEAD); errors and interface B are never remembered.
 */
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Reply } from "../../runtime/core/http/reply.ts";
import { Router } from "../../runtime/core/operations/router.ts";
import { nodeCompressors } from "../../runtime/entry/compressors.ts";
import { respond, responseFor } from "../../runtime/entry/responses.ts";
import { testApp } from "../helpers/app.ts";

const DETAIL = `http://localhost/hanja/v1/hanja/${encodeURIComponent("水")}`;
const SEARCH = `http://localhost/hanja/v1/hanja?q=${encodeURIComponent("수")}&per_page=5`;

const isPromise = (value: unknown): value is Promise<unknown> => typeof (value as { then?: unknown }).then === "function";
const get = (url: string, headers: Record<string, string> = {}, method = "GET") => new Request(url, { method, headers });
const text = (reply: Reply) => (typeof reply.body === "string" ? reply.body : new TextDecoder().decode(reply.body ?? new Uint8Array()));

/** Watches the router: how many requests it has dispatched to an operation since the watch began. */
const watchRouting = () => vi.spyOn(Router.prototype, "dispatch");

describe("remembered answers", () => {
  afterEach(() => vi.restoreAllMocks());

  it("answers a target seen before synchronously, with the same shared reply, without routing", async () => {
    const app = testApp();
    const routing = watchRouting();
    const first = get(DETAIL);
    const routed = await app.handle(first);
    expect(routing).toHaveBeenCalledTimes(1);
    const second = get(DETAIL);
    const again = app.handle(second);
    expect(routing).toHaveBeenCalledTimes(1);
    expect(isPromise(again)).toBe(false);
    expect(again).toBe(routed);
    expect((again as Reply).shared).toBe(true);
    expect(JSON.parse(text(again as Reply)).character).toBe("水");
  });

  it("answers again a target of any length seen before: the longest remembered is looked up, a longer one is routed", async () => {
    const app = testApp();
    const routing = watchRouting();
    // Unknown parameters are ignored: the detail answers, remembered under the long target.
    const long = `${DETAIL}?pad=${"x".repeat(3000)}`;
    const routed = await app.handle(get(long));
    expect(app.handle(get(long))).toBe(routed);
    expect(routing).toHaveBeenCalledTimes(1);
    const longer = `${long}x`;
    expect(JSON.parse(text(await app.handle(get(longer)))).character).toBe("水");
    expect(routing).toHaveBeenCalledTimes(2);
    expect(app.handle(get(longer))).toBe(routed);
    expect(routing).toHaveBeenCalledTimes(2);
  });

  it("negotiates a remembered answer for each request: 304, HEAD and gzip each get their own headers", async () => {
    const app = testApp({ compressors: nodeCompressors });
    const plain = (await app.handle(get(SEARCH))) as Reply;
    const etag = plain.headers.ETag ?? "";
    expect(etag).toMatch(/^"[0-9a-f]{32}-r\d+"$/);

    const notModified = app.handle(get(SEARCH, { "if-none-match": etag })) as Reply;
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBeNull();
    expect(notModified.headers.ETag).toBe(etag);
    expect(notModified.headers["Content-Type"]).toBeUndefined();

    const head = app.handle(get(SEARCH, {}, "HEAD")) as Reply;
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    expect(head.headers["Content-Length"]).toBe(String(new TextEncoder().encode(text(plain)).length));

    const gz = await app.handle(get(SEARCH, { "accept-encoding": "gzip" }));
    expect(gz.headers["Content-Encoding"]).toBe("gzip");
    expect(gz.headers.ETag).toBe(etag.replace(/"$/, '-gz"'));
    expect(gunzipSync(gz.body as Uint8Array).toString("utf8")).toBe(text(plain));
    // The plain form is still what a client without Accept-Encoding gets.
    expect(text(app.handle(get(SEARCH)) as Reply)).toBe(text(plain));
  });

  it("keeps different targets apart, query included", async () => {
    const app = testApp();
    const a = (await app.handle(get(SEARCH))) as Reply;
    const b = (await app.handle(get(SEARCH.replace("per_page=5", "per_page=6")))) as Reply;
    expect(JSON.parse(text(a)).data).toHaveLength(5);
    expect(JSON.parse(text(b)).data).toHaveLength(6);
    expect(JSON.parse(text(app.handle(get(SEARCH)) as Reply)).data).toHaveLength(5);
  });

  it("never remembers an error: a bad request is routed, and answered 400, every time", async () => {
    const app = testApp();
    const ids = new Set<string>();
    const routing = watchRouting();
    for (let i = 0; i < 2; i++) {
      const request = get("http://localhost/hanja/v1/hanja?per_page=0");
      const answered = await app.handle(request);
      expect(routing).toHaveBeenCalledTimes(i + 1);
      expect(answered.status).toBe(400);
      expect(answered.shared).toBe(false);
      const problem = JSON.parse(text(answered));
      expect(problem.param).toBe("per_page");
      ids.add(problem.request_id);
    }
    // Each answer was made for its own request: a remembered one would repeat the first id.
    expect(ids.size).toBe(2);
  });

  it("never remembers interface B: two quizzes are two metered, routed answers", async () => {
    const app = testApp();
    const url = "http://localhost/quiz/v1/quiz?count=3";
    const routing = watchRouting();
    const first = await app.handle(get(url), { clientAddress: "192.0.2.7" });
    const request = get(url);
    const second = await app.handle(request, { clientAddress: "192.0.2.7" });
    expect(routing).toHaveBeenCalledTimes(2);
    const a = JSON.parse(text(first));
    const b = JSON.parse(text(second));
    expect(a.quota.remaining - b.quota.remaining).toBe(1);
    expect(a.quizzes).not.toEqual(b.quizzes);
    expect(first.shared).toBe(false);
    expect(second.shared).toBe(false);
  });

  it("writes an access-log record for a remembered answer too", async () => {
    const entries: { path: string; status: number }[] = [];
    const app = testApp({ log: (entry) => void entries.push(entry) });
    await app.handle(get(DETAIL));
    app.handle(get(DETAIL));
    expect(entries.map((e) => [e.path, e.status])).toEqual([
      ["/hanja/v1/hanja/%E6%B0%B4", 200],
      ["/hanja/v1/hanja/%E6%B0%B4", 200],
    ]);
  });
});

describe("Responses for servers that need one (Bun, Deno)", () => {
  it("gives a fresh clone of one ready Response for a shared reply, each with the whole body", async () => {
    const app = testApp();
    const reply = await app.handle(get(DETAIL));
    const a = responseFor(reply);
    const b = responseFor(reply);
    expect(a).not.toBe(b);
    expect(await a.text()).toBe(text(reply));
    expect(await b.text()).toBe(text(reply));
    expect(b.headers.get("etag")).toBe(reply.headers.ETag);
    expect(b.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("builds an unshared reply afresh, and waits for a reply still coming", async () => {
    const reply: Reply = { status: 201, headers: { "Content-Type": "application/json" }, body: '{"a":1}', shared: false };
    const response = await respond(Promise.resolve(reply));
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ a: 1 });
    expect(respond(reply)).toBeInstanceOf(Response);
  });
});

describe("the peer address", () => {
  it("is looked up only by routes that meter by it: never for interface A, once for a demo quiz", async () => {
    const app = testApp();
    let reads = 0;
    const info = {
      get clientAddress() {
        reads++;
        return "198.51.100.23";
      },
    };
    await app.handle(get(DETAIL), info);
    await app.handle(get(DETAIL), info);
    await app.handle(get(SEARCH), info);
    expect(reads).toBe(0);
    const quiz = await app.handle(get("http://localhost/quiz/v1/quiz"), info);
    expect(quiz.status).toBe(200);
    expect(reads).toBe(1);
    const me = JSON.parse(text(await app.handle(get("http://localhost/quiz/v1/me"), { clientAddress: "198.51.100.23" })));
    expect(me.key.used_today).toBe(1);
  });
});
