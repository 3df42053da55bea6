/**
 * The QuotaStore contract, the failure contract included, against every kind of the store
 * registry. `FRESH` says how to open an empty store of each kind; it is keyed by every kind, so a
 * kind added to the registry does not compile here until it says how.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, it } from "vitest";
import { STORE_KINDS, type StoreKindName, openStore, storeKind } from "../../runtime/stores/registry.ts";
import { contractCases } from "./contractCases.ts";
import { failureCases } from "./failureCases.ts";
import { scaleCases } from "./scaleCases.ts";
import { usageCases } from "./usageCases.ts";
import { classCases } from "./classCases.ts";

const dir = mkdtempSync(join(tmpdir(), "quota-contract-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/**
 * The `open` options of a fresh, empty store of each kind, or the file that runs the contract on a
 * kind needing a server of its own (in the `processes` project, which may start one).
 */
const FRESH: Record<StoreKindName, (() => Record<string, string>) | { testedIn: string }> = {
  sqlite: () => ({ path: join(dir, `contract-${++files}.sqlite`) }),
  memory: () => ({}),
  redis: { testedIn: "test/store/redisContract.test.ts" },
};

for (const name of Object.keys(STORE_KINDS) as StoreKindName[]) {
  const fresh = FRESH[name];
  if (typeof fresh !== "function") continue;
  describe(`${name} store contract`, () => {
    for (const check of [...contractCases, ...usageCases, ...classCases, ...scaleCases, ...failureCases]) {
      it(check.name, async () => {
        const store = await openStore(storeKind(name), fresh());
        try {
          await check.run(store);
        } finally {
          await store.close();
        }
      });
    }
  });
}
