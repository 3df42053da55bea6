/**
 * The Redis store's layout and its Lua scripts. Each `QuotaStore` operation that reads and then
 * writes is one script, which Redis runs to completion before any other command: that is what
 * makes counts exact and a revocation final across any number of server processes.
 *
 * Layout under the prefix (`hanja:` by default):
 * - `count:<day>:<bucket>`: a day's count of one bucket without a key (`ip:<address>`), a string
 *   holding an integer, expiring two days after its day began (UTC), so counters never pile up. One
 *   key per counter: these counters spread over a Redis Cluster's slots.
 * - `{keys}:count:<day>:key:<id>`: the same for a key's calls, under the hash tag of the key
 *   records, so that one script can count the call and check that the keys' version is the one the
 *   server read the key's record at (`CONSUME_KEYS`), and a turn's counts of keys go in one script.
 * - `{keys}:usage:key:<id>:<YYYY-MM>`: hash, day (`YYYY-MM-DD`) → the key's calls counted that day:
 *   its usage history, one hash per key and month, counted by the same script as the day's counter
 *   (`CONSUME_KEYS`) and living until `USAGE_KEEP_DAYS` after its last day (`counterLife.ts`).
 * - `{keys}:records`: hash, key id → the key record as JSON (plus `email_key`, the lower-cased e-mail).
 * - `{keys}:hashes`: hash, SHA-256 of the key → key id.
 * - `{keys}:pending`: hash, lower-cased e-mail → id of the key awaiting its deposit (its personal
 *   data not erased: an erased application holds no e-mail).
 * - `{keys}:references`: hash, payment reference → id of the key awaiting its deposit, so a
 *   reference is unique among open applications (erased or not: a late deposit still names it).
 * - `{keys}:version`: a counter every change to a key increments, so a server may keep key
 *   records in memory for as long as it reads the same version.
 * - `{keys}:undo:<request id>` and `{<counter's name>}:undo:<request id>`: the marker a counting or
 *   inserting script leaves for `UNDO_WINDOW_SECONDS` so that a call answered 503 can be undone
 *   exactly if it ran after all (`undo.ts`), in the slot of the keys it changed.
 * - `{keys}:created`, `{keys}:erasable`, `{keys}:indexed`, `lease:<name>`: the key indexes and the
 *   leases (`indexScripts.ts`), kept by the scripts below that insert, change and erase keys.
 * The four key hashes, the version, the indexes and the keys' counters share the hash tag `{keys}`, so every
 * script over them touches one Cluster slot, and each script declares every key it touches.
 *
 * On a Redis Cluster (`REDIS_CLUSTER=1`) the keys' counts are spread over the slots instead: a key's
 * counters, usage history and count markers share the hash tag of its bucket, `{key:<id>}`
 * (`{key:<id>}:count:<day>`, `{key:<id>}:usage:<YYYY-MM>`, `{key:<id>}:undo:<request id>`), so a
 * key's counts are one script on its own slot and the keys' counts spread as the keys do. The
 * version check goes with them: a count's script cannot read `{keys}:version` on another slot, so on
 * a cluster no record is answered from memory without the turn's read of the version (`keyByHash`),
 * and the script is given `*` (nothing to check) against `{key:<id>}:version`, a name in the key's
 * slot that nothing writes. The rest (`{keys}`, the demo counters, leases, class quizzes) is named
 * as on one Redis.
 */

import { isKeyBucket } from "../../core/quota/store.ts";
import { ERASABLE_MEMBER_LUA } from "./indexScripts.ts";
import type { LuaScript } from "./luaScript.ts";

/** The Redis key names under `prefix`. */
export interface RedisKeys {
  prefix: string;
  records: string;
  hashes: string;
  pending: string;
  references: string;
  version: string;
  /** The key indexes and their marker (`indexScripts.ts`). */
  created: string;
  erasable: string;
  indexed: string;
  lease(name: string): string;
  counter(bucket: string, day: string): string;
  /** The month's usage history of a key's bucket, holding `day`. */
  usage(bucket: string, day: string): string;
  /** The marker of an undoable script on the keys (`undo.ts`). */
  undoMarker(requestId: string): string;
  /** The version key a key's counts are checked against (`CONSUME_KEYS`' first key), in its counters' slot. */
  countVersion(bucket: string): string;
  /** The marker of a count of a key's calls, in its counters' slot. */
  countMarker(bucket: string, requestId: string): string;
}

export function redisKeys(prefix: string, cluster = false): RedisKeys {
  const single: RedisKeys = {
    prefix,
    records: `${prefix}{keys}:records`,
    hashes: `${prefix}{keys}:hashes`,
    pending: `${prefix}{keys}:pending`,
    references: `${prefix}{keys}:references`,
    version: `${prefix}{keys}:version`,
    undoMarker: (requestId) => `${prefix}{keys}:undo:${requestId}`,
    created: `${prefix}{keys}:created`,
    erasable: `${prefix}{keys}:erasable`,
    indexed: `${prefix}{keys}:indexed`,
    lease: (name) => `${prefix}lease:${name}`,
    usage: (bucket, day) => `${prefix}{keys}:usage:${bucket}:${day.slice(0, 7)}`,
    counter: (bucket, day) => (isKeyBucket(bucket) ? `${prefix}{keys}:count:${day}:${bucket}` : `${prefix}count:${day}:${bucket}`),
    countVersion: () => `${prefix}{keys}:version`,
    countMarker: (_bucket, requestId) => `${prefix}{keys}:undo:${requestId}`,
  };
  if (!cluster) return single;
  return {
    ...single,
    usage: (bucket, day) => `${prefix}{${bucket}}:usage:${day.slice(0, 7)}`,
    counter: (bucket, day) => (isKeyBucket(bucket) ? `${prefix}{${bucket}}:count:${day}` : `${prefix}count:${day}:${bucket}`),
    countVersion: (bucket) => `${prefix}{${bucket}}:version`,
    countMarker: (bucket, requestId) => `${prefix}{${bucket}}:undo:${requestId}`,
  };
}

export type { LuaScript } from "./luaScript.ts";

/**
 * KEYS: counter. ARGV: limit, seconds to live. Returns `{allowed (0|1), used}`. A limit of 0 creates
 * nothing. The expiry is set with the first count, so it never moves.
 */
export const CONSUME: LuaScript = {
  name: "consume",
  lua: `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return {0, used} end
used = redis.call('INCR', KEYS[1])
if used == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return {1, used}`,
};

/**
 * The counts of keys' calls made in one turn of the event loop, in one script. KEYS: the keys'
 * version, then per count its counter and its month's usage history (a counter may come more than
 * once). ARGV: per count, its limit, its counter's seconds to live, the version its key's record
 * was read at (`*`: not read from memory, nothing to check), its history's seconds to live and its
 * day. Returns, per count, `allowed (0|1), used` as `CONSUME`, or `-1, 0` without counting when the
 * version is no longer the one given (a key changed since). The counts are made in order, each
 * against its limit, as separate `CONSUME`s would be; a counted call adds one to its day in the
 * history in the same step, so the two never differ.
 */
export const CONSUME_KEYS: LuaScript = {
  name: "consumeKeys",
  lua: `
local version = redis.call('GET', KEYS[1]) or ''
local out = {}
for c = 1, (#KEYS - 1) / 2 do
  local k = 2 * c
  local a = (c - 1) * 5
  local expected = ARGV[a + 3]
  if expected ~= '*' and expected ~= version then
    out[#out + 1] = -1
    out[#out + 1] = 0
  else
    local used = tonumber(redis.call('GET', KEYS[k]) or '0')
    if used >= tonumber(ARGV[a + 1]) then
      out[#out + 1] = 0
    else
      used = redis.call('INCR', KEYS[k])
      if used == 1 then redis.call('EXPIRE', KEYS[k], ARGV[a + 2]) end
      if redis.call('HINCRBY', KEYS[k + 1], ARGV[a + 5], 1) == 1 then redis.call('EXPIRE', KEYS[k + 1], ARGV[a + 4]) end
      out[#out + 1] = 1
    end
    out[#out + 1] = used
  end
end
return out`,
};

/**
 * KEYS: records, hashes, pending, references, version, created, erasable. ARGV: id, hash, record
 * JSON, e-mail key, payment reference, "1" if pending, "1" if its personal data is erased (an
 * import), its `created` member, its `erasable` member ("" for none). Returns `ok`,
 * `duplicate` (a pending key with this e-mail exists), `reference` (a pending key has this payment
 * reference) or `exists` (id or hash taken). The e-mail is checked for a pending record whose data
 * is kept only, the reference for any (as the SQLite store does); both in the same script, so no
 * other instance can take either in between.
 */
export const INSERT_KEY: LuaScript = {
  name: "insertKey",
  lua: `
local pending = ARGV[6] == '1'
local holds_email = pending and ARGV[7] ~= '1'
if holds_email and redis.call('HEXISTS', KEYS[3], ARGV[4]) == 1 then return 'duplicate' end
if redis.call('HEXISTS', KEYS[4], ARGV[5]) == 1 then return 'reference' end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 or redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return 'exists' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
if pending then
  if holds_email then redis.call('HSET', KEYS[3], ARGV[4], ARGV[1]) end
  redis.call('HSET', KEYS[4], ARGV[5], ARGV[1])
end
redis.call('ZADD', KEYS[6], 0, ARGV[8])
if ARGV[9] ~= '' then redis.call('ZADD', KEYS[7], 0, ARGV[9]) end
redis.call('INCR', KEYS[5])
return 'ok'`,
};

/** KEYS: hashes, records. ARGV: hash. Returns the record JSON, or nil. */
export const KEY_BY_HASH: LuaScript = {
  name: "keyByHash",
  lua: `
local id = redis.call('HGET', KEYS[1], ARGV[1])
if not id then return false end
return redis.call('HGET', KEYS[2], id)`,
};

/**
 * KEYS: records, pending, references, version, erasable. ARGV: id, patch JSON (fields to set), the
 * key's payment reference. Returns the record JSON as it now is, or nil when there is no such key. A
 * revoked key is returned unchanged: a revocation is final whatever another process tries at the
 * same moment. A key that stops awaiting its deposit frees its e-mail and its payment reference
 * for a new application.
 */
export const UPDATE_KEY: LuaScript = {
  name: "updateKey",
  lua: `${ERASABLE_MEMBER_LUA}
local json = redis.call('HGET', KEYS[1], ARGV[1])
if not json then return false end
local key = cjson.decode(json)
if key.status == 'revoked' then return json end
local was_pending = key.status == 'pending_deposit'
local was_erasable = erasable_member(key)
for field, value in pairs(cjson.decode(ARGV[2])) do key[field] = value end
local erasable = erasable_member(key)
if was_erasable ~= erasable then
  if was_erasable then redis.call('ZREM', KEYS[5], was_erasable) end
  if erasable then redis.call('ZADD', KEYS[5], 0, erasable) end
end
if was_pending and key.status ~= 'pending_deposit' then
  if redis.call('HGET', KEYS[2], key.email_key) == ARGV[1] then redis.call('HDEL', KEYS[2], key.email_key) end
  if redis.call('HGET', KEYS[3], ARGV[3]) == ARGV[1] then redis.call('HDEL', KEYS[3], ARGV[3]) end
end
json = cjson.encode(key)
redis.call('HSET', KEYS[1], ARGV[1], json)
redis.call('INCR', KEYS[4])
return json`,
};

/**
 * KEYS: records, pending, version, erasable. ARGV: id, status, instant. Erases the key's personal data (name
 * and e-mail empty, phone and depositor null, `erased_at` the instant) if its status is still the
 * one given and it was not erased yet; frees its e-mail for a new application, keeps its payment
 * reference (a late deposit is still matched by it). Returns 1 when it erased, else 0.
 */
export const ERASE_APPLICANT: LuaScript = {
  name: "eraseApplicant",
  lua: `${ERASABLE_MEMBER_LUA}
local json = redis.call('HGET', KEYS[1], ARGV[1])
if not json then return 0 end
local key = cjson.decode(json)
if key.status ~= ARGV[2] or (key.erased_at ~= nil and key.erased_at ~= cjson.null) then return 0 end
if redis.call('HGET', KEYS[2], key.email_key) == ARGV[1] then redis.call('HDEL', KEYS[2], key.email_key) end
local erasable = erasable_member(key)
if erasable then redis.call('ZREM', KEYS[4], erasable) end
key.name = ''
key.email = ''
key.phone = cjson.null
key.depositor = cjson.null
key.email_key = ''
key.erased_at = ARGV[3]
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(key))
redis.call('INCR', KEYS[3])
return 1`,
};
