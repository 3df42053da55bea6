import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COMPRESS_MIN_BYTES, isLarge } from "../../runtime/core/http/sender.ts";

describe("isLarge (the gzip threshold)", () => {
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

describe("content negotiation", () => {
  it("picks the accepted coding with the highest q, brotli on ties when available, * for unnamed codings", async () => {
    const { chooseEncoding } = await import("../../runtime/core/http/encoding.ts");
    expect(chooseEncoding(null, true)).toBeUndefined();
    expect(chooseEncoding("gzip, deflate, br", true)).toBe("br");
    expect(chooseEncoding("gzip, deflate, br", false)).toBe("gzip");
    expect(chooseEncoding("br;q=0.5, gzip", true)).toBe("gzip");
    expect(chooseEncoding("gzip;q=0, br;q=0", true)).toBeUndefined();
    expect(chooseEncoding("*", true)).toBe("br");
    expect(chooseEncoding("*;q=0.1, gzip;q=0", false)).toBeUndefined();
    expect(chooseEncoding("identity", true)).toBeUndefined();
    expect(chooseEncoding("GZIP;Q=1", false)).toBe("gzip");
  });

  it("answers each Accept-Encoding value with its own coding, however many values the app has seen (the choices are remembered)", async () => {
    const { chooseEncoding } = await import("../../runtime/core/http/encoding.ts");
    const { nodeCompressors } = await import("../../runtime/entry/compressors.ts");
    const { testApp } = await import("../helpers/app.ts");
    const app = testApp({ compressors: nodeCompressors });
    const url = `http://localhost/hanja/v1/hanja?q=${encodeURIComponent("수")}`;
    const q = (n: number) => (n % 11) / 10;
    const values = Array.from({ length: 600 }, (_, i) => `gzip;q=${q(i)}, br;q=${q(i * 7 + 3)}${i % 3 ? "" : ", identity"}`);
    values.push("", "GZIP", `${"x-unknown;q=0.5, ".repeat(20)}gzip`, `${"x-unknown;q=0.5, ".repeat(20)}br;q=0`);
    const answered = async (accept: string) =>
      (await app.fetch(new Request(url, { headers: { "accept-encoding": accept } }))).headers.get("content-encoding") ?? undefined;
    const expected = values.map((accept) => chooseEncoding(accept, true));
    expect(new Set(expected)).toEqual(new Set(["br", "gzip", undefined]));
    for (let pass = 0; pass < 2; pass++) {
      for (const [i, accept] of values.entries()) expect(await answered(accept), `${JSON.stringify(accept)}, pass ${pass}`).toBe(expected[i]);
    }
  });

  it("answers brotli with its own strong ETag when the app has a brotli compressor, and the body decompresses to the same JSON", async () => {
    const { brotliDecompressSync, gunzipSync } = await import("node:zlib");
    const { nodeCompressors } = await import("../../runtime/entry/compressors.ts");
    const { testApp } = await import("../helpers/app.ts");
    const app = testApp({ compressors: nodeCompressors });
    const url = `http://localhost/hanja/v1/hanja?q=${encodeURIComponent("수")}`;
    const plain = await app.fetch(new Request(url));
    const br = await app.fetch(new Request(url, { headers: { "accept-encoding": "gzip, deflate, br" } }));
    const gz = await app.fetch(new Request(url, { headers: { "accept-encoding": "gzip" } }));
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    const text = await plain.text();
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(text);
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(text);
    const tags = [plain, br, gz].map((r) => r.headers.get("etag"));
    expect(new Set(tags).size).toBe(3);
    expect(tags[1]).toMatch(/-br"$/);
    // Each tag revalidates the encoding it was sent with (a weak W/ form too, and in a list), and no other.
    const accepts = ["", "gzip, deflate, br", "gzip"];
    for (const [i, tag] of tags.entries()) {
      for (const [j, accept] of accepts.entries()) {
        for (const header of [tag ?? "", `W/${tag}`, `"other", ${tag}`]) {
          const response = await app.fetch(new Request(url, { headers: { "if-none-match": header, "accept-encoding": accept } }));
          expect(response.status, `${header} with Accept-Encoding ${JSON.stringify(accept)}`).toBe(i === j ? 304 : 200);
          if (i === j) expect(response.headers.get("etag")).toBe(tag);
        }
      }
    }
    // A repeated brotli answer is byte-identical (served from the cache of compressed bodies).
    const first = Buffer.from(await (await app.fetch(new Request(url, { headers: { "accept-encoding": "br" } }))).arrayBuffer());
    const second = Buffer.from(await (await app.fetch(new Request(url, { headers: { "accept-encoding": "br" } }))).arrayBuffer());
    expect(second.equals(first)).toBe(true);
  });
});
