/** What a script on another origin may read from a response: the test side of the CORS rules (docs/rules.md "Headers"). */

/** Response headers of the service that are not CORS-safelisted and that clients have a use for. */
export const READ_BY_SCRIPTS = [
  "allow",
  "www-authenticate",
  "etag",
  "ratelimit",
  "ratelimit-policy",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "retry-after",
  "x-request-id",
];
export const RATE_LIMIT_HEADERS = ["ratelimit", "ratelimit-policy", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"];

type HeaderView = { get(name: string): string | null; has(name: string): boolean };

/** The names `Access-Control-Expose-Headers` lists, lower-cased and sorted. */
export function exposedNames(headers: HeaderView): string[] {
  return (headers.get("access-control-expose-headers") ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean)
    .sort();
}

/** The headers of `READ_BY_SCRIPTS` a response carries, sorted. */
export function carriedNames(headers: HeaderView): string[] {
  return READ_BY_SCRIPTS.filter((name) => headers.has(name)).sort();
}
