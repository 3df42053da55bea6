/**
 * The compiled route table (itty-router's `routes`): running a request through it, which methods
 * a path has, and whether every route of interface A can be reached.
 */
import { AppOptionError } from "../appOptions.ts";
import type { IRequest } from "itty-router";
import type { Reply, RequestLike } from "../http/reply.ts";
import { pathOf } from "../http/target.ts";
import type { RequestContext, Route } from "./context.ts";

/** A compiled itty-router route: method, pattern, handlers, path. */
export type CompiledRoute = readonly [string, RegExp, unknown, string?];

type CompiledHandler = (request: IRequest, ctx: RequestContext) => Reply | Promise<Reply> | null | undefined;

/**
 * Runs `request` (normalized: see `normalized`) through the routes as itty-router's `fetch` does:
 * the first route whose method and pattern match the path, with `request.params` from the pattern's groups (and
 * `request.route`, `ctx.route` its path template), its handlers in
 * turn until one answers. `undefined` when no route answers. Unlike `fetch` it builds no `URL` and
 * no query object (every handler parses only the query it reads) and awaits nothing, so a reply
 * that is ready at once (interface B on the memory store) comes back without a promise.
 */
export function dispatch(routes: readonly CompiledRoute[], request: RequestLike, ctx: RequestContext): Reply | Promise<Reply> | undefined {
  const path = pathOf(request.url);
  for (const [method, pattern, handlers, template] of routes) {
    if (method !== request.method) continue;
    const match = pattern.exec(path);
    if (match === null) continue;
    (request as IRequest).params = (match.groups ?? {}) as IRequest["params"];
    // The route's template, as itty-router's `fetch` sets it: the metrics count by it, and the
    // body sender remembers it with a replayable answer.
    (request as { route?: string }).route = ctx.route = template;
    for (const handler of handlers as CompiledHandler[]) {
      const reply = handler(request as IRequest, ctx);
      if (reply != null) return reply;
    }
  }
  return undefined;
}

/**
 * Characters of a path that WHATWG URL parsing would change: a dot segment (`/./`, `/../`, also
 * percent-encoded), a backslash (read as `/`), and what it percent-encodes (space, `"`, `<`, `>`,
 * backtick, `{`, `}`, controls, non-ASCII).
 */
const NEEDS_URL_PARSER = /\/\.|%2e|[\\"<>`{}]|[^\x21-\x7e]/i;

/**
 * The request as routes see it: its URL as the URL parser normalizes it (dot segments resolved,
 * `\\` read as `/`, characters percent-encoded), the request itself when parsing could not change
 * the path. Bun hands over URLs normalized so; Node and Deno hand over the target as sent, so
 * without this `/hanja/v1/hanja/..` would be routed on one path and answered on another.
 */
export function normalized(request: RequestLike): RequestLike {
  if (!NEEDS_URL_PARSER.test(pathOf(request.url))) return request;
  const url = new URL(request.url).href;
  return url === request.url ? request : new WithUrl(request, url);
}

/** A request with another URL; everything else read from the original. */
class WithUrl implements RequestLike {
  constructor(
    private readonly original: RequestLike,
    readonly url: string,
  ) {}
  get method(): string {
    return this.original.method;
  }
  get headers(): RequestLike["headers"] {
    return this.original.headers;
  }
  get body(): RequestLike["body"] {
    return this.original.body;
  }
}

/** A function listing the methods (HEAD included with GET) that have a route matching a path. */
export function allowedMethods(routes: readonly CompiledRoute[]): (path: string) => string[] {
  return (path) => {
    const methods = new Set<string>();
    for (const [method, pattern] of routes) if (pattern.test(path)) methods.add(method);
    return [...methods];
  };
}

/**
 * Interface B's routes are tried first: a hanjaBase inside one of them (`/quiz/v1/idiom` is
 * inside `/quiz/v1/idiom/:idx`) would leave interface A unreachable, answered by B instead. Each
 * route of A is checked with the router's own patterns: the first to match it must be its own.
 */
export function assertReachable(routes: readonly CompiledRoute[], interfaceA: readonly Route[], hanjaBase: string): void {
  for (const route of interfaceA) {
    const sample = route.path.replace(/:\w+/g, "x");
    const first = routes.find(([method, pattern]) => method === route.method && pattern.test(sample));
    if (first !== undefined && first[3] !== route.path) {
      throw new AppOptionError(
        "hanjaBase",
        `${JSON.stringify(hanjaBase)} lies inside interface B's route ${first[3]}, which would answer ${route.path}; choose bases that do not nest this way`,
      );
    }
  }
}
