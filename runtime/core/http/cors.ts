/**
 * CORS: the answer to `OPTIONS`, a preflight or a plain one (the CORS headers every answer carries
 * are set with the others in `answerHeaders.ts`). The rules: docs/rules.md "Headers".
 */
import { withAnswerHeaders } from "./answerHeaders.ts";
import { type Reply, type RequestLike, reply } from "./reply.ts";

/** The request headers a preflight always allows: those the service reads. */
const ALLOWED_HEADERS = ["Content-Type", "X-API-Key", "Authorization", "If-None-Match"];

/** A method name or a comma-separated list of header names, as RFC 9110 tokens (what a preflight may echo). */
const TCHARS = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const TOKEN = new RegExp(`^${TCHARS}$`);
const TOKEN_LIST = new RegExp(`^${TCHARS}(?:[ \\t]*,[ \\t]*${TCHARS})*$`);

/**
 * The answer to `OPTIONS` on a path whose methods are `allow` (none: an unknown path). A CORS
 * preflight (`Access-Control-Request-Method` naming a method) is allowed on every path, for the
 * method and the headers it asks for (when they are a list of header names): the browser then sends the request itself, and the page reads the real
 * answer (a 404, a 405, a 401 …) instead of an opaque CORS failure. Cross-origin requests never
 * carry credentials here (`Access-Control-Allow-Origin: *`), so allowing them widens nothing. A
 * plain `OPTIONS` gets the path's `Allow`, and on an unknown path `undefined` (the caller's 404).
 */
export function optionsReply(allow: readonly string[], request: RequestLike): Reply | undefined {
  const methods = allow.length > 0 ? [...allow, "OPTIONS"] : [];
  // What a browser sends is a method token; anything else (empty included) is no preflight.
  const method = request.headers.get("access-control-request-method")?.trim() ?? "";
  const preflight = TOKEN.test(method);
  if (!preflight && methods.length === 0) return undefined;
  // Header names by lower case, the service's own first; a preflight adds those it asks for.
  const allowHeaders = new Map(ALLOWED_HEADERS.map((name) => [name.toLowerCase(), name]));
  const asked = preflight ? (request.headers.get("access-control-request-headers")?.trim() ?? "") : "";
  if (TOKEN_LIST.test(asked)) {
    for (const name of asked.split(",").map((part) => part.trim())) {
      if (!allowHeaders.has(name.toLowerCase())) allowHeaders.set(name.toLowerCase(), name);
    }
  }
  const headers: Record<string, string> = {
    "Access-Control-Allow-Methods": (preflight && !methods.includes(method) ? [...methods, method] : methods).join(", "),
    "Access-Control-Allow-Headers": [...allowHeaders.values()].join(", "),
    "Access-Control-Max-Age": "86400",
  };
  if (preflight) headers.Vary = "Access-Control-Request-Method, Access-Control-Request-Headers";
  if (methods.length > 0) headers.Allow = methods.join(", ");
  return reply(204, withAnswerHeaders(headers), null);
}
