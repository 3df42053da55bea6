/**
 * The SQLite store's usage history (migration 4): a key's counter rows are its history, kept past
 * the pruning of the other counters; each prune reads along the partial index of its own kind, so
 * neither walks the rows the other keeps; a version 3 database keeps its counts through the step.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { keyBucket } from "../../runtime/core/quota/store.ts";
import { openDriver } from "../../runtime/stores/sqlite/driver.ts";
import { pruneSql } from "../../runtime/stores/sqlite/pages.ts";
import { openSqliteStore } from "../../runtime/stores/sqlite/sqliteStore.ts";

const dir = mkdtempSync(join(tmpdir(), "quota-usage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("SQLite usage history", () => {
  it("a version 3 database keeps its counts through migration 4; then a key's rows outlive pruneCounters and go with pruneUsage", async () => {
    const path = join(dir, "v3.sqlite");
    (await openSqliteStore(path)).close();
    // Back to version 3 as it shipped: its one index of counters by day.
    const old = await openDriver(path);
    old.exec(
      `DROP INDEX counters_day; DROP INDEX counters_key_day; CREATE INDEX counters_day ON counters (day); DROP TABLE class_submissions; DROP TABLE classes; PRAGMA user_version = 3;`,
    );
    const bucket = keyBucket("key_sqliteUsage1");
    for (const [b, day] of [
      [bucket, "2025-01-10"],
      [bucket, "2025-03-01"],
      ["ip:192.0.2.1", "2025-01-10"],
    ] as const)
      old.prepare("INSERT INTO counters (bucket, day, used) VALUES (?, ?, 2)").run(b, day);
    old.close();

    const store = await openSqliteStore(path);
    try {
      expect(store.usage("key_sqliteUsage1", "2025-01-01", "2025-12-31")).toEqual([
        { date: "2025-01-10", calls: 2 },
        { date: "2025-03-01", calls: 2 },
      ]);
      expect(store.pruneCounters("2026-01-01", 10)).toBe(1);
      expect(store.used("ip:192.0.2.1", "2025-01-10")).toBe(0);
      expect(store.used(bucket, "2025-01-10")).toBe(2);
      expect(store.pruneUsage("2025-02-01", 10)).toBe(1);
      expect(store.usage("key_sqliteUsage1", "2025-01-01", "2025-12-31")).toEqual([{ date: "2025-03-01", calls: 2 }]);
    } finally {
      store.close();
    }
  });

  it("each prune reads along its own kind's partial index", async () => {
    const path = join(dir, "plan.sqlite");
    (await openSqliteStore(path)).close();
    const db = await openDriver(path);
    try {
      for (const [keys, index] of [
        [true, "counters_key_day"],
        [false, "counters_day"],
      ] as const) {
        const plan = db
          .prepare(`EXPLAIN QUERY PLAN ${pruneSql(keys)}`)
          .all("2025-01-01", 10)
          .map((row) => String(row.detail));
        expect(plan.join("\n"), `prune of ${keys ? "keys'" : "other"} counters`).toMatch(new RegExp(`USING COVERING INDEX ${index} \\(day<\\?\\)`));
      }
    } finally {
      db.close();
    }
  });
});
