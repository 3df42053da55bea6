/** The QuotaStore contract against the in-memory and the SQLite store. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, it } from "vitest";
import { MemoryQuotaStore } from "../../runtime/core/quota/memoryStore.ts";
import type { QuotaStore } from "../../runtime/core/quota/store.ts";
import { openSqliteStore } from "../../runtime/stores/sqlite/sqliteStore.ts";
import { contractCases } from "./contractCases.ts";
import { failureCases } from "./failureCases.ts";

const dir = mkdtempSync(join(tmpdir(), "quota-contract-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
const stores: Record<string, () => Promise<QuotaStore>> = {
  MemoryQuotaStore: async () => new MemoryQuotaStore(),
  SqliteQuotaStore: () => openSqliteStore(join(dir, `contract-${++files}.sqlite`)),
};

for (const [name, open] of Object.entries(stores)) {
  describe(`${name} contract`, () => {
    for (const check of [...contractCases, ...failureCases]) {
      it(check.name, async () => {
        const store = await open();
        try {
          await check.run(store);
        } finally {
          await store.close();
        }
      });
    }
  });
}
