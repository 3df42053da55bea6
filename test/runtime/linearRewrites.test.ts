/**
 * The patterns rewritten as one pass (their quantified runs were retried from every position of a
 * long run) give what the patterns gave, for any text made of the characters that matter to them.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { trimQuery } from "../../runtime/core/http/params.ts";
import { hasSecretHint } from "../../runtime/core/http/redact.ts";
import { withoutTrailing } from "../../runtime/core/util/withoutTrailing.ts";

const textOf = (chars: string[]) => fc.array(fc.constantFrom(...chars), { maxLength: 30 }).map((list) => list.join(""));

describe("one-pass rewrites of quadratic patterns", () => {
  it("trimQuery trims what /^[\\s\\p{P}]+|[\\s\\p{P}]+$/gu trimmed, astral characters and lone surrogates included", () => {
    const pattern = (text: string) => {
      const trimmed = text.trim();
      const inner = trimmed.replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, "");
      return inner === "" ? trimmed : inner;
    };
    const chars = [" ", "\u3000", "\t", "!", "。", "“", "”", "(", "水", "a", "𠀀", "\u{1F600}", "\uD800", "\uDC00", "\u{10FFFD}", "-"];
    fc.assert(
      fc.property(textOf(chars), (text) => {
        expect(trimQuery(text)).toBe(pattern(text));
      }),
      { numRuns: 5000 },
    );
    expect(trimQuery(` “${"각".normalize("NFD")}.” `)).toBe("각".normalize("NFD"));
  });

  it("hasSecretHint finds what /(?:^|&)[^&=]*(?:key|…)[^&=]*=/i found", () => {
    const pattern = /(?:^|&)[^&=]*(?:key|tok|secret|pass|pwd|auth|sig|session|credential|otp|jwt|%|\+)[^&=]*=/i;
    const chars = ["&", "=", "a", "key", "KEY", "tok", "%", "+", "x", "sig", "q", "1"];
    fc.assert(
      fc.property(textOf(chars), (query) => {
        expect(hasSecretHint(query)).toBe(pattern.test(query));
      }),
      { numRuns: 5000 },
    );
  });

  it("withoutTrailing removes what /\\/+$/ removed", () => {
    fc.assert(
      fc.property(textOf(["/", "a", "."]), (text) => {
        expect(withoutTrailing(text, "/")).toBe(text.replace(/\/+$/, ""));
      }),
      { numRuns: 2000 },
    );
  });
});
