/**
 * The access log's view of a request target: the value of every query parameter that can carry a
 * credential, anything key-shaped, and the operator's own secrets (the admin token) replaced.
 */
import { KEY_BODY_LENGTH, KEY_PREFIX } from "../quota/apiKeys.ts";
import { decodedName } from "./params.ts";
import { targetOf } from "./target.ts";

/**
 * Path and query of a URL for the access log: the value of each parameter named like a credential
 * (`SECRET_NAME`, read as the query parser reads names) is `REDACTED`, anything shaped like an API
 * key is `hj_REDACTED`, and each of `secrets` found anywhere in the target, as sent or with
 * characters percent-encoded, is `REDACTED`.
 */
export function redactedTarget(url: string, secrets: readonly string[] = []): string {
  let target = targetOf(url);
  if (target.includes(KEY_PREFIX) || ENCODED_PREFIX.test(target)) target = target.replace(KEY_SHAPED, `${KEY_PREFIX}REDACTED`);
  for (const secret of secrets) target = withoutSecret(target, secret);
  const q = target.indexOf("?");
  if (q === -1) return target;
  const query = target.slice(q + 1);
  if (!hasSecretHint(query)) return target;
  const pairs = query.split("&").map((pair) => {
    const eq = pair.indexOf("=");
    const name = eq === -1 ? pair : pair.slice(0, eq);
    return eq !== -1 && SECRET_NAME.test(decodedName(name)) ? `${name}=REDACTED` : pair;
  });
  return `${target.slice(0, q)}?${pairs.join("&")}`;
}

/**
 * A parameter name that can carry a credential (a trailing `[]` allowed): `api_key`, `key`,
 * `token`, `access_token`, `admin_token`, `password`, `secret`, `auth`, `signature`, `session`, …,
 * alone or ending a longer name after `_`, `-` or `.` (`client_secret`, `X-Amz-Signature`); names
 * ending in `token`, `secret` or `password` in any case. Redacting a harmless parameter costs a log
 * reader a value; missing a credential leaks it.
 */
export const SECRET_NAME =
  /^(?:(?:[^]*[_.-])?(?:api_?key|key|auth|authorization|sig|signature|session|session_?id|credentials?|pass|pwd|otp|jwt)|[^]*(?:token|secret|passw(?:or)?d|passphrase))(?:\[\])?$/i;

/**
 * A query with a name that may be a credential's: one holding a part of such a name, or an escape or
 * `+` (which the parser decodes). Queries without one (the usual `q=%EC%88%98&page=2`) are passed
 * over without splitting them.
 */
const SECRET_HINT = /key|tok|secret|pass|pwd|auth|sig|session|credential|otp|jwt|%|\+/i;

/**
 * Whether a name of `query` (before its `=`) holds a `SECRET_HINT`. One pass with indexes: a single
 * pattern for a hint inside a name (`[^&=]*hint[^&=]*=`) is retried from every hint in a long name
 * that has no `=`, quadratic in what a client sends.
 */
export function hasSecretHint(query: string): boolean {
  let start = 0;
  let eq = query.indexOf("=");
  while (eq !== -1) {
    // The name of the pair this `=` is in begins after the last `&` before it; both scans only go forward.
    let amp = query.indexOf("&", start);
    while (amp !== -1 && amp < eq) {
      start = amp + 1;
      amp = query.indexOf("&", start);
    }
    if (SECRET_HINT.test(query.slice(start, eq))) return true;
    if (amp === -1) return false;
    start = amp + 1;
    eq = query.indexOf("=", start);
  }
  return false;
}

/** An escape of an ASCII character. */
const ASCII_ESCAPE = /%[0-7][0-9A-Fa-f]/g;
const HAS_ASCII_ESCAPE = /%[0-7][0-9A-Fa-f]/;

/**
 * `target` with every occurrence of `secret` replaced by `REDACTED`, also where a client
 * percent-encoded some of its characters (then the target is logged with its ASCII escapes decoded).
 */
function withoutSecret(target: string, secret: string): string {
  if (secret === "") return target;
  if (target.includes(secret)) return target.replaceAll(secret, "REDACTED");
  // Escapes of UTF-8 text (`%EC%88%98`, the usual ones) cannot spell an ASCII token.
  if (!target.includes("%") || !HAS_ASCII_ESCAPE.test(target)) return target;
  const decoded = target.replace(ASCII_ESCAPE, (sequence) => String.fromCharCode(Number.parseInt(sequence.slice(1), 16)));
  return decoded.includes(secret) ? decoded.replaceAll(secret, "REDACTED") : target;
}

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

/**
 * One of the prefix's characters encoded: the only way a key shape lacks a plain prefix. Tested as
 * a pattern, not by looking for where its escapes begin (`%6`, `%5`) with `includes`: in a target of
 * UTF-8 escapes (a `/read` text of 200 characters is about 1,500) every `%` starts a failed match of
 * those, and the two scans cost several times the pattern's one, on a path every logged request
 * takes (see RESULTS.md, "The access log").
 */
const ENCODED_PREFIX = new RegExp(PREFIX_ESCAPES.join("|"));
