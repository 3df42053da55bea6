/**
 * The app's routing: the mounted operations registered with itty-router, which compiles their
 * paths, and its route table read by `match(method, path)`, the methods a path has, and whether
 * every operation of interface A can be reached. itty-router's `fetch` is not used: dispatch stays
 * synchronous and typed (the handler gets its declared parameters' values, not a request with
 * params assigned onto it).
 */
import { IttyRouter } from "itty-router/IttyRouter";
import type { RouteEntry } from "itty-router";
import { AppOptionError } from "../appOptions.ts";
import type { Reply, RequestLike } from "../http/reply.ts";
import { pathOf } from "../http/target.ts";
import type { RequestContext } from "../routes/context.ts";
import type { Mounted, Operation } from "./operation.ts";
import { type ParseParameters, compileParameters } from "./parameters.ts";

/** One mounted route: the method it answers (HEAD for a GET's), the operation and its full path. */
interface Route {
  readonly method: string;
  readonly operation: Operation;
  readonly path: string;
  /** Its declared parameters' parse. */
  readonly parse: ParseParameters;
}

/** A route with the pattern itty-router compiled for its path, for checks such as `assertReachable`. */
interface CompiledRoute extends Route {
  readonly pattern: RegExp;
}

/** An operation a request's method and path reached, with the path's parameters by name (raw). */
export interface Match {
  operation: Operation;
  params: Readonly<Record<string, string>>;
  /** The operation's full path template, base included (`/hanja/v1/hanja/{character}`). */
  path: string;
}

/** A path template as itty-router writes it: `/hanja/{character}` → `/hanja/:character`. */
const ittyPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

/**
 * itty-router's route table for `routes`, in their order: each entry its method, the pattern it
 * compiled for the path, no handler (the router dispatches) and the path. Its `:name` rule reads
 * runs of `/` as one, takes a parameter as one or more characters up to the next `/`, and accepts
 * any number of trailing `/`: a trailing slash is ignored on every path (`/radicals/` is
 * `/radicals`, `/hanja/` is `/hanja`).
 */
function ittyTable(routes: readonly { method: string; path: string }[]): RouteEntry[] {
  const itty = IttyRouter();
  for (const { method, path } of routes) itty[method.toLowerCase()](ittyPath(path));
  return itty.routes;
}

/** A full path as the router's pattern for it, as itty-router compiles it. */
export function compilePath(path: string): RegExp {
  return (ittyTable([{ method: "GET", path }])[0] as RouteEntry)[1];
}

/**
 * The routing of one app: operations mounted in this order, the first to match a request
 * answering it. A class, so that a test can watch `dispatch` to tell a routed answer from a
 * remembered one.
 */
export class Router {
  /** itty-router's compiled table, what `match`, `allowed` and `dispatch` read; entry i is `mounted[i]`'s. */
  private readonly table: readonly RouteEntry[];
  private readonly mounted: readonly Route[];
  /** The compiled routes in order (method, pattern, full path), for checks such as `assertReachable`. */
  readonly routes: readonly CompiledRoute[];

  constructor(mounted: readonly Mounted[]) {
    const routes: Route[] = [];
    for (const { path, operation } of mounted) {
      const parse = compileParameters(operation, path);
      routes.push({ method: operation.method, operation, path, parse });
      if (operation.method === "GET") routes.push({ method: "HEAD", operation, path, parse });
    }
    this.mounted = routes;
    this.table = ittyTable(routes);
    this.routes = routes.map((route, i) => ({ ...route, pattern: (this.table[i] as RouteEntry)[1] }));
  }

  /** The first operation answering `method` at `path` (a GET answers HEAD too), with the path's parameters and its full path. */
  match(method: string, path: string): Match | undefined {
    const found = this.find(method, path);
    return found && { operation: found.route.operation, params: found.params, path: found.route.path };
  }

  /** The first route answering `method` at `path`, with the path's raw segments by name: the first entry of itty-router's table that matches, as its `fetch` picks. */
  private find(method: string, path: string): { route: Route; params: Readonly<Record<string, string>> } | undefined {
    const { table } = this;
    for (let i = 0; i < table.length; i++) {
      const entry = table[i] as RouteEntry;
      if (entry[0] !== method) continue;
      const found = entry[1].exec(path);
      if (found !== null) return { route: this.mounted[i] as Route, params: found.groups ?? {} };
    }
    return undefined;
  }

  /** The methods (HEAD with GET) that have an operation at `path`, in mounting order; a hidden operation's are not told. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    this.table.forEach(([method, pattern], i) => {
      if (!(this.mounted[i] as Route).operation.hidden && pattern.test(path)) methods.add(method);
    });
    return [...methods];
  }

  /**
   * Runs a request (normalized: see `normalized`) through its operation's handler, noting the
   * operation's path template in `ctx.route`, with the values
   * of the parameters the operation declares (a bad one throws its `400` before the handler runs,
   * after the operation's `authorize`);
   * `undefined` when none matches. No URL is built and the query is split only for an operation
   * that declares query parameters; nothing is awaited, so a reply that is ready at once
   * (interface B on the memory store) comes back without a promise.
   */
  dispatch(request: RequestLike, ctx: RequestContext): Reply | Promise<Reply> | undefined {
    const found = this.find(request.method, pathOf(request.url));
    if (found === undefined) return undefined;
    const { route, params } = found;
    // What the metrics count the answer under (and the body sender remembers with a replayable one).
    ctx.route = route.path;
    route.operation.authorize?.(request);
    return route.operation.handler(request, ctx, route.parse(request.url, params, ctx));
  }
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

/**
 * Interface B's operations are tried first: a hanjaBase inside one of them (`/quiz/v1/idiom` is
 * inside `/quiz/v1/idiom/{idx}`) would leave interface A unreachable, answered by B instead. Each
 * operation of A is checked with the router's own patterns: the first to match it must be its own.
 */
export function assertReachable(router: Router, interfaceA: readonly Mounted[], hanjaBase: string): void {
  for (const { path, operation } of interfaceA) {
    const sample = path.replace(/\{\w+\}/g, "x");
    const first = router.routes.find(({ method, pattern }) => method === operation.method && pattern.test(sample));
    if (first !== undefined && first.path !== path) {
      throw new AppOptionError(
        "hanjaBase",
        `${JSON.stringify(hanjaBase)} lies inside interface B's route ${colonStyle(first.path)}, which would answer ${colonStyle(path)}; choose bases that do not nest this way`,
      );
    }
  }
}

/** A path as operators have always read it in this message: `:idx`, not `{idx}`. */
const colonStyle = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");
