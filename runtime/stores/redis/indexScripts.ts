/**
 * The Redis store's indexes of keys and the scripts that read them, kept apart from the scripts
 * that count and change keys (`scripts.ts`, which maintain the indexes in the same scripts):
 * - `{keys}:created`: sorted set, every score 0, member `<created_at> <id>` for every key: keys in
 *   creation order, read a page at a time (`ZRANGE … BYLEX`) for the listing and the export;
 * - `{keys}:erasable`: sorted set, every score 0, member `<since> <id>` for each key whose personal
 *   data is kept and whose retention clock runs (pending: since `created_at`; revoked: since
 *   `revoked_at`): the retention sweep reads only what is due;
 * - `{keys}:indexed`: "1" once the two indexes hold every key (data written before they existed is
 *   indexed once, in steps, by `BUILD_INDEXES`);
 * - `lease:<name>`: a lease (`ACQUIRE_LEASE`), the holder's id, expiring by itself.
 * The members sort as text; ISO 8601 instants of one format sort by time.
 */
import type { LuaScript } from "./luaScript.ts";

/** Lua: the `{keys}:erasable` member of a decoded key record, or nil when it has none. */
export const ERASABLE_MEMBER_LUA = `
local function erasable_member(key)
  if key.erased_at ~= nil and key.erased_at ~= cjson.null then return nil end
  local since = nil
  if key.status == 'pending_deposit' then since = key.created_at elseif key.status == 'revoked' then since = key.revoked_at end
  if type(since) ~= 'string' then return nil end
  return since .. ' ' .. key.id
end`;

/**
 * KEYS: an index (`created` or `erasable`), records. ARGV: start and stop (`ZRANGE … BYLEX` bounds,
 * in the walk's order), "1" to walk backwards, the page size. Returns member, record JSON, member,
 * record JSON, … (`""` for a record gone). Cost: the page size, whatever the index holds.
 */
export const INDEX_PAGE: LuaScript = {
  name: "indexPage",
  lua: `
local members
if ARGV[3] == '1' then
  members = redis.call('ZRANGE', KEYS[1], ARGV[1], ARGV[2], 'BYLEX', 'REV', 'LIMIT', 0, ARGV[4])
else
  members = redis.call('ZRANGE', KEYS[1], ARGV[1], ARGV[2], 'BYLEX', 'LIMIT', 0, ARGV[4])
end
local out = {}
for _, member in ipairs(members) do
  out[#out + 1] = member
  out[#out + 1] = redis.call('HGET', KEYS[2], string.match(member, '(%S+)$')) or ''
end
return out`,
};

/**
 * KEYS: records, created, erasable. ARGV: key ids. Adds each key's index members, read from its
 * record as it is now, in the same script: run over the ids of an `HSCAN` while other instances
 * change keys, the indexes end up exact (the scripts that change keys keep them so meanwhile).
 */
export const BUILD_INDEXES: LuaScript = {
  name: "buildIndexes",
  lua: `${ERASABLE_MEMBER_LUA}
for _, id in ipairs(ARGV) do
  local json = redis.call('HGET', KEYS[1], id)
  if json then
    local key = cjson.decode(json)
    redis.call('ZADD', KEYS[2], 0, key.created_at .. ' ' .. id)
    local member = erasable_member(key)
    if member then redis.call('ZADD', KEYS[3], 0, member) end
  end
end
return #ARGV`,
};

/**
 * KEYS: the lease. ARGV: holder, milliseconds. `SET NX PX`, and a renewal when the holder already
 * holds it. Returns 1 when the holder holds the lease now, 0 when another does.
 */
export const ACQUIRE_LEASE: LuaScript = {
  name: "acquireLease",
  lua: `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if holder then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`,
};

/** KEYS: the lease. ARGV: holder. Deletes the lease if this holder still holds it. */
export const RELEASE_LEASE: LuaScript = {
  name: "releaseLease",
  lua: `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`,
};
