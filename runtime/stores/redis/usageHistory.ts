/**
 * Reading a key's usage history from the Redis store: one hash per key and month
 * (`{keys}:usage:key:<id>:<YYYY-MM>`, day → calls; see `scripts.ts`), the months of a range read
 * together.
 */
import type { DailyUsage } from "../../core/quota/store.ts";

/**
 * The days from `fromDay` to `toDay` with counted calls, oldest first; `month(m)` reads the hash of
 * month `m` (`HGETALL`: a month holds at most 31 days).
 */
export async function readUsage(month: (name: string) => Promise<unknown>, fromDay: string, toDay: string): Promise<DailyUsage[]> {
  const replies = await Promise.all(monthsBetween(fromDay, toDay).map(month));
  const days: DailyUsage[] = [];
  for (const reply of replies) {
    const fields = historyFields(reply);
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const date = String(fields[i]);
      const calls = Number(fields[i + 1]);
      if (date >= fromDay && date <= toDay && calls > 0) days.push({ date, calls });
    }
  }
  return days.sort((a, b) => (a.date < b.date ? -1 : 1));
}

/** The months (`YYYY-MM`) from `fromDay`'s to `toDay`'s, at most 15 (the history kept spans 14): a longer range starts 15 months before `toDay`. */
export function monthsBetween(fromDay: string, toDay: string): string[] {
  const months: string[] = [];
  let [year, month] = [Number(toDay.slice(0, 4)), Number(toDay.slice(5, 7))];
  const first = fromDay.slice(0, 7);
  for (let i = 0; i < 15 && Number.isInteger(year) && month >= 1; i++) {
    const name = `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}`;
    if (name < first) break;
    months.push(name);
    [year, month] = month === 1 ? [year - 1, 12] : [year, month - 1];
  }
  return months;
}

/** An `HGETALL` reply as a flat list of fields and values (RESP2 gives a list; a RESP3 client, a map). */
function historyFields(reply: unknown): unknown[] {
  if (Array.isArray(reply)) return reply;
  if (reply instanceof Map) return [...reply].flat();
  return reply !== null && typeof reply === "object" ? Object.entries(reply).flat() : [];
}
