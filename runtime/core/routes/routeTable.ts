/** Questions about the compiled route table: which methods a path has, and whether every route of interface A can be reached. */
import type { Route } from "./context.ts";

/** A compiled itty-router route: method, pattern, handlers, path. */
type CompiledRoute = readonly [string, RegExp, unknown, string?];

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
      throw new Error(`hanjaBase: ${JSON.stringify(hanjaBase)} lies inside interface B's route ${first[3]}, which would answer ${route.path}; choose bases that do not nest this way`);
    }
  }
}
