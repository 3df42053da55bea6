/** The access log's view of a request target: the `api_key` value and anything key-shaped replaced. */
import { KEY_BODY_LENGTH, KEY_PREFIX } from "../quota/apiKeys.ts";
import { decodedName } from "./params.ts";
import { targetOf } from "./respond.ts";

/** Path and query of a URL with the `api_key` value replaced, for the access log. */
export function redactedTarget(url: string): string {
  let target = targetOf(url);
  if (target.includes(KEY_PREFIX) || mayHoldEncodedPrefix(target)) target = target.replace(KEY_SHAPED, `${KEY_PREFIX}REDACTED`);
  const q = target.indexOf("?");
  if (q === -1) return target;
  const query = target.slice(q + 1);
  // Decoding never lengthens a name, so a query with no name as long as `api_key` has none to hide.
  if (!LONG_NAME.test(query)) return target;
  const pairs = query.split("&").map((pair) => {
    const eq = pair.indexOf("=");
    const name = eq === -1 ? pair : pair.slice(0, eq);
    return eq !== -1 && /^api_key(\[\])?$/i.test(decodedName(name)) ? `${name}=REDACTED` : pair;
  });
  return `${target.slice(0, q)}?${pairs.join("&")}`;
}

/** A query pair whose name has at least as many characters as `api_key`. */
const LONG_NAME = /(?:^|&)[^&=]{7,}=/;

/** A letter or digit, as itself or percent-encoded (`%41` is `A`). */
const ALNUM = "(?:[0-9A-Za-z]|%(?:3[0-9]|4[1-9A-Fa-f]|5[0-9Aa]|6[1-9A-Fa-f]|7[0-9Aa]))";

/** The escape of each character of the key prefix (`h` is `%68`), its hex digits in either case. */
const PREFIX_ESCAPES = [...KEY_PREFIX].map((c) => {
  const hex = c.charCodeAt(0).toString(16);
  return `%${hex[0]}[${hex[1]?.toUpperCase()}${hex[1]?.toLowerCase()}]`;
});

/**
 * Anything shaped like a key (`KEY_PATTERN` unanchored), wherever it is in a target, each character
 * as itself or percent-encoded (`%68j%5F…` is `hj_…`): a client that encodes a key by mistake
 * must not get it logged.
 */
const KEY_SHAPED = new RegExp(`${[...KEY_PREFIX].map((c, i) => `(?:${c}|${PREFIX_ESCAPES[i]})`).join("")}${ALNUM}{${KEY_BODY_LENGTH}}`, "g");

/** One of the prefix's characters encoded: the only way a key shape lacks a plain prefix. */
const ENCODED_PREFIX = new RegExp(PREFIX_ESCAPES.join("|"));

/** What each of those escapes begins with (`%6`, `%5`): text without any is passed over cheaply. */
const ESCAPE_STARTS = [...new Set(PREFIX_ESCAPES.map((escape) => escape.slice(0, 2)))];

/**
 * Whether `target` may hold the key prefix with one of its characters encoded. UTF-8 text never
 * has an escape beginning `%5` or `%6` (those are ASCII), so the usual encoded path (`%E6%B0%B4`)
 * is passed over without a regular expression.
 */
function mayHoldEncodedPrefix(target: string): boolean {
  return ESCAPE_STARTS.some((start) => target.includes(start)) && ENCODED_PREFIX.test(target);
}
