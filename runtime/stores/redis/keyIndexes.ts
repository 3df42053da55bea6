/**
 * The Redis store's work that grows with the number of keys, in bounded steps over the indexes of
 * `indexScripts.ts`: keys in pages in creation order, the keys due for erasure, leases, and the
 * one-off indexing of keys stored before the indexes existed. No step reads the whole records hash
 * (one `HVALS` of a million keys blocked Redis, for every instance, for a second).
 */
import { erasableSince } from "../../core/quota/retention.ts";
import { type KeyPage, type KeyPageQuery, type KeyRecord, StoreUnavailableError } from "../../core/quota/store.ts";
import { ACQUIRE_LEASE, BUILD_INDEXES, INDEX_PAGE, RELEASE_LEASE } from "./indexScripts.ts";
import type { LuaScript, RedisKeys } from "./scripts.ts";

/** Keys indexed per step of the one-off indexing (`HSCAN` count). */
const BUILD_STEP = 500;
/** How long a page waits for an indexing under way before it answers 503 (well within the store's time bound). */
const BUILD_WAIT_MS = 200;

/** Runs a script (`RedisQuotaStore.script`), or one command. */
type RunScript = (operation: string, script: LuaScript, keys: string[], args: string[]) => Promise<unknown>;
type RunCommand = (operation: string, args: string[]) => Promise<unknown>;

/** The scripts this file runs, for the store to load. */
export const INDEX_SCRIPTS: readonly LuaScript[] = [INDEX_PAGE, BUILD_INDEXES, ACQUIRE_LEASE, RELEASE_LEASE];

/** The members a new key adds to the indexes (`INSERT_KEY`'s last arguments): `created`, then `erasable` ("" for none). */
export function indexMembers(record: KeyRecord): [string, string] {
  const since = erasableSince(record);
  return [`${record.created_at} ${record.id}`, since === null ? "" : `${since} ${record.id}`];
}

/** Pages, leases and indexing over one connection. */
export class RedisKeyIndexes {
  /** Set once the indexes are known to hold every key. */
  private indexed = false;
  /** The indexing under way, shared by every caller. */
  private building: Promise<void> | undefined;

  constructor(
    private readonly keys: RedisKeys,
    private readonly script: RunScript,
    private readonly command: RunCommand,
    private readonly toKeyRecord: (json: string) => KeyRecord,
  ) {}

  async keyPage(query: KeyPageQuery): Promise<KeyPage> {
    await this.ready();
    const backwards = query.oldestFirst !== true;
    const start = query.after ? `(${query.after}` : backwards ? "+" : "-";
    const page = await this.page("keyPage", this.keys.created, start, backwards ? "-" : "+", backwards, query.limit);
    return { ...page, keys: query.status === undefined ? page.keys : page.keys.filter((key) => key.status === query.status) };
  }

  async erasablePage(until: string, after: string | null, limit: number): Promise<KeyPage> {
    await this.ready();
    // "!" sorts right after the space that ends an instant in a member: every member of `until` is in.
    return this.page("erasablePage", this.keys.erasable, after ? `(${after}` : "-", `[${until}!`, false, limit);
  }

  async acquireLease(name: string, holder: string, ttlMs: number): Promise<boolean> {
    return Number(await this.script("acquireLease", ACQUIRE_LEASE, [this.keys.lease(name)], [holder, String(ttlMs)])) === 1;
  }

  async releaseLease(name: string, holder: string): Promise<void> {
    await this.script("releaseLease", RELEASE_LEASE, [this.keys.lease(name)], [holder]);
  }

  /**
   * Indexes the keys stored before the indexes existed, once per store: `HSCAN` of the records in
   * steps, each step's keys indexed by one script. Waited for when the store opens; should Redis
   * be away then, started by the first page asked for, which answers 503 until it is done.
   */
  async ready(wait = false): Promise<void> {
    if (this.indexed) return;
    this.building ??= this.build().finally(() => (this.building = undefined));
    if (wait) return this.building;
    // A build of a few steps finishes within the page's time; a long one is not waited for.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), BUILD_WAIT_MS)));
    const done = await Promise.race([this.building.then(() => true), late]).finally(() => clearTimeout(timer));
    if (!done) throw new StoreUnavailableError("redis store: indexing the keys stored before this version (once); try again in a few seconds", 5);
  }

  private async build(): Promise<void> {
    if ((await this.command("indexKeys", ["GET", this.keys.indexed])) === "1") {
      this.indexed = true;
      return;
    }
    let cursor = "0";
    do {
      const [next, entries] = (await this.command("indexKeys", ["HSCAN", this.keys.records, cursor, "COUNT", String(BUILD_STEP)])) as [string, string[]];
      const ids = entries.filter((_, i) => i % 2 === 0);
      if (ids.length > 0) await this.script("indexKeys", BUILD_INDEXES, [this.keys.records, this.keys.created, this.keys.erasable], ids);
      cursor = String(next);
    } while (cursor !== "0");
    await this.command("indexKeys", ["SET", this.keys.indexed, "1"]);
    this.indexed = true;
  }

  private async page(operation: string, index: string, start: string, stop: string, backwards: boolean, limit: number): Promise<KeyPage> {
    const reply = (await this.script(operation, INDEX_PAGE, [index, this.keys.records], [start, stop, backwards ? "1" : "0", String(limit)])) as string[];
    const keys: KeyRecord[] = [];
    for (let i = 1; i < reply.length; i += 2) if (reply[i]) keys.push(this.toKeyRecord(String(reply[i])));
    const members = reply.length / 2;
    return { keys, next: members === limit ? String(reply[reply.length - 2]) : null };
  }
}
