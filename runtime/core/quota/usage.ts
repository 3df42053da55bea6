/**
 * A key's usage history as the service shows it: `GET /me` the last 30 days (every day, 0 for a
 * day without calls), the admin route and `keys usage` the whole history kept (the days with
 * calls). The store keeps it (`QuotaStore.usage`) with the count itself.
 */
import { firstKeptUsageDay } from "./retention.ts";
import type { DailyUsage, QuotaStore } from "./store.ts";

const DAY_MS = 86_400_000;

/** Days of history `GET /me` shows. */
export const RECENT_USAGE_DAYS = 30;

/** The `count` days (`YYYY-MM-DD`) ending with `today`, oldest first. */
export function daysEndingOn(today: string, count: number): string[] {
  const end = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(end - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/** Key `id`'s calls on each of the `days` days ending with `today`, oldest first, 0 for a day without calls. */
export async function recentUsage(store: QuotaStore, id: string, today: string, days = RECENT_USAGE_DAYS): Promise<DailyUsage[]> {
  const dates = daysEndingOn(today, days);
  const counted = new Map((await store.usage(id, dates[0] as string, today)).map(({ date, calls }) => [date, calls]));
  return dates.map((date) => ({ date, calls: counted.get(date) ?? 0 }));
}

/** Key `id`'s whole history kept at `now` (`USAGE_KEEP_DAYS`), up to `today`: the days with calls, oldest first, and their sum. */
export async function usageHistory(
  store: QuotaStore,
  id: string,
  now: Date,
  today: string,
): Promise<{ from: string; to: string; total_calls: number; usage: DailyUsage[] }> {
  const from = firstKeptUsageDay(now);
  const usage = await store.usage(id, from, today);
  return { from, to: today, total_calls: usage.reduce((sum, day) => sum + day.calls, 0), usage };
}
