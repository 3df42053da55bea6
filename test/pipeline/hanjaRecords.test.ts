import { beforeAll, describe, expect, it } from "vitest";
import { InputError, type UnihanEntry } from "../../pipeline/load/types.ts";
import { readUnihanZip } from "../../pipeline/load/unihanZip.ts";
import { RECORD_PROPERTIES, buildHanjaRecords, collectUnihan, joinStarters } from "../../pipeline/parse/hanjaRecords.ts";
import { type HanjaRecord, STARTER_GLOSS_SOURCE, UNICODE_LICENSE_URL } from "../../runtime/format/records.ts";
import { SMALL_ZIP, WATER, errorOf, unihanFiles, writeZip } from "./helpers.ts";

async function* stream(entries: Partial<UnihanEntry>[]): AsyncGenerator<UnihanEntry> {
  for (const [i, e] of entries.entries()) yield { codepoint: 0x6c34, property: "kHangul", value: "수:0E", file: "Unihan_Readings.txt", line: i + 1, ...e };
}

/** Records built from a zip with the given lines (17.0.0 header). */
async function recordsFrom(lines: Parameters<typeof unihanFiles>[0]): Promise<HanjaRecord[]> {
  const reader = readUnihanZip(await writeZip(unihanFiles(lines)));
  return buildHanjaRecords(await collectUnihan(reader.entries(RECORD_PROPERTIES, { onlyWith: "kHangul" })), "17.0.0");
}

describe("collectUnihan", () => {
  it("groups entries by code point and property", async () => {
    const table = await collectUnihan(stream([{}, { property: "kTotalStrokes", value: "4" }, { codepoint: 0x706b, value: "화:0E" }]));
    expect([...table.keys()]).toEqual([0x6c34, 0x706b]);
    expect(table.get(0x6c34)?.get("kTotalStrokes")?.value).toBe("4");
  });

  it("fails on a property given twice for one code point, naming both places", async () => {
    const error = await errorOf(() => collectUnihan(stream([{}, { file: "Unihan_Variants.txt", line: 9 }])));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toContain("kHangul given twice for U+6C34");
    expect(error.message).toContain("Unihan_Readings.txt:1");
    expect(error.message).toContain("Unihan_Variants.txt:9");
  });
});

describe("buildHanjaRecords on the small fixture (Unihan 16.0.0 content)", () => {
  let records: HanjaRecord[];
  let byCp: Map<string, HanjaRecord>;
  const get = (cp: string): HanjaRecord => {
    const record = byCp.get(cp);
    if (!record) throw new Error(`${cp} is not in the fixture records`);
    return record;
  };

  beforeAll(async () => {
    const reader = readUnihanZip(SMALL_ZIP);
    records = buildHanjaRecords(await collectUnihan(reader.entries(RECORD_PROPERTIES, { onlyWith: "kHangul" })), reader.version().version);
    byCp = new Map(records.map((r) => [r.codepoint, r]));
  });

  it("makes a record for every code point with kHangul and none other, in code point order", () => {
    expect(records.length).toBeGreaterThan(200);
    expect(byCp.has("U+3400")).toBe(false); // no kHangul
    expect(byCp.has("U+4336")).toBe(false);
    const cps = records.map((r) => r.character.codePointAt(0) ?? 0);
    expect(cps).toEqual([...cps].sort((a, b) => a - b));
    for (const r of records) expect(r.readings.length).toBeGreaterThan(0);
  });

  it("derives every field of 水 U+6C34", () => {
    expect(get("U+6C34")).toEqual({
      character: "水",
      codepoint: "U+6C34",
      radical: "水",
      radical_strokes_raw: "85.0",
      readings_raw: "수:0E",
      strokes_raw: "4",
      variants: "氵",
      source: "Unicode Unihan 16.0.0",
      license_url: UNICODE_LICENSE_URL,
      readings: ["수"],
      strokes: 4,
      radical_number: 85,
      starter: false,
      meaning_ko: null,
      meaning_ko_source: null,
      definition_en: "water, liquid, lotion, juice",
      education_hanja: true,
      school_level: null,
      name_hanja: false,
      reading: "수",
      hunum: [],
      hunum_source: null,
      variants_detail: { kSemanticVariant: [{ character: "氵", codepoint: "U+6C35", sources: ["kMatthews"] }] },
    } satisfies HanjaRecord);
  });

  it("keeps several readings in file order (樂: 낙 락 악 요; 不: 부 불)", () => {
    expect(get("U+6A02").readings).toEqual(["낙", "락", "악", "요"]);
    expect(get("U+6A02").readings_raw).toBe("낙:0 락:0E 악:0N 요:0N");
    expect(get("U+4E0D").readings).toEqual(["부", "불"]);
    expect(get("U+8C6C").readings).toEqual(["저"]); // X source
  });

  it("keeps a negative residual raw (王 96.-1)", () => {
    const king = get("U+738B");
    expect(king.radical_strokes_raw).toBe("96.-1");
    expect(king.radical_number).toBe(96);
    expect(king.radical).toBe("玉");
  });

  it("takes the radical from the first of several kRSUnicode tokens", () => {
    expect(get("U+7740")).toMatchObject({ radical_strokes_raw: "109.7 123.5 109.6", radical_number: 109, radical: "目" });
    expect(get("U+5C06")).toMatchObject({ radical_strokes_raw: "41.6 90'.6", radical_number: 41, radical: "寸" });
    expect(get("U+7ADC")).toMatchObject({ radical_strokes_raw: "117.5 212''.0", radical_number: 117 });
  });

  it("takes the first kTotalStrokes value and keeps the raw one (16.0: 范 8 9, 骨 9 10)", () => {
    expect(get("U+8303")).toMatchObject({ strokes: 8, strokes_raw: "8 9" });
    expect(get("U+9AA8")).toMatchObject({ strokes: 9, strokes_raw: "9 10" });
  });

  it("leaves the own character out of variants but keeps it in variants_detail (着, 范)", () => {
    const zhe = get("U+7740");
    expect(zhe.variants).toBe("著");
    expect(zhe.variants_detail.kTraditionalVariant?.map((v) => v.character)).toEqual(["着", "著"]);
    expect(zhe.variants_detail.kSimplifiedVariant?.map((v) => v.character)).toEqual(["着"]);
    expect(zhe.variants_detail.kSpecializedSemanticVariant).toEqual([{ character: "著", codepoint: "U+8457", sources: ["kFenn"] }]);
    expect(get("U+8303").variants).toBe("範");
  });

  it("lists variants with source tags, kSpoofingVariant and s-prefixed sources", () => {
    const two = get("U+4E8C");
    expect(two.variants).toBe("弍 貳 𠄞 𠄟 𠄠");
    expect(two.variants_detail.kSemanticVariant?.[0]?.sources).toEqual(["kMatthews", "kMeyerWempe"]);
    expect(two.variants_detail.kSpoofingVariant?.map((v) => v.codepoint)).toEqual(["U+2011E", "U+2011F", "U+20120"]);
    expect(get("U+34D7").variants).toBe("潔");
    expect(get("U+5835").variants_detail.kSpecializedSemanticVariant?.[0]?.sources).toEqual(["sHanyuDaCidian1986:T"]);
  });

  it("has an empty variants string when there are none", () => {
    expect(get("U+4E0D").variants).toBe("");
    expect(get("U+4E0D").variants_detail).toEqual({});
  });

  it("keeps astral characters as one code point (𮕩 U+2E569: education hanja, no definition)", () => {
    const astral = records.filter((r) => (r.character.codePointAt(0) ?? 0) > 0xffff);
    expect(astral).toHaveLength(60); // every astral record of the release is in the fixture
    for (const r of astral) expect([...r.character]).toHaveLength(1);
    expect(get("U+2E569")).toMatchObject({ character: "𮕩", education_hanja: true, name_hanja: false, definition_en: null, readings: ["쇠"] });
    expect(get("U+2E569").character).toHaveLength(2);
  });

  it("never normalises compatibility ideographs: each is a record of its own", () => {
    const compat = get("U+F900");
    const unified = get("U+8C48");
    expect(compat.character).toBe("\uF900");
    expect(compat.character.normalize("NFC")).toBe(unified.character); // what normalising would have folded
    expect(compat.readings).toEqual(["개"]);
    expect(unified.readings).toEqual(["개", "기"]);
    expect(compat.variants).toBe("豈");
    expect(compat.variants_detail.kCompatibilityVariant).toEqual([{ character: "豈", codepoint: "U+8C48", sources: [] }]);
    for (const cp of ["U+F91D", "U+F92C", "U+FA2E", "U+FA2F"]) expect(get(cp).character).toBe(String.fromCodePoint(Number.parseInt(cp.slice(2), 16)));
    expect(get("U+F92C").readings_raw).toBe("낭:X");
  });

  it("gives definition_en null when kDefinition is missing and keeps it whole otherwise", () => {
    expect(get("U+FA2E").definition_en).toBeNull();
    expect(get("U+6A02").definition_en).toBe("happy, glad; enjoyable; music");
  });

  it("sets education_hanja and name_hanja from their properties", () => {
    expect(get("U+6A02")).toMatchObject({ education_hanja: true, name_hanja: true });
    expect(get("U+8303")).toMatchObject({ education_hanja: false, name_hanja: true });
    for (const r of records) {
      expect(r.education_hanja).toBe(/:\w*E/.test(r.readings_raw));
      expect(r.name_hanja).toBe(/:\w*N/.test(r.readings_raw));
    }
  });
});

describe("buildHanjaRecords failures", () => {
  it("fails when a record lacks kTotalStrokes or kRSUnicode", async () => {
    const error = await errorOf(() => recordsFrom({ ...WATER, "Unihan_IRGSources.txt": ["U+6C34\tkRSUnicode\t85.0"] }));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe('unihan: U+6C34 has kHangul but no kTotalStrokes (kHangul "수:0E" at Unihan_Readings.txt:5)');
    const noRs = await errorOf(() => recordsFrom({ ...WATER, "Unihan_IRGSources.txt": ["U+6C34\tkTotalStrokes\t4"] }));
    expect(noRs.message).toContain("no kRSUnicode");
  });

  it.each([
    ["Unihan_IRGSources.txt", "kRSUnicode", "x.1", ["U+6C34\tkRSUnicode\tx.1", "U+6C34\tkTotalStrokes\t4"], 4],
    ["Unihan_IRGSources.txt", "kTotalStrokes", "four", ["U+6C34\tkRSUnicode\t85.0", "U+6C34\tkTotalStrokes\tfour"], 5],
    ["Unihan_Readings.txt", "kHangul", "수", ["U+6C34\tkDefinition\twater", "U+6C34\tkHangul\t수"], 5],
    ["Unihan_Variants.txt", "kSemanticVariant", "6C35", ["U+6C34\tkSemanticVariant\t6C35"], 4],
  ] as const)("names file, line, property and value for a bad %s %s", async (file, property, value, lines, line) => {
    const error = await errorOf(() => recordsFrom({ ...WATER, [file]: lines }));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toContain(`bad ${property} ${JSON.stringify(value)}`);
    expect(error.message).toContain(`U+6C34 (${file}:${line})`);
  });
});

describe("joinStarters", () => {
  it("adds the gloss and marks the record as a starter, leaving the others alone", async () => {
    const records = await recordsFrom(WATER);
    const [joined] = joinStarters(records, new Map([["水", "물 수"]]));
    expect(joined).toMatchObject({ starter: true, meaning_ko: "물 수", meaning_ko_source: STARTER_GLOSS_SOURCE });
    const [plain] = joinStarters(records, new Map());
    expect(plain).toMatchObject({ starter: false, meaning_ko: null, meaning_ko_source: null });
  });
});
