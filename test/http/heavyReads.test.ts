/** The share of long texts (`routes/heavyReads.ts`): what counts as one, and the limits per client address and in all. */
import { describe, expect, test } from "vitest";
import type { ApiError } from "../../runtime/core/http/errors.ts";
import { HEAVY_READ, HeavyReads, isHeavyRead } from "../../runtime/core/routes/heavyReads.ts";

describe("long texts", () => {
  test("a text is long past 1,000 characters, counted as code points (an astral character is one)", () => {
    expect(HEAVY_READ).toBe(1_000);
    expect(isHeavyRead("水".repeat(1_000))).toBe(false);
    expect(isHeavyRead("水".repeat(1_001))).toBe(true);
    expect(isHeavyRead("𠀀".repeat(1_000))).toBe(false);
    expect(isHeavyRead("𠀀".repeat(1_001))).toBe(true);
    expect(isHeavyRead(`${"𠀀".repeat(999)}水`)).toBe(false);
  });

  test("each client may have its share under way, the server its own; past either, 429 with Retry-After, and a slot is free again once a reading ends", async () => {
    const heavy = new HeavyReads(2, 3);
    const releases: (() => void)[] = [];
    const hold = (client: string) => heavy.run(client, () => new Promise<string>((resolve) => releases.push(() => resolve(client))));
    const refusal = async (client: string) => {
      try {
        await heavy.run(client, async () => "read");
      } catch (error) {
        return error as ApiError;
      }
      throw new Error(`${client} was not refused`);
    };
    const a1 = hold("a");
    const a2 = hold("a");
    const byClient = await refusal("a");
    expect(byClient.status).toBe(429);
    expect(byClient.code).toBe("too_many_requests");
    expect(byClient.headers["Retry-After"]).toBe("1");
    expect(byClient.detail).toMatch(/^This client already has 2 texts of over 1,000 characters being read/);
    const b1 = hold("b");
    const inAll = await refusal("c");
    expect(inAll.detail).toMatch(/^The server is reading 3 texts of over 1,000 characters/);
    releases.shift()?.();
    expect(await a1).toBe("a");
    // One of a's ended: a and c may each start one again.
    expect(await heavy.run("c", async () => "c read")).toBe("c read");
    for (const release of releases.splice(0)) release();
    expect(await Promise.all([a2, b1])).toEqual(["a", "b"]);
    // A reading that fails frees its slot too.
    await expect(heavy.run("a", async () => Promise.reject(new Error("broken")))).rejects.toThrow("broken");
    expect(await Promise.all([heavy.run("a", async () => 1), heavy.run("a", async () => 2)])).toEqual([1, 2]);
  });
});
