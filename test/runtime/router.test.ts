/**
 * The router reads itty-router's compiled table: the same route and the same params as
 * itty-router's `fetch` for any path, and the URL's path as the URL parser normalizes it.
 */
import fc from "fast-check";
import { IttyRouter, type IRequest } from "itty-router";
import { describe, expect, it } from "vitest";
import type { Reply, RequestLike } from "../../runtime/core/http/reply.ts";
import { pathOf } from "../../runtime/core/http/target.ts";
import type { PathSpec } from "../../runtime/core/http/params.ts";
import type { Operation } from "../../runtime/core/operations/operation.ts";
import { Router, normalized } from "../../runtime/core/operations/router.ts";
import type { RequestContext } from "../../runtime/core/routes/context.ts";
import { testApp } from "../helpers/app.ts";
import { CHARACTERS } from "../helpers/pin.ts";

/** Any segment, as a declared path parameter (the router parses what an operation declares). */
const ANY: PathSpec = { kind: "pattern", in: "path", pattern: /^/, shape: "anything", component: "Any", description: "" };

/** Path characters that matter to routing and to URL parsing: separators, dots, escapes, what the parser encodes. */
const PATH_CHARS = ["/", "/", ".", ".", "%", "2", "e", "E", "\\", '"', "<", ">", "`", "{", "}", " ", "\t", "a", "x", "1", "水", "é", ":", "~"];
const rawPath = fc.array(fc.constantFrom(...PATH_CHARS), { maxLength: 24 }).map((chars) => `/${chars.join("")}`);

describe("normalized", () => {
  const at = (url: string): RequestLike => ({ method: "GET", url, headers: new Headers() });

  it("gives the request the URL new URL() reads, for any raw request target", () => {
    fc.assert(
      fc.property(rawPath, fc.constantFrom("", "?a=1", "?q=/../x", "#f"), (path, rest) => {
        const url = `http://localhost${path}${rest}`;
        expect(pathOf(normalized(at(url)).url)).toBe(new URL(url).pathname);
      }),
      { numRuns: 5000 },
    );
    expect(normalized(at("http://localhost/quiz/v1/./quiz")).url).toBe("http://localhost/quiz/v1/quiz");
    expect(normalized(at("http://localhost/quiz/v1/x/%2E%2e/quiz?x=1")).url).toBe("http://localhost/quiz/v1/quiz?x=1");
    expect(normalized(at("http://localhost/hanja/v1\\meta")).url).toBe("http://localhost/hanja/v1/meta");
  });

  it("keeps the request itself when there is nothing to normalize, and reads method, headers and body through", () => {
    const plain = at("http://127.0.0.1:8080/hanja/v1/hanja/%E6%B0%B4?q=1");
    expect(normalized(plain)).toBe(plain);
    const post = new Request("http://localhost/quiz/v1/subscribe", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    const view = normalized({ method: post.method, url: "http://localhost/quiz/v1/x/../subscribe", headers: post.headers, body: post.body });
    expect(view.url).toBe("http://localhost/quiz/v1/subscribe");
    expect(view.method).toBe("POST");
    expect(view.headers.get("content-type")).toBe("application/json");
    expect(view.body).toBe(post.body);
  });
});

describe("the router", () => {
  // `/f/:name.:ext`: itty-router's rule for a parameter after a dot (the extension is what follows the last dot).
  const PATTERNS = [
    "/quiz/v1/quiz",
    "/quiz/v1/idiom",
    "/quiz/v1/idiom/:idx",
    "/hanja/v1/hanja/:character",
    "/hanja/v1/meta",
    "/a/:x/b/:y",
    "/f/:name.:ext",
    "/docs",
  ];
  /** Ours: the same paths declared as operations (`{name}`), each answering with its pattern and its parsed params. */
  const ours = () =>
    new Router(
      PATTERNS.flatMap((pattern) =>
        (["GET", "POST"] as const).map((method) => {
          const handler = (_request: RequestLike, _ctx: unknown, params: Readonly<Record<string, unknown>>) =>
            ({ status: 200, headers: { route: pattern, params: JSON.stringify(params) }, body: null, shared: false }) as Reply;
          const parameters = Object.fromEntries([...pattern.matchAll(/:(\w+)/g)].map(([, name]) => [name, ANY]));
          const operation: Operation = { method, path: pattern.replace(/:(\w+)/g, "{$1}"), parameters, metering: "public", handler };
          return { path: operation.path, operation };
        }),
      ),
    );
  /** What our router picks for a request, as itty's handlers answer: the route and the raw params. */
  const picked = (router: Router, request: RequestLike) => {
    const found = router.match(request.method, pathOf(request.url));
    return found && { route: found.operation.path.replace(/\{(\w+)\}/g, ":$1"), params: JSON.stringify(found.params) };
  };
  const build = () => {
    const router = IttyRouter<IRequest, [unknown]>();
    for (const path of PATTERNS) {
      const handler = (request: IRequest) =>
        ({ status: 200, headers: { route: path, params: JSON.stringify(request.params) }, body: null, shared: false }) as Reply;
      router.get(path, handler);
      router.post(path, handler);
    }
    return router;
  };
  const target = fc.oneof(
    rawPath,
    fc
      .tuple(fc.constantFrom(...PATTERNS), rawPath, fc.constantFrom("", "/", "//", "?q=1"))
      .map(([pattern, seg, end]) => pattern.replace(/:\w+/g, () => seg.slice(1) || "x") + end),
  );

  it("answers with the route and params itty-router's fetch picks, or none where it picks none", async () => {
    const router = build();
    const own = ours();
    const ctx = { requestId: "t", clientAddress: undefined };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("GET", "POST", "PUT"), target, async (method, path) => {
        const url = `http://localhost${path}`;
        const answer = picked(own, normalized({ method, url, headers: new Headers() }));
        const theirs = (await router.fetch({ method, url, headers: new Headers() } as unknown as IRequest, ctx)) as Reply | undefined;
        expect(answer).toEqual(theirs?.headers);
      }),
      { numRuns: 3000 },
    );
  });

  it("takes a parameter after a dot as itty-router does: up to the last dot", () => {
    expect(ours().match("GET", "/f/a.b.c")?.params).toEqual({ name: "a.b", ext: "c" });
  });

  it("returns a reply that is ready at once without a promise", () => {
    const reply = ours().dispatch(
      { method: "GET", url: "http://localhost/quiz/v1/idiom/7", headers: new Headers() },
      { requestId: "t", clientAddress: undefined },
    );
    expect(reply).not.toBeInstanceOf(Promise);
    expect((reply as Reply).headers).toEqual({ route: "/quiz/v1/idiom/:idx", params: '{"idx":"7"}' });
  });
});

describe("Router.match and Router.allowed", () => {
  const answer = () => ({ status: 200, headers: {}, body: null, shared: false }) as Reply;
  const detail: Operation = { method: "GET", path: "/hanja/{character}", parameters: { character: ANY }, metering: "public", handler: answer };
  const list: Operation = { method: "GET", path: "/hanja", metering: "public", handler: answer };
  const subscribe: Operation = { method: "POST", path: "/subscribe", metering: "public", handler: answer };
  const router = new Router([
    { path: "/v1/hanja/{character}", operation: detail },
    { path: "/v1/hanja", operation: list },
    { path: "/v1/subscribe", operation: subscribe },
  ]);

  it("finds the operation and its raw path parameters by name; a GET answers HEAD", () => {
    expect(router.match("GET", "/v1/hanja/%E6%B0%B4")).toEqual({ operation: detail, params: { character: "%E6%B0%B4" }, path: "/v1/hanja/{character}" });
    expect(router.match("HEAD", "/v1/hanja/%E6%B0%B4")?.operation).toBe(detail);
    expect(router.match("GET", "/v1/hanja/")?.operation).toBe(list);
    expect(router.match("POST", "/v1/subscribe")).toEqual({ operation: subscribe, params: {}, path: "/v1/subscribe" });
  });

  it("notes the operation's full path template in the context when it dispatches (what the metrics count by)", () => {
    const ctx: RequestContext = { requestId: "t", clientAddress: undefined };
    router.dispatch({ method: "GET", url: "http://localhost/v1/hanja/%E6%B0%B4", headers: new Headers() }, ctx);
    expect(ctx.route).toBe("/v1/hanja/{character}");
  });

  it("a hidden operation answers its method but is not told: no method is listed for its path", () => {
    const hidden: Operation = { method: "GET", path: "/metrics", metering: "service", hidden: true, handler: answer };
    const withHidden = new Router([
      { path: "/metrics", operation: hidden },
      { path: "/v1/subscribe", operation: subscribe },
    ]);
    expect(withHidden.match("GET", "/metrics")?.operation).toBe(hidden);
    expect(withHidden.allowed("/metrics")).toEqual([]);
    expect(withHidden.allowed("/v1/subscribe")).toEqual(["POST"]);
  });

  it("finds nothing for another method or an unknown path, and lists the methods a path has", () => {
    expect(router.match("POST", "/v1/hanja")).toBeUndefined();
    expect(router.match("GET", "/v1/subscribe")).toBeUndefined();
    expect(router.match("GET", "/v1/hanja/a/b")).toBeUndefined();
    expect(router.allowed("/v1/hanja/x")).toEqual(["GET", "HEAD"]);
    expect(router.allowed("/v1/subscribe")).toEqual(["POST"]);
    expect(router.allowed("/v2")).toEqual([]);
  });
});

describe("a request URL the parser cannot read", () => {
  it("is a 500 problem reply, as any failure in routing, not an exception out of handle", async () => {
    const errors: unknown[] = [];
    const app = testApp({ onError: (error) => void errors.push(error) });
    const reply = await app.handle({ method: "GET", url: "/hanja/v1/x/../meta", headers: new Headers() });
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body as string).code).toBe("internal_error");
    expect(errors).toHaveLength(1);
  });
});

describe("the app routes an unnormalized target as its normalized path", () => {
  /** A request as node:http hands it over: the target exactly as the client sent it. */
  const raw = (target: string): RequestLike => ({ method: "GET", url: `http://localhost${target}`, headers: new Headers() });

  it("resolves dot segments and backslashes before routing, as Bun and Deno do when they build the URL", async () => {
    const app = testApp();
    for (const target of ["/hanja/v1/x/../meta", "/hanja/v1/./meta", "/hanja/v1/%2e/meta", "/hanja/v1\\meta"]) {
      const reply = await app.handle(raw(target));
      expect(reply.status, target).toBe(200);
      expect(JSON.parse(reply.body as string).counts.characters, target).toBe(CHARACTERS);
    }
    const quiz = await app.handle(raw("/quiz/v1/x/../quiz?count=2"), { clientAddress: "192.0.2.9" });
    expect(quiz.status).toBe(200);
    expect(JSON.parse(quiz.body as string).quizzes).toHaveLength(2);
    expect((await app.handle(raw("/hanja/v1/../meta"))).status).toBe(404);
  });

  it("answers a target with dot segments exactly as its normalized path (as Bun, which normalizes, does)", async () => {
    const app = testApp();
    const answer = async (target: string) => {
      const reply = await app.handle(raw(target), { clientAddress: "192.0.2.10" });
      const body = reply.body === null ? null : JSON.parse(typeof reply.body === "string" ? reply.body : new TextDecoder().decode(reply.body));
      return { status: reply.status, code: body?.code, param: body?.param, allow: reply.headers.Allow };
    };
    for (const target of [
      "/hanja/v1/hanja/..",
      "/hanja/v1/hanja/.",
      "/hanja/v1/hanja/%2e",
      "/hanja/v1/hanja/%E6%B0%B4/..",
      "/quiz/v1/idiom/.",
      "/quiz/v1/idiom/..",
      "/hanja/v1/meta/..",
    ]) {
      const normalizedTarget = new URL(`http://localhost${target}`).pathname;
      expect(await answer(target), `${target} → ${normalizedTarget}`).toEqual(await answer(normalizedTarget));
    }
    // Not a 405 that names the very method it refuses.
    expect(await answer("/hanja/v1/hanja/..")).toMatchObject({ status: 404, code: "not_found" });
    // `/hanja/v1/hanja/`: the list, a trailing slash being ignored.
    expect(await answer("/hanja/v1/hanja/.")).toMatchObject({ status: 200, code: undefined });
  });
});
