/**
 * A request's query as both interfaces read it: the names and values URLSearchParams would give
 * (a repeated name collected as an array), and the names whose value is not valid percent-encoded
 * UTF-8, which URLSearchParams decodes without a word and a route refuses (`assertWellFormed`).
 */
import { invalidParameter } from "./errors.ts";

/** Where a query keeps the names whose value is not valid percent-encoded UTF-8. */
const MALFORMED: unique symbol = Symbol("malformed");

/**
 * Query values as `queryOf` collects them: a string, or an array when repeated; and the names
 * whose value had a broken escape (`%zz`, `%E6%B0`), which URLSearchParams decodes without a word.
 */
export type RawQuery = Record<string, string | string[] | undefined> & { [MALFORMED]?: Set<string> };

/** A character outside ASCII, which a target sent over node:http never holds but an embedder's may. */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * The query of a request URL, a repeated name collected as an array, an empty first value kept
 * (`page=&page=2` is a repetition, not a single `page=2`). Each name and value is decoded once, by
 * `decodeURIComponent`, which also tells a broken escape by throwing: for ASCII text with valid
 * escapes its result is exactly URLSearchParams' (`+` read as a space first). A broken escape, or
 * text outside ASCII (whose lone surrogates URLSearchParams replaces), is decoded by
 * URLSearchParams itself.
 */
export function queryOf(url: string): RawQuery {
  const query: RawQuery = Object.create(null) as RawQuery;
  const hash = url.indexOf("#");
  const start = url.indexOf("?");
  if (start === -1 || (hash !== -1 && hash < start)) return query;
  const end = hash === -1 ? url.length : hash;
  // The "?" is dropped, as URLSearchParams drops it: a second "?" is part of the first name.
  const ascii = !NON_ASCII.test(hash === -1 ? url : url.slice(0, end));
  let malformed: Set<string> | undefined;
  for (let from = start + 1; from < end; ) {
    let amp = url.indexOf("&", from);
    if (amp === -1 || amp > end) amp = end;
    // Empty pairs (`a=1&&b=2`) are skipped, as URLSearchParams skips them.
    if (amp > from) {
      const eq = url.indexOf("=", from);
      const split = eq !== -1 && eq < amp;
      const rawName = url.slice(from, split ? eq : amp);
      const name = decodeForm(rawName, ascii) ?? searchParamsDecoded(rawName);
      const rawValue = split ? url.slice(eq + 1, amp) : "";
      let value = decodeForm(rawValue, ascii);
      if (value === null) {
        value = searchParamsDecoded(rawValue);
        // ASCII text is refused by decodeForm only for a broken escape; other text is tried here.
        if (ascii || decodeComponent(rawValue) === null) (malformed ??= new Set()).add(name);
      }
      const seen = query[name];
      query[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
    }
    from = amp + 1;
  }
  // Not enumerable: the query still lists only names and values.
  if (malformed !== undefined) Object.defineProperty(query, MALFORMED, { value: malformed });
  return query;
}

/**
 * A form-encoded component (`+` a space) decoded, when the result is surely URLSearchParams': the
 * text is ASCII and every escape is of UTF-8. Null otherwise (then `searchParamsDecoded` decides).
 */
function decodeForm(text: string, ascii: boolean): string | null {
  if (!ascii) return null;
  if (!text.includes("%")) return text.includes("+") ? text.replaceAll("+", " ") : text;
  return decodeComponent(text);
}

/** A form-encoded component decoded by `decodeURIComponent` (`+` a space), or null when one of its escapes is not of UTF-8 (it throws). */
function decodeComponent(text: string): string | null {
  try {
    return decodeURIComponent(text.includes("+") ? text.replaceAll("+", " ") : text);
  } catch {
    return null;
  }
}

/** A name or value decoded by URLSearchParams itself (the text holds no `&`; a name no `=`). */
function searchParamsDecoded(text: string): string {
  return new URLSearchParams(`x=${text}`).get("x") ?? text;
}

/** A query parameter's name as the query parser reads it (`%61pi_key` is `api_key`). */
export function decodedName(name: string): string {
  if (!name.includes("%") && !name.includes("+")) return name;
  return new URLSearchParams(`${name}=`).keys().next().value ?? name;
}

/** Throws `400 invalid_parameter` naming `name` when its value in `query` has a broken escape. */
export function assertWellFormed(query: RawQuery, name: string): void {
  if (query[MALFORMED]?.has(name)) {
    throw invalidParameter(name, `${name} is not valid percent-encoded UTF-8: a % must begin an escape of a whole UTF-8 character (%EC%88%98 for 수)`);
  }
}
