/** Example requests as shell-safe curl commands for the reference page. */
import type { RequestExample } from "./types.ts";

/** Where the examples send their requests: the server's default address. */
export const EXAMPLE_ORIGIN = "http://localhost:8080";

const PLACEHOLDER = /^[^"\\`$]*\$(API_KEY|ADMIN_TOKEN)[^"\\`$]*$/;

/** Quotes one shell word: single quotes, or double quotes when it holds a `$API_KEY`-style placeholder to expand. */
export function shellQuote(word: string): string {
  if (PLACEHOLDER.test(word)) return `"${word}"`;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The request target of an example: path parameters substituted and percent-encoded. */
export function examplePath(path: string, example: RequestExample): string {
  return path.replace(/\{([^{}]+)\}/g, (_, name: string) => encodeURIComponent(example.path?.[name] ?? `{${name}}`));
}

/** A curl command for an example of `method path`. */
export function curlCommand(method: string, path: string, example: RequestExample): string {
  const head = ["curl"];
  const query = Object.entries(example.query ?? {});
  // A body makes curl POST by itself; without one the method must be named.
  if (method.toUpperCase() !== "GET" && example.body === undefined) head.push(`-X ${method.toUpperCase()}`);
  else if (query.length > 0) head.push("-G");
  head.push(shellQuote(`${EXAMPLE_ORIGIN}${examplePath(path, example)}`));
  const options: string[] = [];
  for (const [name, value] of query) options.push(`--data-urlencode ${shellQuote(`${name}=${value}`)}`);
  for (const [name, value] of Object.entries(example.headers ?? {})) options.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  if (example.body !== undefined) options.push(`--data-raw ${shellQuote(JSON.stringify(example.body))}`);
  return [head.join(" "), ...options].join(" \\\n  ");
}
