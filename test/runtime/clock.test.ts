/** The metering day (docs/rules.md "Interface B"): the calendar day at the configured offset, remembered per day. */
import { describe, expect, it } from "vitest";
import { quotaDay } from "../../runtime/core/quota/clock.ts";

describe("quotaDay", () => {
  it("names the day at the offset and counts the seconds to its next midnight", () => {
    // 2026-11-21 14:59:59 UTC is 23:59:59 in Seoul (+09:00).
    const before = quotaDay(new Date("2026-11-21T14:59:59Z"), 540);
    expect(before.day).toBe("2026-11-21");
    expect(before.resetsAt.toISOString()).toBe("2026-11-21T15:00:00.000Z");
    expect(before.secondsToReset).toBe(1);
    expect(before.resetEpochSeconds).toBe(String(Date.parse("2026-11-21T15:00:00Z") / 1000));
    const after = quotaDay(new Date("2026-11-21T15:00:00Z"), 540);
    expect(after.day).toBe("2026-11-22");
    expect(after.resetsAt.toISOString()).toBe("2026-11-22T15:00:00.000Z");
    expect(after.secondsToReset).toBe(86_400);
    expect(after.resetEpochSeconds).toBe(String(Date.parse("2026-11-22T15:00:00Z") / 1000));
  });

  it("gives each call its own seconds within a day, and recomputes for another offset or another day", () => {
    const at = (iso: string, offset: number) => quotaDay(new Date(iso), offset);
    expect(at("2026-11-21T03:00:00Z", 540).secondsToReset).toBe(12 * 3600);
    expect(at("2026-11-21T09:00:00Z", 540).secondsToReset).toBe(6 * 3600);
    expect(at("2026-11-21T09:00:00Z", 0)).toMatchObject({
      day: "2026-11-21",
      secondsToReset: 15 * 3600,
      resetEpochSeconds: String(Date.parse("2026-11-22T00:00:00Z") / 1000),
    });
    expect(at("2026-11-21T09:00:00Z", -300).day).toBe("2026-11-21");
    expect(at("2026-11-21T03:00:00Z", -300).day).toBe("2026-11-20");
    expect(at("2026-11-21T09:00:00Z", 540).day).toBe("2026-11-21");
  });
});
