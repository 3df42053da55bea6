/**
 * The Redis store's layout and its Lua scripts. Each `QuotaStore` operation that reads and then
 * writes is one script, which Redis runs to completion before any other command: that is what
 * makes counts exact and a revocation final across any number of server processes.
 *
 * Layout under the prefix (`hanja:` by default):
 * - `count:<day>:<bucket>`: a day's count of one bucket, a string holding an integer, expiring two
 *   days after its day began (UTC), so counters never pile up. One key per counter: counters spread
 *   over a Redis Cluster's slots.
 * - `{keys}:records`: hash, key id → the key record as JSON (plus `email_key`, the lower-cased e-mail).
 * - `{keys}:hashes`: hash, SHA-256 of the key → key id.
 * - `{keys}:pending`: hash, lower-cased e-mail → id of the key awaiting its deposit.
 * - `{keys}:version`: a counter every change to a key increments, so a server may keep key
 *   records in memory for as long as it reads the same version.
 * The three key hashes share the hash tag `{keys}`, so every script over them touches one Cluster
 * slot, and each script declares every key it touches.
 */

/** The Redis key names under `prefix`. */
export interface RedisKeys {
  records: string;
  hashes: string;
  pending: string;
  version: string;
  counter(bucket: string, day: string): string;
}

export function redisKeys(prefix: string): RedisKeys {
  return {
    records: `${prefix}{keys}:records`,
    hashes: `${prefix}{keys}:hashes`,
    pending: `${prefix}{keys}:pending`,
    version: `${prefix}{keys}:version`,
    counter: (bucket, day) => `${prefix}count:${day}:${bucket}`,
  };
}

/** A Lua script and how many of its arguments are key names. */
export interface LuaScript {
  name: string;
  lua: string;
  keys: number;
}

/**
 * KEYS: counter. ARGV: limit, seconds to live. Returns `{allowed (0|1), used}`. A limit of 0 creates
 * nothing. The expiry is set with the first count, so it never moves.
 */
export const CONSUME: LuaScript = {
  name: "consume",
  keys: 1,
  lua: `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return {0, used} end
used = redis.call('INCR', KEYS[1])
if used == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return {1, used}`,
};

/**
 * KEYS: records, hashes, pending, version. ARGV: id, hash, record JSON, e-mail key, "1" if pending.
 * Returns `ok`, `duplicate` (a pending key with this e-mail exists) or `exists` (id or hash taken).
 */
export const INSERT_KEY: LuaScript = {
  name: "insertKey",
  keys: 4,
  lua: `
if ARGV[5] == '1' and redis.call('HEXISTS', KEYS[3], ARGV[4]) == 1 then return 'duplicate' end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 or redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return 'exists' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
if ARGV[5] == '1' then redis.call('HSET', KEYS[3], ARGV[4], ARGV[1]) end
redis.call('INCR', KEYS[4])
return 'ok'`,
};

/** KEYS: hashes, records. ARGV: hash. Returns the record JSON, or nil. */
export const KEY_BY_HASH: LuaScript = {
  name: "keyByHash",
  keys: 2,
  lua: `
local id = redis.call('HGET', KEYS[1], ARGV[1])
if not id then return false end
return redis.call('HGET', KEYS[2], id)`,
};

/**
 * KEYS: records, pending, version. ARGV: id, patch JSON (fields to set). Returns the record JSON as it now
 * is, or nil when there is no such key. A revoked key is returned unchanged: a revocation is final
 * whatever another process tries at the same moment. A key that stops awaiting its deposit frees
 * its e-mail for a new application.
 */
export const UPDATE_KEY: LuaScript = {
  name: "updateKey",
  keys: 3,
  lua: `
local json = redis.call('HGET', KEYS[1], ARGV[1])
if not json then return false end
local key = cjson.decode(json)
if key.status == 'revoked' then return json end
local was_pending = key.status == 'pending_deposit'
for field, value in pairs(cjson.decode(ARGV[2])) do key[field] = value end
if was_pending and key.status ~= 'pending_deposit' and redis.call('HGET', KEYS[2], key.email_key) == ARGV[1] then
  redis.call('HDEL', KEYS[2], key.email_key)
end
json = cjson.encode(key)
redis.call('HSET', KEYS[1], ARGV[1], json)
redis.call('INCR', KEYS[3])
return json`,
};
