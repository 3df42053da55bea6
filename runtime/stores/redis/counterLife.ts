/**
 * How long the Redis store keeps a day's counts: a counter lives two days from its day's start, past
 * the day in any time zone, so counters never pile up; a key's usage history lives
 * `USAGE_KEEP_DAYS` past its day. Redis expires both by itself (nothing to prune).
 */
import { USAGE_KEEP_DAYS } from "../../core/quota/retention.ts";
import type { CounterTtls } from "./keyCounts.ts";

const DAY_MS = 86_400_000;
/** A counter lives until this long after its day began (UTC): past the day in any time zone. */
const COUNTER_LIFETIME_MS = 2 * DAY_MS;
/** A month of usage history lives until this long after the start of its last day counted (UTC): `USAGE_KEEP_DAYS` past the end of that day in any time zone. */
const HISTORY_LIFETIME_MS = (USAGE_KEEP_DAYS + 2) * DAY_MS;
/** And at least this long, so a day in the past (a test, a clock set back) still counts. */
const MIN_TTL_SECONDS = 86_400;

/** Seconds a counter of `day` lives from `now`. */
export function counterTtlSeconds(day: string, now = Date.now()): number {
  return ttlSeconds(Date.parse(`${day}T00:00:00Z`), COUNTER_LIFETIME_MS, now);
}

/** Seconds a month of usage history lives from `now` once `day` has been counted in it. */
export function historyTtlSeconds(day: string, now = Date.now()): number {
  return ttlSeconds(Date.parse(`${day}T00:00:00Z`), HISTORY_LIFETIME_MS, now);
}

function ttlSeconds(dayStart: number, lifetimeMs: number, now: number): number {
  if (Number.isNaN(dayStart)) return lifetimeMs / 1000;
  return Math.max(MIN_TTL_SECONDS, Math.ceil((dayStart + lifetimeMs - now) / 1000));
}

/**
 * The lifetimes of the day counted last, worked out again only when the day or the second
 * changes: a busy server counts many calls a second, and parsing a date costs more than the rest.
 */
export class DayLife {
  private last = { day: "", second: Number.NaN, start: Number.NaN, ttls: { counter: "", history: "" } };

  /** The seconds to live of `day`'s counters and history, as of `now`. */
  ttls(day: string, now = Date.now()): CounterTtls {
    const second = Math.floor(now / 1000);
    const last = this.last;
    if (last.day === day && last.second === second) return last.ttls;
    const start = last.day === day ? last.start : Date.parse(`${day}T00:00:00Z`);
    this.last = {
      day,
      second,
      start,
      ttls: { counter: String(ttlSeconds(start, COUNTER_LIFETIME_MS, now)), history: String(ttlSeconds(start, HISTORY_LIFETIME_MS, now)) },
    };
    return this.last.ttls;
  }
}
