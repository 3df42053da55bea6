/**
 * The Redis store's class quizzes. Layout under the prefix:
 * - `{class:<code>}:record`: hash of the record (`json`) and what the scripts check (`closes`,
 *   `keep`: ISO instants; `max`: students), expiring at `keep_until`;
 * - `{class:<code>}:list`: the submissions as JSON, in the order stored; `{class:<code>}:names`:
 *   hash, name key → its position in the list (1-based). Both expire with the record;
 * - `{classes:<key id>}`: sorted set of the key's class quizzes by `keep_until` (ms), for its limit
 *   and its list, expiring with its last class quiz.
 * A class quiz's keys share a hash tag, so a submission is one script on one Cluster slot; the
 * key's set has its own: making a class quiz takes its room in the set (one script), then writes
 * the record (another). Records expire by themselves: `pruneClasses` has nothing to do.
 */
import {
  type ClassRecord,
  type ClassStore,
  type ClassSubmission,
  type ClassSummary,
  type StudentLookup,
  type SubmitOutcome,
  classSummary,
  newestFirst,
} from "../../core/classes/classStore.ts";
import type { LuaScript } from "./luaScript.ts";

type RunScript = (operation: string, script: LuaScript, keys: string[], args: string[]) => Promise<unknown>;
type RunCommand = (operation: string, args: string[]) => Promise<unknown>;

/**
 * KEYS: the key's set. ARGV: now (ms), the limit, keep_until (ms), the code. Drops the class quizzes
 * no longer kept, then adds the code unless the limit is reached; 1 when added. The set lives as
 * long as its longest-kept class quiz. Lifetimes are set as durations from the record's own
 * instants (`keep_until` less `created_at`), so a clock of the service's (a test's) is kept to.
 */
const RESERVE_CLASS: LuaScript = {
  name: "reserveClass",
  lua: `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
local life = tonumber(ARGV[3]) - tonumber(ARGV[1])
if redis.call('PTTL', KEYS[1]) < life then redis.call('PEXPIRE', KEYS[1], life) end
return 1`,
};

/** KEYS: the record. ARGV: its JSON, closes_at, keep_until, students_max, its life (ms: keep_until less created_at). */
const WRITE_CLASS: LuaScript = {
  name: "writeClass",
  lua: `
redis.call('HSET', KEYS[1], 'json', ARGV[1], 'closes', ARGV[2], 'keep', ARGV[3], 'max', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`,
};

/**
 * KEYS: the record, the names, the list. ARGV: the name key, the submission's JSON, now (ISO).
 * Returns the outcome: `missing`, `closed`, `taken`, `full` or `stored`.
 */
const SUBMIT: LuaScript = {
  name: "submitToClass",
  lua: `
local r = redis.call('HMGET', KEYS[1], 'closes', 'keep', 'max')
if not r[2] or r[2] <= ARGV[3] then return 'missing' end
if r[1] <= ARGV[3] then return 'closed' end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 'taken' end
if redis.call('HLEN', KEYS[2]) >= tonumber(r[3]) then return 'full' end
redis.call('HSET', KEYS[2], ARGV[1], redis.call('RPUSH', KEYS[3], ARGV[2]))
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[2], ttl)
  redis.call('PEXPIRE', KEYS[3], ttl)
end
return 'stored'`,
};

/** KEYS: the names, the list. ARGV: the name key. Returns the submission's JSON (or false) and how many have submitted. */
const STUDENT_OF: LuaScript = {
  name: "studentOf",
  lua: `
local at = redis.call('HGET', KEYS[1], ARGV[1])
local json = false
if at then json = redis.call('LINDEX', KEYS[2], tonumber(at) - 1) end
return {json, redis.call('HLEN', KEYS[1])}`,
};

/** The scripts this file runs, for the store to load. */
export const CLASS_SCRIPTS: readonly LuaScript[] = [RESERVE_CLASS, WRITE_CLASS, SUBMIT, STUDENT_OF];

const OUTCOMES: ReadonlySet<string> = new Set(["stored", "taken", "full", "closed", "missing"]);

export class RedisClasses implements ClassStore {
  constructor(
    private readonly prefix: string,
    private readonly script: RunScript,
    private readonly command: RunCommand,
  ) {}

  private record(code: string): string {
    return `${this.prefix}{class:${code}}:record`;
  }
  private names(code: string): string {
    return `${this.prefix}{class:${code}}:names`;
  }
  private list(code: string): string {
    return `${this.prefix}{class:${code}}:list`;
  }
  private ofKey(keyId: string): string {
    return `${this.prefix}{classes:${keyId}}`;
  }

  async insertClass(record: ClassRecord, maxKept: number): Promise<boolean> {
    const keep = String(Date.parse(record.keep_until));
    const reserved = await this.script(
      "insertClass",
      RESERVE_CLASS,
      [this.ofKey(record.key_id)],
      [String(Date.parse(record.created_at)), String(maxKept), keep, record.code],
    );
    if (Number(reserved) !== 1) return false;
    const life = String(Math.max(1, Date.parse(record.keep_until) - Date.parse(record.created_at)));
    const fields = [JSON.stringify(record), record.closes_at, record.keep_until, String(record.students_max), life];
    try {
      await this.script("insertClass", WRITE_CLASS, [this.record(record.code)], fields);
    } catch (error) {
      // The room taken is given back where Redis answers; otherwise it goes when the class quiz would have.
      this.command("insertClass", ["ZREM", this.ofKey(record.key_id), record.code]).catch(() => {});
      throw error;
    }
    return true;
  }

  async classByCode(code: string): Promise<ClassRecord | null> {
    const json = await this.command("classByCode", ["HGET", this.record(code), "json"]);
    return typeof json === "string" ? (JSON.parse(json) as ClassRecord) : null;
  }

  async classesOfKey(keyId: string, now: string): Promise<ClassSummary[]> {
    const codes = (await this.command("classesOfKey", ["ZRANGE", this.ofKey(keyId), `(${Date.parse(now)}`, "+inf", "BYSCORE"])) as string[];
    const held = await Promise.all(
      codes.map(async (code) => {
        const [json, students] = await Promise.all([
          this.command("classesOfKey", ["HGET", this.record(code), "json"]),
          this.command("classesOfKey", ["HLEN", this.names(code)]),
        ]);
        return typeof json === "string" ? classSummary(JSON.parse(json) as ClassRecord, Number(students)) : null;
      }),
    );
    return held.filter((summary): summary is ClassSummary => summary !== null && summary.keep_until > now).sort(newestFirst);
  }

  async studentOf(code: string, nameKey: string): Promise<StudentLookup> {
    const [json, students] = (await this.script("studentOf", STUDENT_OF, [this.names(code), this.list(code)], [nameKey])) as [string | null, number];
    return { submission: typeof json === "string" ? (JSON.parse(json) as ClassSubmission) : null, students: Number(students) };
  }

  async submitToClass(code: string, submission: ClassSubmission, now: string): Promise<SubmitOutcome> {
    const outcome = String(
      await this.script(
        "submitToClass",
        SUBMIT,
        [this.record(code), this.names(code), this.list(code)],
        [submission.name_key, JSON.stringify(submission), now],
      ),
    );
    if (!OUTCOMES.has(outcome)) throw new Error(`redis store: submitToClass: unexpected answer ${JSON.stringify(outcome)}`);
    return outcome as SubmitOutcome;
  }

  async classSubmissions(code: string): Promise<ClassSubmission[]> {
    const list = (await this.command("classSubmissions", ["LRANGE", this.list(code), "0", "-1"])) as string[];
    return list.map((json) => JSON.parse(json) as ClassSubmission);
  }

  pruneClasses(): number {
    return 0;
  }
}
