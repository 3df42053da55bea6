/**
 * Runs the QuotaStore contract (the scale cases included) against the SQLite store on whatever runtime executes this file
 * (Bun, Deno, Node), plus a close-and-reopen check, and prints one JSON line:
 * `{ runtime, driver, passed: [names], failed: [{ name, error }] }`. Exit code 1 on any failure.
 *
 *   bun test/store/smoke.ts <dir>
 *   deno run --allow-read=<dir> --allow-write=<dir> test/store/smoke.ts <dir>
 */
import { join } from "node:path";
import type { QuotaStore } from "../../runtime/core/quota/store.ts";
import { openSqliteStore } from "../../runtime/stores/sqlite/sqliteStore.ts";
import { contractCases, keyRecord, runCases, type ContractCase } from "./contractCases.ts";
import { scaleCases } from "./scaleCases.ts";
import { usageCases } from "./usageCases.ts";
import { classCases } from "./classCases.ts";
import { SHARED_FILE_CASE, sharedFileCase } from "./sharedFile.ts";

const dir = process.argv[2];
if (dir === undefined) throw new Error("usage: smoke.ts <dir>");

const runtime = typeof Bun !== "undefined" ? "bun" : typeof (globalThis as { Deno?: unknown }).Deno !== "undefined" ? "deno" : "node";
let files = 0;
let driver = "";
const open = async (path = join(dir, `smoke-${++files}.sqlite`)): Promise<QuotaStore> => {
  const store = await openSqliteStore(path);
  driver = store.driverName;
  return store;
};

const reopen: ContractCase = {
  name: "keys and counts survive close and reopen",
  async run() {
    const path = join(dir, "reopen.sqlite");
    const key = keyRecord();
    const first = await open(path);
    await first.insertKey(key);
    await first.consume("k", "2025-03-01", 10);
    await first.close();
    const second = await open(path);
    try {
      if (JSON.stringify(await second.keyById(key.id)) !== JSON.stringify(key)) throw new Error("key changed across reopen");
      if ((await second.used("k", "2025-03-01")) !== 1) throw new Error("count lost across reopen");
    } finally {
      await second.close();
    }
  },
};

const sharedFile: ContractCase = {
  name: SHARED_FILE_CASE,
  run: () => {
    const path = join(dir, "shared.sqlite");
    return sharedFileCase(() => open(path));
  },
};

const { passed, failed } = await runCases([...contractCases, ...usageCases, ...classCases, ...scaleCases, reopen, sharedFile], () => open());
console.log(JSON.stringify({ runtime, driver, passed, failed }));
if (failed.length > 0) process.exitCode = 1;
