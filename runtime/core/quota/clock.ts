/** The metering day (docs/rules.md "Interface B"): the calendar day at a fixed UTC offset, Asia/Seoul (+09:00) by default. */

export interface QuotaDay {
  /** `YYYY-MM-DD` at the offset. */
  day: string;
  /** The next midnight at the offset. */
  resetsAt: Date;
  /** The same instant in whole epoch seconds, as text (`X-RateLimit-Reset`). */
  resetEpochSeconds: string;
  /** Whole seconds until then (at least 1). */
  secondsToReset: number;
}

/** Parses `+09:00`, `-05:30`, `Z` into minutes east of UTC; null when malformed. */
export function parseOffset(text: string): number | null {
  if (text === "Z" || text === "+00:00" || text === "-00:00") return 0;
  const match = /^([+-])(\d{2}):(\d{2})$/.exec(text);
  if (!match) return null;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  if (Number(match[2]) > 14 || Number(match[3]) > 59) return null;
  return match[1] === "-" ? -minutes : minutes;
}

/** The metering day containing `now` at `offsetMinutes` east of UTC. */
export function quotaDay(now: Date, offsetMinutes: number): QuotaDay {
  const shifted = now.getTime() + offsetMinutes * 60_000;
  const dayStart = Math.floor(shifted / 86_400_000) * 86_400_000;
  // Every call of a day shares its name and reset time (formatting a date costs more than the rest).
  if (last.dayStart !== dayStart || last.offsetMinutes !== offsetMinutes) {
    const reset = dayStart + 86_400_000 - offsetMinutes * 60_000;
    last = {
      dayStart,
      offsetMinutes,
      day: new Date(dayStart).toISOString().slice(0, 10),
      resetsAt: new Date(reset),
      resetEpochSeconds: String(Math.floor(reset / 1000)),
    };
  }
  const { day, resetsAt, resetEpochSeconds } = last;
  return { day, resetsAt, resetEpochSeconds, secondsToReset: Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000)) };
}

let last = { dayStart: Number.NaN, offsetMinutes: 0, day: "", resetsAt: new Date(0), resetEpochSeconds: "0" };
