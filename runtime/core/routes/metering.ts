/**
 * Who is calling interface B and how much they have left: key from `X-API-Key` or `api_key`, or
 * the demo quota of the client IP; one atomic count per metered call; the rate-limit headers on
 * every metered response (the rules: docs/rules.md "Interface B"). `createMetering` gives the one
 * wrapper every metered route shares.
 */
import { LRUCache } from "lru-cache";
import { ENTRY_BYTES, SHARED_LOOKUPS, stringBytes } from "../util/cacheBudget.ts";
import { ApiError, invalidParameter } from "../http/errors.ts";
import { type RawQuery, assertWellFormed, queryOf } from "../http/params.ts";
import type { Reply, RequestLike } from "../http/reply.ts";
import type { Send } from "../http/sender.ts";
import type { SizedText } from "../quiz/makeQuiz.ts";
import { clientIp } from "../quota/clientIp.ts";
import { KEY_PATTERN, KEY_PREFIX, hashApiKey } from "../quota/apiKeys.ts";
import { type QuotaDay, quotaDay } from "../quota/clock.ts";
import { keyStatus, paymentReference } from "../quota/keyActions.ts";
import { ANNUAL_PRICE_KRW, DAILY_LIMITS, type Plan } from "../quota/plans.ts";
import { count } from "../util/count.ts";
import { type ConsumeResult, KeyChangedError, type KeyRecord, type KeyStatus, type QuotaStore, StoreUnavailableError, keyBucket } from "../quota/store.ts";
import { andThen } from "../util/andThen.ts";
import type { RequestContext } from "./context.ts";

// SHA-256 of recently seen well-formed keys, so a busy key is checked and hashed once rather than on
// every call; bounded by what the entries cost (`SHARED_LOOKUPS.keyHashes`).
const hashes = new LRUCache<string, string>({
  maxSize: SHARED_LOOKUPS.keyHashes,
  sizeCalculation: (hash, key) => ENTRY_BYTES + stringBytes(key) + stringBytes(hash),
});
function checkedHash({ value: key, param }: PresentedKey): string {
  let hash = hashes.get(key);
  if (hash === undefined) {
    if (!KEY_PATTERN.test(key)) throw invalidKey(param);
    hashes.set(key, (hash = hashApiKey(key)));
  }
  return hash;
}

/**
 * The caller of a request: a key (with its stored record) or the demo quota of an IP, its daily
 * limit (0 for an expired or revoked key), and the moment the key's status was judged, which is
 * also the moment the call is counted at.
 */
export type Caller = { at: Date; bucket: string; limit: number } & (
  | { plan: "demo"; key: null }
  | { plan: "free" | "annual"; key: KeyRecord; param: PresentedKey["param"] }
);

export interface MeterConfig {
  store: QuotaStore;
  now: () => Date;
  /** Minutes east of UTC of the metering day. */
  offsetMinutes: number;
  /** The path of `POST /subscribe` as clients call it, named by the 429 of a caller without a key. */
  subscribePath?: string;
}

/** A key as a request carries it, and where: an error about it names that place. */
export interface PresentedKey {
  value: string;
  param: "X-API-Key" | "api_key";
}

/** The key a request carries, or null; a header and a query value that differ are a 400. */
export function presentedKey(request: RequestLike, query: RawQuery): PresentedKey | null {
  const header = request.headers.get("x-api-key");
  const fromQuery = query.api_key;
  if (Array.isArray(fromQuery)) throw invalidParameter("api_key", "api_key is given more than once");
  assertWellFormed(query, "api_key");
  // Servers join repeated header lines with ", " (and a key never holds a comma).
  if (header?.includes(",")) throw invalidParameter("X-API-Key", "X-API-Key is given more than once; send one key");
  // An empty value is no key: only the values that are there are compared.
  const inHeader = header === null || header === "" ? undefined : header;
  const inQuery = fromQuery === "" ? undefined : fromQuery;
  if (inHeader !== undefined && inQuery !== undefined && inHeader !== inQuery) {
    throw invalidParameter("api_key", "X-API-Key and api_key are both given and differ; send the key once");
  }
  if (inHeader !== undefined) return { value: inHeader, param: "X-API-Key" };
  if (inQuery !== undefined) return { value: inQuery, param: "api_key" };
  // An API key sent as a Bearer token is not silently served as the demo: say where it goes.
  if (BEARER_KEY.test(request.headers.get("authorization") ?? "")) {
    throw invalidKey(
      "Authorization",
      "Send the API key in the X-API-Key header (or the api_key query parameter); Authorization is read only by the admin routes.",
    );
  }
  return null;
}

/** An Authorization header carrying something shaped like an API key (`Bearer hj_…`; the scheme in any case, the prefix as keys have it). */
const BEARER_KEY = new RegExp(`^\\s*[Bb][Ee][Aa][Rr][Ee][Rr]\\s+${KEY_PREFIX}`);

/**
 * Resolves the caller (`ip` is asked for only when there is no key). Unknown or malformed keys are `401 invalid_key` (never demo); expired and
 * revoked keys are `403` unless `allowInactive` (for `GET /me`, which reports them); `refused.plan`
 * becomes such a key's plan, which the access log and the metrics name. Synchronous when the store
 * answers synchronously (both stores do for keys), so no promise is made per call.
 */
export function identify(
  config: MeterConfig,
  key: PresentedKey | null,
  ip: () => string,
  allowInactive = false,
  refused?: Pick<RequestContext, "plan">,
): Caller | Promise<Caller> {
  if (key === null) return { plan: "demo", bucket: `ip:${ip()}`, key: null, limit: DAILY_LIMITS.demo, at: config.now() };
  const hash = checkedHash(key);
  if (allowInactive) return andThen(config.store.keyByHash(hash), (record) => callerOf(config, record, true, key.param));
  // The call is counted next (`meter`), so the store may answer from memory and check the record
  // in the count. Only a usable key goes on so: a refusal is decided on the current record.
  return andThen(config.store.keyByHash(hash, true), (record) => {
    const at = config.now();
    if (record !== null && isUsable(keyStatus(record, at))) return callerOf(config, record, false, key.param, at);
    return andThen(config.store.keyByHash(hash), (current) => callerOf(config, current, false, key.param, config.now(), refused));
  });
}

function isUsable(status: KeyStatus): boolean {
  return status === "active" || status === "pending_deposit";
}

/**
 * The caller a key record makes at `at` (a 401 naming `param` when there is none). Its limit is the
 * plan's while the key is usable, else 0; without `allowInactive`, an expired or revoked key is a
 * `403` instead. A class quiz's submission counts on its teacher's key through it.
 */
export function callerOf(
  config: MeterConfig,
  record: KeyRecord | null,
  allowInactive: boolean,
  param: PresentedKey["param"],
  at = config.now(),
  refused?: Pick<RequestContext, "plan">,
): Caller {
  if (!record) throw invalidKey(param);
  const status = keyStatus(record, at);
  if (!allowInactive) {
    if (refused && !isUsable(status)) refused.plan = record.plan;
    if (status === "revoked") throw new ApiError(403, "key_revoked", "This API key was revoked by the operator.", param);
    if (status === "expired") throw new ApiError(403, "key_expired", expiredDetail(record), param);
  }
  const limit = isUsable(status) ? DAILY_LIMITS[record.plan] : 0;
  return { plan: record.plan, bucket: keyBucket(record.id), key: record, param, limit, at };
}

/** The detail of a 403 `key_expired`: how to renew (the same transfer as the first year, with the key's own reference). */
function expiredDetail(record: KeyRecord): string {
  return (
    `This API key expired at ${record.expires_at}. To renew it for a year, transfer ${count(ANNUAL_PRICE_KRW)} KRW to the account of the ` +
    `payment instructions (POST /subscribe) with ${paymentReference(record.id)} as the depositor name; the key works again once the deposit is confirmed.`
  );
}

/** The challenge of a 401 for an API key (RFC 9110 §15.5.2: a 401 names how to authenticate). */
export const API_KEY_CHALLENGE = 'ApiKey realm="quiz", header="X-API-Key", query="api_key"';

/** A 401 `invalid_key` about the key in `param`, with the challenge saying where a key goes. */
function invalidKey(
  param: PresentedKey["param"] | "Authorization",
  detail = "The API key is not valid. Keys look like hj_ followed by 32 letters and digits; get one from POST /subscribe.",
): ApiError {
  return new ApiError(401, "invalid_key", detail, param, { "WWW-Authenticate": API_KEY_CHALLENGE });
}

/** Outcome of metering one call: the headers to send and what the body's `quota` says. */
export interface Metered {
  headers: Record<string, string>;
  quota: { plan: Plan; remaining: number };
}

/**
 * Counts one call on the day of `caller.at`, then answers with `next`; over the limit it throws
 * `429 quota_exceeded` carrying the headers and `Retry-After`. Synchronous when the store counts
 * synchronously (the memory store); with a store that answers later, `next` runs in the same
 * callback as the count's result rather than one promise later. When the store refuses to count
 * on a key record it answered from memory (`KeyChangedError`: a key changed since), the key is read
 * again and the call counted on the current record; `mayReread` false (that second count) does not.
 */
export function meter<R>(config: MeterConfig, caller: Caller, next: (metered: Metered) => R | Promise<R>, mayReread = true): R | Promise<R> {
  const today = quotaDay(caller.at, config.offsetMinutes);
  const counting = config.store.consume(caller.bucket, today.day, caller.limit);
  if (caller.key === null || !(counting instanceof Promise)) return andThen(counting, (counted) => next(metered(config, caller, today, counted)));
  const { hash } = caller.key;
  const { param } = caller;
  return counting.then(
    (counted) => next(metered(config, caller, today, counted)),
    (error: unknown) => {
      if (!(error instanceof KeyChangedError)) throw error;
      // The record came from memory and a key has changed since; nothing was counted. Read the key
      // again, not from memory, and count on what it now is. That count has no reason to fail so;
      // should the store say so again, the call is answered "try again" rather than looping.
      if (!mayReread) throw new StoreUnavailableError("quota store: the key changed again while its call was counted");
      return andThen(config.store.keyByHash(hash), (record) => meter(config, callerOf(config, record, false, param), next, false));
    },
  );
}

/** What the 429 of a plan adds: how to get more calls. */
function moreCalls(config: MeterConfig, plan: Plan): string {
  const subscribe = config.subscribePath ?? "/quiz/v1/subscribe";
  if (plan === "demo")
    return ` For more, apply for a key with POST ${subscribe} (${DAILY_LIMITS.free} calls a day at once, ${count(DAILY_LIMITS.annual)} on the annual plan) and send it in X-API-Key.`;
  if (plan === "free")
    return ` The annual plan (${count(DAILY_LIMITS.annual)} calls a day) starts once the deposit named in the payment instructions of POST ${subscribe} is confirmed.`;
  return "";
}

function metered(config: MeterConfig, caller: Caller, { resetsAt, resetEpochSeconds, secondsToReset }: QuotaDay, { allowed, used }: ConsumeResult): Metered {
  const { limit } = caller;
  const remaining = Math.max(0, limit - used);
  const headers = {
    "RateLimit-Policy": `"daily";q=${limit};w=86400`,
    RateLimit: `"daily";r=${remaining};t=${secondsToReset}`,
    "X-RateLimit-Limit": String(limit),
    "X-RateLimit-Remaining": String(remaining),
    "X-RateLimit-Reset": resetEpochSeconds,
  };
  if (!allowed) {
    throw new ApiError(
      429,
      "quota_exceeded",
      `The daily limit of ${limit} calls for the ${caller.plan} plan is used up; it resets at ${resetsAt.toISOString()}.${moreCalls(config, caller.plan)}`,
      undefined,
      {
        ...headers,
        "Retry-After": String(secondsToReset),
        "Cache-Control": "no-store",
      },
    );
  }
  return { headers, quota: { plan: caller.plan, remaining } };
}

/** What the metering of interface B needs besides the store and the clock. */
export interface MeteringConfig extends MeterConfig {
  /** Trusted reverse-proxy hops in front of the server (0: use the socket's peer). */
  trustProxyHops: number;
  /** The app's body sender. */
  sendBody: Send;
}

/** The members a metered operation answers with: JSON text, or a `SizedText`; later when it signs (a quiz's ids). */
type Answer = string | Members | Promise<string | Members>;
/** Members with their UTF-8 length known, and the status when it is not `200` (a class quiz made: `201`). */
type Members = SizedText & { status?: number };

/** A metered operation's handler: the request, its context and its declared parameters' values. */
export type MeteredHandler<V> = (request: RequestLike, ctx: RequestContext, params: V) => Reply | Promise<Reply>;

/** The metering of interface B's routes. */
export interface Metering {
  /**
   * The handler of a metered route. Its parameters arrive parsed (the router parses them before
   * the handler runs); `check` validates what they must satisfy together and gives what `answer`
   * needs, all before the caller is identified and the call counted (a 400 is not metered).
   * `answer` returns the body's members as JSON text (`"quiz":{…}`), framed with `success` and
   * `quota`; as a `SizedText` when it knows its UTF-8 length. It is told the caller (the key a class
   * quiz is made with).
   */
  metered<V, P>(check: (params: V) => P, answer: (checked: P, caller: Caller) => Answer): MeteredHandler<V>;
  /** The caller of a request, uncounted (`GET /me`, which also reports inactive keys). */
  caller(request: RequestLike, ctx: RequestContext): Caller | Promise<Caller>;
  /** The client IP a request is metered by (after the trusted proxy hops), looked up once per request. */
  ipOf(request: RequestLike, ctx: RequestContext): string;
}

/** The metering of one app's interface B. */
export function createMetering(config: MeteringConfig): Metering {
  const { sendBody } = config;
  const ipOf = (request: RequestLike, ctx: RequestContext) =>
    (ctx.clientIp ??= clientIp(ctx.clientAddress, request.headers.get("x-forwarded-for"), config.trustProxyHops));

  /** The body of a counted call: the members `answer` gives, framed with `success` and `quota`. */
  const reply = (request: RequestLike, answer: () => Answer, { headers, quota }: Metered): Reply | Promise<Reply> => {
    // An error after the count still carries the rate-limit headers.
    const withHeaders = (error: unknown) => {
      if (error instanceof ApiError) throw new ApiError(error.status, error.code, error.detail, error.param, { ...error.headers, ...headers });
      throw error;
    };
    const send = (members: string | Members) => {
      const sized = typeof members !== "string";
      // The framing is ASCII: the body's UTF-8 length is its length plus the members' extra bytes.
      const body = `{"success":true,${sized ? members.text : members},"quota":{"plan":"${quota.plan}","remaining":${quota.remaining}}}`;
      return sendBody(request, body, {
        caching: "no-store",
        headers,
        byteLength: sized ? body.length + members.extraBytes : undefined,
        status: sized ? members.status : undefined,
      });
    };
    try {
      const members = answer();
      return members instanceof Promise ? members.then(send, withHeaders) : send(members);
    } catch (error) {
      return withHeaders(error);
    }
  };

  return {
    metered:
      <V, P>(check: (params: V) => P, answer: (checked: P, caller: Caller) => Answer) =>
      (request: RequestLike, ctx: RequestContext, values: V): Reply | Promise<Reply> => {
        const params = check(values);
        // Valid: from here on the call is decided on (served, or refused for its key, quota or store).
        ctx.metered = "pending";
        // The router split the query when the operation declares query parameters; else it is split here, for `api_key`.
        return andThen(
          identify(config, presentedKey(request, ctx.rawQuery ?? queryOf(request.url)), () => ipOf(request, ctx), false, ctx),
          (caller) => {
            ctx.plan = caller.plan;
            return meter(config, caller, (counted) => {
              ctx.metered = "served";
              return reply(request, () => answer(params, caller), counted);
            });
          },
        );
      },
    caller: (request, ctx) =>
      andThen(
        identify(config, presentedKey(request, queryOf(request.url)), () => ipOf(request, ctx), true),
        (caller) => {
          ctx.plan = caller.plan;
          return caller;
        },
      ),
    ipOf,
  };
}
