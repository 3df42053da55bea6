/**
 * The store registry is the one place a kind is declared: a kind added to it (here a test kind
 * with a secret URL and a host to reach) is configured, listed by `--help`, given its Deno
 * permissions and opened within its time bound, with no other file edited. (The `keys` CLI over
 * the registry's kinds: cli.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { MemoryQuotaStore } from "../../runtime/core/quota/memoryStore.ts";
import { StoreUnavailableError } from "../../runtime/core/quota/store.ts";
import { STORE_KINDS } from "../../runtime/stores/registry.ts";
import type { StoreKind } from "../../runtime/stores/storeKind.ts";

const SECRET = "s3cret-pass";
let opened: Record<string, string> | undefined;

/** A network store in name only: an in-memory store whose `used` never answers. */
const testKind: StoreKind<"url" | "prefix"> = {
  name: "testnet",
  summary: "a store reached over the network (test)",
  variables: [
    {
      name: "TESTNET_URL",
      option: "url",
      help: "testnet://[user:password@]host:port",
      secret: true,
      check: (value) => (/^testnet:\/\/([^@/]+@)?[\w.-]+:\d+$/.test(value) ? undefined : "must be a testnet://host:port URL"),
    },
    { name: "TESTNET_PREFIX", option: "prefix", default: "hanja:", help: "key prefix (default hanja:)" },
  ],
  shared: true,
  timeoutMs: 50,
  needs: ({ url = "" }) => ({ read: [], write: [], net: [url.replace(/^testnet:\/\/([^@/]+@)?/, "")] }),
  where: ({ url = "" }) => url.replace(/\/\/[^@/]+@/, "//"),
  async open(options) {
    opened = options;
    const store = new MemoryQuotaStore();
    return Object.assign(store, { used: () => new Promise<number>(() => {}) });
  },
};
(STORE_KINDS as Record<string, StoreKind>)[testKind.name] = testKind;

// Imported after the kind is registered, as a kind of the registry would be.
const { CONFIG_HELP, CONFIG_VARIABLES, readConfig } = await import("../../runtime/entry/config.ts");
const { denoPermissions } = await import("../../scripts/start-deno.ts");
const { openQuotaStore } = await import("../../runtime/stores/index.ts");
const { optionsFrom } = await import("../../runtime/stores/registry.ts");

const URL_WITH_SECRET = `testnet://app:${SECRET}@db.internal:7000`;

describe("a kind added to the registry", () => {
  it("is configured from its variables, defaults filled in, and carried to its open options", () => {
    const config = readConfig({ QUOTA_STORE: "testnet", TESTNET_URL: URL_WITH_SECRET });
    expect(config).toMatchObject({ quotaStore: "testnet", testnetUrl: URL_WITH_SECRET, testnetPrefix: "hanja:" });
    expect(config).not.toHaveProperty("quotaDb");
    expect(optionsFrom(testKind, config)).toEqual({ url: URL_WITH_SECRET, prefix: "hanja:" });
  });

  it("refuses a bad value naming the variable, without repeating a secret", () => {
    const bad = `testnet://app:${SECRET}@db.internal`;
    expect(() => readConfig({ QUOTA_STORE: "testnet", TESTNET_URL: bad })).toThrow(/^TESTNET_URL: must be a testnet:\/\/host:port URL$/);
    expect(() => readConfig({ QUOTA_STORE: "bogus" })).toThrow(/^QUOTA_STORE: must be sqlite or memory or redis or testnet, got "bogus"$/);
  });

  it("is listed by --help and its variables are readable under Deno", () => {
    expect(CONFIG_VARIABLES).toEqual(expect.arrayContaining(["QUOTA_STORE", "QUOTA_DB", "TESTNET_URL", "TESTNET_PREFIX"]));
    expect(CONFIG_HELP).toMatch(/^ {2}TESTNET_URL {2,}testnet:\/\/\[user:password@\]host:port$/m);
    expect(CONFIG_HELP).toContain("testnet: a store reached over the network (test)");
    expect(denoPermissions({}).find((flag) => flag.startsWith("--allow-env="))).toContain("TESTNET_URL");
  });

  it("gets the Deno permissions it needs: its host to reach, nothing to write", () => {
    const flags = denoPermissions({ QUOTA_STORE: "testnet", TESTNET_URL: URL_WITH_SECRET });
    expect(flags).toContain("--allow-net=127.0.0.1,db.internal:7000");
    expect(flags.some((flag) => flag.startsWith("--allow-write"))).toBe(false);
    expect(flags.join(" ")).not.toContain(SECRET);
  });

  it("opens through openQuotaStore, held to its time bound (503 material, not a hang)", async () => {
    const store = await openQuotaStore({ kind: "testnet", url: URL_WITH_SECRET } as never);
    expect(opened).toEqual({ url: URL_WITH_SECRET });
    expect(await store.consume("k", "2025-03-01", 5)).toEqual({ allowed: true, used: 1 });
    const error = await Promise.resolve(store.used("k", "2025-03-01")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toBe("testnet store: used did not answer within 50 ms");
  });
});
