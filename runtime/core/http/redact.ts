/** The access log's view of a request target: the `api_key` value and anything key-shaped replaced. */
import { KEY_PATTERN } from "../quota/apiKeys.ts";
import { decodedName } from "./params.ts";
import { targetOf } from "./respond.ts";

/** Path and query of a URL with the `api_key` value replaced, for the access log. */
export function redactedTarget(url: string): string {
  let target = targetOf(url);
  if (target.includes("hj_")) target = target.replace(KEY_SHAPED, "hj_REDACTED");
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

/** Anything shaped like a key (`KEY_PATTERN` unanchored), wherever it is in a target. */
const KEY_SHAPED = new RegExp(KEY_PATTERN.source.replace(/^\^|\$$/g, ""), "g");
