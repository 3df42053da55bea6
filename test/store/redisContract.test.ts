/**
 * The QuotaStore contract and the store failure contract against the Redis store on Node, opened
 * through the store registry as the server opens it, on a private redis-server; each case under a
 * prefix of its own.
 */
import { afterAll, describe, it } from "vitest";
import { openStore, storeKind } from "../../runtime/stores/registry.ts";
import { type TestRedis, removeAllRedis, skipRedis, startRedis } from "../helpers/redisServer.ts";
import { contractCases } from "./contractCases.ts";
import { failureCases } from "./failureCases.ts";
import { scaleCases } from "./scaleCases.ts";
import { usageCases } from "./usageCases.ts";
import { classCases } from "./classCases.ts";

afterAll(removeAllRedis);

let redis: Promise<TestRedis> | undefined;
let prefixes = 0;

describe.skipIf(skipRedis)("RedisQuotaStore contract", () => {
  for (const check of [...contractCases, ...usageCases, ...classCases, ...scaleCases, ...failureCases]) {
    it(check.name, async () => {
      const store = await openStore(storeKind("redis"), {
        url: (await (redis ??= startRedis(["--appendonly", "yes"]))).url,
        prefix: `contract-${++prefixes}:`,
      });
      try {
        await check.run(store);
      } finally {
        await store.close();
      }
    });
  }
});
