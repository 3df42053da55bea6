/**
 * CJK compatibility ideographs in text searches (issue 26): one never comes ahead of, or apart
 * from, its unified counterpart; it follows it directly and its record names it.
 */
import { describe, expect, test } from "vitest";
import type { HanjaRecord } from "../../runtime/format/records.ts";
import { testApp } from "../helpers/app.ts";
import { BASE, allPages, fileRecords, qs } from "./hanja-expect.ts";

const app = testApp();
const COMPATIBILITY = /^[\uF900-\uFAFF\u{2F800}-\u{2FA1F}]$/u;
const cpOf = (r: HanjaRecord) => r.codepoint;

async function everything(q: string, extra: Record<string, string> = {}): Promise<HanjaRecord[]> {
  return (await allPages<HanjaRecord>(app, `${BASE}/hanja${qs({ q, ...extra })}`)).items;
}

/** Every compatibility ideograph whose counterpart is listed comes directly after it (or after another of its compatibility forms). */
function expectAfterUnified(items: readonly HanjaRecord[]): number {
  let checked = 0;
  items.forEach((record, i) => {
    if (!COMPATIBILITY.test(record.character)) return;
    const unified = record.character.normalize("NFC");
    const at = items.findIndex((r) => r.character === unified);
    if (at === -1) return;
    checked++;
    expect(at, `${record.codepoint} after ${unified}`).toBeLessThan(i);
    for (const between of items.slice(at + 1, i))
      expect(between.character.normalize("NFC"), `${record.codepoint}: ${between.codepoint} comes between`).toBe(unified);
    expect(record.variants_detail.kCompatibilityVariant?.map((v) => v.character)).toContain(unified);
  });
  return checked;
}

describe("compatibility ideographs in text searches", () => {
  test("q=study: 讀 U+8B80, then its compatibility ideograph U+F95A right after it, then 念 and U+F9A3", async () => {
    const items = await everything("study");
    const codepoints = items.map(cpOf);
    const unified = codepoints.indexOf("U+8B80");
    expect(unified).toBeGreaterThanOrEqual(0);
    expect(codepoints[unified + 1]).toBe("U+F95A");
    expect(codepoints.indexOf("U+F9A3")).toBe(codepoints.indexOf("U+5FF5") + 1);
    expect(expectAfterUnified(items)).toBe(2);
  });

  test("q=water: 菱 U+83F1 directly followed by U+F958, never ahead of it; the same for every pair in the list", async () => {
    const items = await everything("water");
    const codepoints = items.map(cpOf);
    expect(codepoints.indexOf("U+F958")).toBe(codepoints.indexOf("U+83F1") + 1);
    expect(expectAfterUnified(items)).toBeGreaterThanOrEqual(2);
  });

  test("holds for the English words and Hangul readings of every compatibility ideograph, with and without a filter", async () => {
    const compat = fileRecords().filter((r) => COMPATIBILITY.test(r.character));
    expect(compat.length).toBeGreaterThan(200);
    const words = new Set<string>();
    for (const r of compat) {
      const word = /[a-z]{4,}/.exec(r.definition_en ?? "")?.[0];
      if (word) words.add(word);
      for (const reading of r.readings) words.add(reading);
    }
    let pairs = 0;
    for (const q of [...words].slice(0, 60)) {
      pairs += expectAfterUnified(await everything(q));
      expectAfterUnified(await everything(q, { strokes: "12" }));
    }
    expect(pairs).toBeGreaterThan(20);
  });

  test("the total counts both: a compatibility ideograph is a record of its own (docs/rules.md, Interface A)", async () => {
    const { total } = await allPages<HanjaRecord>(app, `${BASE}/hanja${qs({ q: "study" })}`);
    expect(total).toBe(7);
  });
});
