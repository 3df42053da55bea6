import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COMPRESS_MIN_BYTES, isLarge } from "../../runtime/core/http/respond.ts";

describe("isLarge (the gzip threshold, counted without encoding)", () => {
  const bytes = (s: string) => new TextEncoder().encode(s).length;

  it("agrees with the UTF-8 length for any text, astral and lone surrogates included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 1200 }), (s) => {
        expect(isLarge(s)).toBe(bytes(s) >= COMPRESS_MIN_BYTES);
      }),
      { numRuns: 2000 },
    );
  });

  it("decides at exactly 1 KiB for Korean, astral and ASCII text", () => {
    expect(isLarge("가".repeat(341))).toBe(false); // 1023 bytes
    expect(isLarge("가".repeat(341) + "a")).toBe(true); // 1024
    expect(isLarge("𮕩".repeat(256))).toBe(true); // 1024
    expect(isLarge("𮕩".repeat(255) + "abc")).toBe(false); // 1023
    expect(isLarge("a".repeat(1023))).toBe(false);
  });
});
