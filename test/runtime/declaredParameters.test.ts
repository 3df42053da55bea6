/**
 * The router parses what an operation declares, before its handler runs, and hands the handler
 * those values only: a handler cannot read a parameter its declaration does not document.
 */
import { describe, expect, it } from "vitest";
import { ApiError } from "../../runtime/core/http/errors.ts";
import type { IntSpec, PathSpec } from "../../runtime/core/http/params.ts";
import type { Reply, RequestLike } from "../../runtime/core/http/reply.ts";
import { type Operation, defineOperation } from "../../runtime/core/operations/operation.ts";
import { Router } from "../../runtime/core/operations/router.ts";
import { getJson, testApp } from "../helpers/app.ts";

const PAGE: IntSpec = { kind: "int", min: 1, max: 9, default: 1, component: "Page", description: "" };
const ID: PathSpec = { kind: "positiveId", in: "path", component: "Id", description: "" };
const ctx = () => ({ requestId: "t", clientAddress: undefined });
const get = (url: string): RequestLike => ({ method: "GET", url: `http://localhost${url}`, headers: new Headers() });

/** A router of one operation whose handler records the values it got. */
function recording(operation: Omit<Operation, "handler" | "metering">) {
  const seen: unknown[] = [];
  const handler = (_request: RequestLike, _ctx: unknown, params: unknown) => {
    seen.push(params);
    return { status: 200, headers: {}, body: null, shared: false } as Reply;
  };
  return { router: new Router([{ path: operation.path, operation: { ...operation, metering: "public", handler } as Operation }]), seen };
}

/** The 400's parameter of a call that must fail, or the reply's status when it did not. */
function refusedParam(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect((error as ApiError).status).toBe(400);
    return (error as ApiError).param;
  }
  throw new Error("no 400");
}

describe("parameters parsed from the declaration", () => {
  it("hands the handler the declared query values, typed, and no other parameter of the query", () => {
    const { router, seen } = recording({ method: "GET", path: "/list", parameters: { page: PAGE } });
    router.dispatch(get("/list?page=3&undeclared=1&api_key=x"), ctx());
    router.dispatch(get("/list"), ctx());
    expect(seen).toEqual([{ page: 3 }, { page: 1 }]);
  });

  it("hands the handler the decoded path segment, an id with its number, and nothing when nothing is declared", () => {
    const ids = recording({ method: "GET", path: "/item/{id}", parameters: { id: ID } });
    ids.router.dispatch(get("/item/007?page=2"), ctx());
    expect(ids.seen).toEqual([{ id: { raw: "007", value: 7 } }]);
    const bare = recording({ method: "GET", path: "/meta" });
    bare.router.dispatch(get("/meta?page=2"), ctx());
    expect(bare.seen).toEqual([{}]);
  });

  it("refuses a bad value with a 400 naming it before the handler runs", () => {
    const { router, seen } = recording({ method: "GET", path: "/item/{id}", parameters: { id: ID } });
    expect(refusedParam(() => router.dispatch(get("/item/0"), ctx()))).toBe("id");
    const list = recording({ method: "GET", path: "/list", parameters: { page: PAGE } });
    expect(refusedParam(() => list.router.dispatch(get("/list?page=10"), ctx()))).toBe("page");
    expect(refusedParam(() => list.router.dispatch(get("/list?page=1&page=2"), ctx()))).toBe("page");
    expect([...seen, ...list.seen]).toEqual([]);
  });

  it("will not mount a path whose {parameters} and declared path specs differ", () => {
    const answer = () => ({ status: 200, headers: {}, body: null, shared: false }) as Reply;
    const undeclared = defineOperation({ method: "GET", path: "/item/{id}", metering: "public", handler: answer });
    expect(() => new Router([{ path: "/item/{id}", operation: undeclared }])).toThrow(/\{id\}.*\(\)/);
    const stray = { method: "GET", path: "/item", parameters: { id: ID }, metering: "public", handler: answer } as Operation;
    expect(() => new Router([{ path: "/item", operation: stray }])).toThrow(/\{\}.*\(id\)/);
  });
});

describe("the app's operations", () => {
  const app = testApp();

  it("name the bad query parameter of a list also after a trailing slash, which is the list (interface A and B)", async () => {
    expect((await getJson(app, "/hanja/v1/hanja/?page=0")).body.param).toBe("page");
    expect((await getJson(app, "/quiz/v1/idiom/?count=0")).body.param).toBe("count");
  });

  it("find the key in api_key beside the declared parameters (the metering reads it, the handler does not)", async () => {
    const { status, body } = await getJson(app, "/quiz/v1/quiz?count=2&api_key=hj_not-a-key");
    expect(status).toBe(401);
    expect(body.param).toBe("api_key");
  });
});

describe("an operation's authorize", () => {
  it("runs before its parameters are read: a caller without credentials learns nothing of them", () => {
    const answer = () => ({ status: 200, headers: {}, body: null, shared: false }) as Reply;
    const operation = defineOperation({
      method: "GET",
      path: "/keys/{id}",
      parameters: { id: ID },
      metering: "admin",
      authorize: (request) => {
        if (request.headers.get("authorization") !== "Bearer t") throw new ApiError(401, "invalid_key", "no token", "Authorization");
      },
      handler: answer,
    });
    const router = new Router([{ path: "/keys/{id}", operation }]);
    expect(() => router.dispatch(get("/keys/x"), ctx())).toThrow(expect.objectContaining({ status: 401, param: "Authorization" }));
    const authorized = { ...get("/keys/x"), headers: new Headers({ authorization: "Bearer t" }) };
    expect(refusedParam(() => router.dispatch(authorized, ctx()))).toBe("id");
  });
});
