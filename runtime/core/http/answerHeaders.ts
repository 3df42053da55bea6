/**
 * The headers every answer of the service carries, set in this one place by each maker of answers
 * (bodies, problems, `OPTIONS`): CORS, and what keeps a browser from misreading or framing an
 * answer. The rules: docs/rules.md "Headers".
 */

/**
 * The Content-Security-Policy of an answer that brings none of its own (JSON, problems, the page's
 * script and style): nothing may load from it as a document, and no site may frame it. An HTML
 * document states what it loads (the page, /docs); one that forgot would load nothing, visibly.
 */
export const DATA_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Adds the headers every answer carries to a response's own headers, once those are all set: CORS
 * (`withCors`), `X-Content-Type-Options: nosniff` (a browser never guesses another type than the
 * one declared), a Content-Security-Policy (the response's own, else `DATA_CSP`) and, on text a
 * browser renders or loads from (HTML, CSS, JavaScript), `Referrer-Policy: no-referrer`.
 */
export function withAnswerHeaders(headers: Record<string, string>): Record<string, string> {
  headers["X-Content-Type-Options"] = "nosniff";
  headers["Content-Security-Policy"] ??= DATA_CSP;
  if (headers["Content-Type"]?.startsWith("text/")) headers["Referrer-Policy"] = "no-referrer";
  return withCors(headers);
}

/**
 * The headers the service sends that a script on another origin may read only when the response
 * exposes them (they are not CORS-safelisted), spelt as the service writes them.
 */
const EXPOSABLE = [
  "Allow",
  "WWW-Authenticate",
  "ETag",
  "RateLimit",
  "RateLimit-Policy",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "Retry-After",
  "X-Request-Id",
];

/**
 * The CORS part of `withAnswerHeaders`, once a response's own headers are all set:
 * `Access-Control-Allow-Origin: *`, and `Access-Control-Expose-Headers` naming the headers of
 * `EXPOSABLE` this response carries (a character's detail: `ETag`; a quiz: the rate-limit
 * headers), none when it carries none. Naming a header a response lacks exposes nothing, so the
 * list is each response's own and costs no bytes on the others.
 */
function withCors(headers: Record<string, string>): Record<string, string> {
  headers["Access-Control-Allow-Origin"] = "*";
  let exposed = "";
  for (const name of EXPOSABLE) if (name in headers) exposed = exposed === "" ? name : `${exposed}, ${name}`;
  if (exposed !== "") headers["Access-Control-Expose-Headers"] = exposed;
  return headers;
}
