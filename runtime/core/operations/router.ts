/**
 * The router the app owns: mounted operations compiled once into a table, `match(method, path)`,
 * the methods a path has, and whether every operation of interface A can be reached. Patterns are
 * compiled as itty-router compiles its `:name` routes (a test holds the two to the same answers),
 * so moving to declarations changed no route's reach.
 */
import { AppOptionError } from "../appOptions.ts";
import type { Reply, RequestLike } from "../http/reply.ts";
import { pathOf } from "../http/target.ts";
import type { RequestContext } from "../routes/context.ts";
import type { Mounted, Operation } from "./operation.ts";

/** One compiled route: the method it answers (HEAD for a GET's), its pattern, the operation and its full path. */
interface CompiledRoute {
  readonly method: string;
  readonly pattern: RegExp;
  readonly operation: Operation;
  readonly path: string;
}

/** An operation a request's method and path reached, with the path's parameters by name (raw). */
export interface Match {
  operation: Operation;
  params: Readonly<Record<string, string>>;
  /** The operation's full path template, base included (`/hanja/v1/hanja/{character}`). */
  path: string;
}

/**
 * A full path as a pattern, as itty-router compiles `:name` (runs of `/` read as one, no trailing
 * `/` needed, any number of trailing `/` accepted, a parameter one or more characters up to the next `/`).
 */
export function compilePath(path: string): RegExp {
  const source = path
    .replace(/\/+(\/|$)/g, "$1")
    .replace(/(\/?)\{(\w+)\}/g, "($1(?<$2>[^$1/]+?))")
    .replace(/\./g, "\\.");
  return new RegExp(`^${source}/*$`);
}

/**
 * The routing of one app: operations mounted in this order, the first to match a request
 * answering it. A class, so that a test can watch `dispatch` to tell a routed answer from a
 * remembered one.
 */
export class Router {
  /** The compiled routes in order (method, pattern, full path), for checks such as `assertReachable`. */
  readonly routes: readonly CompiledRoute[];

  constructor(mounted: readonly Mounted[]) {
    const routes: CompiledRoute[] = [];
    for (const { path, operation } of mounted) {
      const pattern = compilePath(path);
      routes.push({ method: operation.method, pattern, operation, path });
      if (operation.method === "GET") routes.push({ method: "HEAD", pattern, operation, path });
    }
    this.routes = routes;
  }

  /** The first operation answering `method` at `path` (a GET answers HEAD too), with the path's parameters and its full path. */
  match(method: string, path: string): Match | undefined {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const found = route.pattern.exec(path);
      if (found !== null) return { operation: route.operation, params: found.groups ?? {}, path: route.path };
    }
    return undefined;
  }

  /** The methods (HEAD with GET) that have an operation at `path`, in mounting order; a hidden operation's are not told. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const { method, pattern, operation } of this.routes) if (!operation.hidden && pattern.test(path)) methods.add(method);
    return [...methods];
  }

  /**
   * Runs a request (normalized: see `normalized`) through its operation's handler, noting the
   * operation's path template in `ctx.route`; `undefined` when none matches. No URL and no query object is built (every handler parses only the query it
   * reads), and nothing is awaited, so a reply that is ready at once (interface B on the memory
   * store) comes back without a promise.
   */
  dispatch(request: RequestLike, ctx: RequestContext): Reply | Promise<Reply> | undefined {
    const found = this.match(request.method, pathOf(request.url));
    if (found === undefined) return undefined;
    // What the metrics count the answer under (and the body sender remembers with a replayable one).
    ctx.route = found.path;
    return found.operation.handler(request, ctx, found.params);
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
