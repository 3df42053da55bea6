/** The access log's view of a request target: the `api_key` value and anything key-shaped replaced. */
import { decodedName } from "./params.ts";
import { targetOf } from "./respond.ts";

/** Path and query of a URL with the `api_key` value replaced, for the access log. */
export function redactedTarget(url: string): string {
  let target = targetOf(url);
  if (target.includes("hj_") || mayHoldEncodedPrefix(target)) target = target.replace(KEY_SHAPED, "hj_REDACTED");
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

/**
 * Anything shaped like a key (`hj_` and 32 letters or digits, `KEY_PATTERN` unanchored), wherever
 * it is in a target, each character as itself or percent-encoded (`%68j%5F…` is `hj_…`): a client
 * that encodes a key by mistake must not get it logged.
 */
const KEY_SHAPED = new RegExp(`(?:h|%68)(?:j|%6[Aa])(?:_|%5[Ff])${ALNUM}{32}`, "g");

/**
 * Whether `target` may hold the key prefix with one of its characters encoded (`%68`, `%6A`,
 * `%5F`), the only way a key shape lacks a plain `hj_`. UTF-8 text never has an escape beginning
 * `%5` or `%6` (those are ASCII), so the usual encoded path (`%E6%B0%B4`) is passed over cheaply.
 */
function mayHoldEncodedPrefix(target: string): boolean {
  return (target.includes("%5") || target.includes("%6")) && /%(?:68|6a|5f)/i.test(target);
}
