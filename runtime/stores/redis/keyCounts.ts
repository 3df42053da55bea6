/**
 * The counts of keys' calls, sent together: every count asked for in one turn of the event loop
 * goes to Redis as one `CONSUME_KEYS` script after the turn, as the SQLite store commits a turn's
 * counts in one transaction. A busy server then pays one command, one reply and one time bound per
 * turn instead of per call; each count is still made against its own limit, in order, inside one
 * atomic script, so N concurrent calls against a limit L are served exactly min(N, L) times.
 * On one Redis the keys' counters and usage histories share the `{keys}` hash tag, so one script
 * takes them all; on a cluster each key's are in its own slot, and the turn's counts go as one
 * script per key (grouped by the version key, which is in the counters' slot).
 */
import type { ConsumeResult } from "../../core/quota/store.ts";
import { nextTurn } from "../../core/util/nextTurn.ts";

/** One count waiting for the end of the turn. */
interface Waiting {
  /** The key's bucket (`key:<id>`). */
  bucket: string;
  counter: string;
  /** The month's usage history of the key (`RedisKeys.usage`) and the day in it. */
  history: string;
  day: string;
  limit: string;
  ttl: string;
  historyTtl: string;
  /** The keys' version the record was read at, or `*`: nothing to check. */
  version: string;
  resolve: (result: ConsumeResult) => void;
  reject: (error: unknown) => void;
}

/** The seconds to live of a day's counter and of its usage history, as the script takes them. */
export interface CounterTtls {
  counter: string;
  history: string;
}

/** At most this many counts in one script (a larger turn sends several). */
const MAX_BATCH = 500;

/** Collects a turn's counts of keys and sends them as one script through `send`. */
export class KeyCounts {
  private waiting: Waiting[] = [];

  constructor(
    /** The version key of a bucket's counts: the script's first key. Counts with the same one go in one script. */
    private readonly versionKey: (bucket: string) => string,
    /** Runs `CONSUME_KEYS` with these keys and arguments, for counts of `bucket`'s slot; its reply is the flat list of results. */
    private readonly send: (keys: string[], args: string[], bucket: string) => Promise<unknown>,
    /** The error of a count refused because `version` is no longer current (nothing was counted). */
    private readonly changed: () => Error,
  ) {}

  /**
   * Counts one call on `counter` after this turn, and on `day` of the key's usage `history`;
   * rejects with `changed()` when `version` is no longer current.
   */
  count(bucket: string, counter: string, history: string, day: string, limit: number, ttl: CounterTtls, version = "*"): Promise<ConsumeResult> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) nextTurn(() => this.flush());
      this.waiting.push({ bucket, counter, history, day, limit: String(limit), ttl: ttl.counter, historyTtl: ttl.history, version, resolve, reject });
    });
  }

  private flush(): void {
    const groups = new Map<string, Waiting[]>();
    for (const count of this.waiting) {
      const key = this.versionKey(count.bucket);
      const group = groups.get(key);
      if (group === undefined) groups.set(key, [count]);
      else group.push(count);
    }
    this.waiting = [];
    for (const [versionKey, all] of groups)
      for (let start = 0; start < all.length; start += MAX_BATCH) this.sendBatch(versionKey, all.slice(start, start + MAX_BATCH));
  }

  private sendBatch(versionKey: string, batch: Waiting[]): void {
    const keys = [versionKey];
    const args: string[] = [];
    for (const count of batch) {
      keys.push(count.counter, count.history);
      args.push(count.limit, count.ttl, count.version, count.historyTtl, count.day);
    }
    this.send(keys, args, (batch[0] as Waiting).bucket).then(
      (reply) => {
        const results = reply as number[];
        for (const [i, count] of batch.entries()) {
          const allowed = Number(results[2 * i]);
          if (allowed === -1) count.reject(this.changed());
          else count.resolve({ allowed: allowed === 1, used: Number(results[2 * i + 1]) });
        }
      },
      (error: unknown) => {
        for (const count of batch) count.reject(error);
      },
    );
  }
}
