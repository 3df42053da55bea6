/**
 * Undoing a count or an application whose caller was answered 503. The store gives up on a
 * command after its time bound, but a command already sent still runs when Redis gets to it (after
 * a `DEBUG SLEEP`, a long script, a stalled network): without this, a call answered 503 would be
 * counted and an application answered 503 kept, its key never shown to the applicant.
 *
 * Each such script carries a request id and, in the same atomic run, leaves a marker under it that
 * lives `UNDO_WINDOW_SECONDS`: the indexes of the counters it counted (or "1" for an insertion).
 * The undo script reads the marker: when present it reverses exactly that and marks the id undone;
 * when absent the original has not run, and the undo leaves a tombstone under the id so that the
 * original, should it still arrive (on a connection lost meanwhile), changes nothing. So an undo is
 * exact whether it runs before or after the original, and idempotent: it may be sent again after a
 * reconnect, and never reverses more than the original did.
 */
import { ErrorReply } from "@redis/client";
import type { LuaScript } from "./scripts.ts";

/**
 * How long a marker (and a tombstone) lives. An undo is exact when it runs within this time of the
 * original: a late answer is undone at once on the same connection; an answer lost with its
 * connection, after the reconnect (the client retries every second at most). Short, because every
 * counting script that counts writes one marker (a turn's counts of keys share one) and Redis holds
 * a window's worth of them (their size: see RESULTS.md, "Undoing a call answered 503 on a slow Redis").
 */
export const UNDO_WINDOW_SECONDS = 60;

/** The marker of an id that was undone, and the tombstone of one undone before it ran. */
const UNDONE = "u";
const CANCELLED = "x";

/**
 * `script` with a request id's marker: the marker's name comes last in KEYS and the window last in
 * ARGV (removed before `script` runs, so its own KEYS and ARGV are unchanged). When the id has a
 * marker or tombstone already, nothing runs and the reply is nil. Else the script runs and
 * `applied`, a Lua expression over its reply `out`, gives what to keep in the marker (a string), or
 * nil when it changed nothing.
 */
export function undoable(script: LuaScript, applied: string): LuaScript {
  return {
    name: `${script.name}Undoable`,
    lua: `
local marker = table.remove(KEYS)
local window = table.remove(ARGV)
if redis.call('EXISTS', marker) == 1 then return false end
local out = (function()
${script.lua}
end)()
local applied = ${applied}
if applied then redis.call('SET', marker, applied, 'EX', window) end
return out`,
  };
}

/** The undo of `undoable(script)`: `reverse` runs with `applied`, the marker's value. KEYS[1]: the marker; ARGV[1]: the window. */
function undoScript(name: string, reverse: string): LuaScript {
  return {
    name,
    lua: `
local applied = redis.call('GET', KEYS[1])
if not applied then
  redis.call('SET', KEYS[1], '${CANCELLED}', 'EX', ARGV[1])
  return 'cancelled'
end
if applied == '${CANCELLED}' or applied == '${UNDONE}' then return 'already' end
${reverse}
redis.call('SET', KEYS[1], '${UNDONE}', 'EX', ARGV[1])
return 'undone'`,
  };
}

/** The Lua of `applied` for `CONSUME`: index 1 (its counter) when it counted. */
export const COUNTED_ONE = "out[1] == 1 and '1' or nil";

/**
 * The Lua of `applied` for `CONSUME_KEYS`: per count it counted, the index in KEYS of its counter
 * and its day in the history (the key after the counter), as `index@day`, comma-separated.
 */
export const COUNTED_KEYS = `(function()
  local counted = {}
  for c = 1, #out / 2 do
    if out[2 * c - 1] == 1 then counted[#counted + 1] = tostring(2 * c) .. '@' .. ARGV[(c - 1) * 5 + 5] end
  end
  if #counted == 0 then return nil end
  return table.concat(counted, ',')
end)()`;

/** The Lua of `applied` for `INSERT_KEY`: "1" when it stored the key. */
export const INSERTED = "out == 'ok' and '1' or nil";

/**
 * Undoes a `CONSUME` or `CONSUME_KEYS`. KEYS: the marker, then the original's KEYS (so index i of
 * the marker is KEYS[i + 1] here). Takes back one count per index listed, and for `index@day` the
 * same call from that day of the key's usage history (the key after the counter).
 */
export const UNDO_COUNTS: LuaScript = undoScript(
  "undoCounts",
  `
for entry in string.gmatch(applied, '[^,]+') do
  local index, day = string.match(entry, '^(%d+)@?(.*)$')
  local counter = KEYS[tonumber(index) + 1]
  if tonumber(redis.call('GET', counter) or '0') > 0 then redis.call('DECR', counter) end
  if day ~= '' then
    local history = KEYS[tonumber(index) + 2]
    if tonumber(redis.call('HGET', history, day) or '0') > 0 and redis.call('HINCRBY', history, day, -1) <= 0 then redis.call('HDEL', history, day) end
  end
end`,
);

/**
 * Undoes an `INSERT_KEY`. KEYS: the marker, records, hashes, pending, references, version, the
 * created and erasable indexes. ARGV: window, id, hash, e-mail key, payment reference, the key's
 * members of the two indexes (`indexMembers`; the erasable one may be empty). Removes the key and
 * what points to it, and changes the keys' version (instances drop their cached lookups).
 */
export const UNDO_INSERT: LuaScript = undoScript(
  "undoInsert",
  `
redis.call('HDEL', KEYS[2], ARGV[2])
if redis.call('HGET', KEYS[3], ARGV[3]) == ARGV[2] then redis.call('HDEL', KEYS[3], ARGV[3]) end
if redis.call('HGET', KEYS[4], ARGV[4]) == ARGV[2] then redis.call('HDEL', KEYS[4], ARGV[4]) end
if redis.call('HGET', KEYS[5], ARGV[5]) == ARGV[2] then redis.call('HDEL', KEYS[5], ARGV[5]) end
redis.call('INCR', KEYS[6])
redis.call('ZREM', KEYS[7], ARGV[6])
if ARGV[7] ~= '' then redis.call('ZREM', KEYS[8], ARGV[7]) end`,
);

/** One undo to make: `UNDO_COUNTS` or `UNDO_INSERT` with its keys and arguments (the window first). */
export interface Undo {
  script: LuaScript;
  keys: string[];
  args: string[];
}

/** What `Undos` needs of the connection. */
interface Connection {
  readonly isReady: boolean;
  sendCommand(args: string[]): Promise<unknown>;
}

/** A failed undo is sent again this long after (Redis busy or loading), or when the connection is back. */
const RETRY_MS = 1000;

/** An undo not yet acknowledged by Redis. */
interface Pending {
  undo: Undo;
  /** When it was first wanted (ms): past the window it can no longer be exact and is dropped. */
  since: number;
  sent: boolean;
}

/** The undos a store still owes: sent at once, and again after a failure until Redis acknowledges them. */
export class Undos {
  private readonly pending = new Set<Pending>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  /** Undos acknowledged by Redis (for tests and figures). */
  made = 0;

  constructor(
    private readonly connection: Connection,
    private readonly log: (message: string) => void,
  ) {}

  /** Undos not yet acknowledged. */
  get owed(): number {
    return this.pending.size;
  }

  /**
   * Watches a sent command whose caller may be answered 503: when it answers after `late()` became
   * true (the caller was told 503) or is lost with its connection (it may or may not have run), its
   * undo is made. A reply of Redis's own refusing it (an `ErrorReply`: `NOSCRIPT`, `BUSY`,
   * `LOADING`…) means it did not run: nothing to undo. `undo` makes the undo when one is needed
   * (rarely: not on the path of every call).
   */
  watch(sent: Promise<unknown>, late: () => boolean, undo: () => Undo): void {
    sent.then(
      () => {
        if (late()) this.add(undo());
      },
      (error: unknown) => {
        if (!(error instanceof ErrorReply)) this.add(undo());
      },
    );
  }

  /** Sends the undos owed that are not on their way (the connection is back, or a retry is due). */
  flush(): void {
    this.timer = undefined;
    const now = Date.now();
    for (const entry of this.pending) {
      if (entry.sent) continue;
      if (now - entry.since > UNDO_WINDOW_SECONDS * 1000) {
        this.pending.delete(entry);
        this.log(`redis store: an undo of a call answered 503 could not be made within ${UNDO_WINDOW_SECONDS} s; that call may stay counted`);
        continue;
      }
      this.send(entry);
    }
  }

  /** Gives up the undos still owed (the store is closed): says so, once, and stops retrying. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    const owed = this.pending.size;
    this.pending.clear();
    if (owed > 0) this.log(`redis store: closed with ${owed} undo(s) of calls answered 503 not made; those calls may stay counted`);
  }

  /** Makes `undo` (a count whose caller is answered 503 after it ran: its replication was not confirmed). */
  add(undo: Undo): void {
    if (this.stopped) {
      this.log("redis store: a call answered 503 was counted after the store closed, and cannot be undone");
      return;
    }
    const entry: Pending = { undo, since: Date.now(), sent: false };
    this.pending.add(entry);
    this.send(entry);
  }

  private send(entry: Pending): void {
    if (!this.connection.isReady) {
      this.retryLater();
      return;
    }
    entry.sent = true;
    const { script, keys, args } = entry.undo;
    // EVAL, not EVALSHA: undos are rare, and the text never meets NOSCRIPT.
    this.connection.sendCommand(["EVAL", script.lua, String(keys.length), ...keys, ...args]).then(
      () => {
        this.pending.delete(entry);
        this.made++;
      },
      () => {
        // Lost or refused: an undo may run twice, so it is simply sent again.
        entry.sent = false;
        this.retryLater();
      },
    );
  }

  private retryLater(): void {
    this.timer ??= setTimeout(() => this.flush(), RETRY_MS);
    // A pending undo does not keep a process alive that has nothing else to do.
    (this.timer as { unref?: () => void }).unref?.();
  }
}
