/**
 * `keys usage <id>`: a key's usage history as the store keeps it (`USAGE_KEEP_DAYS`), one JSON
 * line per day with calls, oldest first, and a sum on stderr; the same as
 * `GET /admin/keys/{id}/usage`.
 */
import { OPTION_RULES } from "../core/appOptions.ts";
import { parseOffset, quotaDay } from "../core/quota/clock.ts";
import { USAGE_KEEP_DAYS } from "../core/quota/retention.ts";
import type { QuotaStore } from "../core/quota/store.ts";
import { usageHistory } from "../core/quota/usage.ts";

/** The command's lines of `keys --help`. */
export const USAGE_HELP = `  usage <id>                 the key's calls per day (metering days at
                             QUOTA_TZ_OFFSET) for the last ${USAGE_KEEP_DAYS} days, oldest first,
                             one JSON line per day with calls; the sum on stderr`;

/**
 * Minutes east of UTC of the metering day, from `QUOTA_TZ_OFFSET` (as the server reads it, with
 * createApp's default, `+09:00`); a malformed one is an `Error` naming the variable.
 */
export function meteringOffset(text = process.env.QUOTA_TZ_OFFSET || OPTION_RULES.quotaTzOffset.default): number {
  const minutes = parseOffset(text);
  if (minutes === null) throw new Error(`QUOTA_TZ_OFFSET must be an offset like +09:00, got "${text}"`);
  return minutes;
}

/**
 * Writes key `id`'s history with `write` (one line per day) and answers the summary line, or null
 * when there is no such key.
 */
export async function printUsage(store: QuotaStore, id: string, now: Date, offsetMinutes: number, write: (line: string) => void): Promise<string | null> {
  if ((await store.keyById(id)) === null) return null;
  const history = await usageHistory(store, id, now, quotaDay(now, offsetMinutes).day);
  for (const day of history.usage) write(`${JSON.stringify(day)}\n`);
  return `keys: ${id}: ${history.total_calls} calls on ${history.usage.length} days from ${history.from} to ${history.to}`;
}
