/**
 * `GET /hanja/v1/radicals`: the 214 Kangxi radicals with their strokes, read from Unihan for every
 * radical's ideograph (selected or not), and how many characters have each, as the
 * `radical_number` filter counts them.
 */
import { describe, expect, it } from "vitest";
import type { RadicalList } from "../../runtime/format/records.ts";
import { call, getJson, testApp } from "../helpers/app.ts";
import { CHARACTERS, UNIHAN_SOURCE } from "../helpers/pin.ts";

const app = testApp();
const radicals = async (path = "/hanja/v1/radicals") => (await getJson<RadicalList>(app, path)).body;

/** The Kangxi order groups the radicals by strokes: [first, last, strokes]. Known without any data. */
const KANGXI_STROKES: [number, number, number][] = [
  [1, 6, 1],
  [7, 29, 2],
  [30, 60, 3],
  [61, 94, 4],
  [95, 117, 5],
  [118, 146, 6],
  [147, 166, 7],
  [167, 175, 8],
  [176, 186, 9],
  [187, 194, 10],
  [195, 200, 11],
  [201, 204, 12],
  [205, 208, 13],
  [209, 210, 14],
  [211, 211, 15],
  [212, 213, 16],
  [214, 214, 17],
];
const kangxiStrokes = (n: number) => KANGXI_STROKES.find(([first, last]) => n >= first && n <= last)?.[2];

/**
 * The radicals whose ideograph's `kTotalStrokes` is not the Kangxi order's count: Unihan gives the
 * count of the form in use today (瓦 4, 鬼 9, 鼎 12), where the Kangxi dictionary counted one more
 * (or, for 龜, one fewer).
 */
const UNIHAN_DIFFERS: Record<number, number> = { 98: 4, 114: 4, 194: 9, 206: 12, 213: 17 };

describe("GET /hanja/v1/radicals", () => {
  it("lists the 214 radicals in order, each as its unified ideograph, with the list of its characters", async () => {
    const body = await radicals();
    expect(body.total).toBe(214);
    expect(body.source).toBe(UNIHAN_SOURCE);
    expect(body.data.map((r) => r.radical_number)).toEqual(Array.from({ length: 214 }, (_, i) => i + 1));
    for (const r of body.data) {
      expect(r.radical).toBe(String.fromCodePoint(0x2f00 + r.radical_number - 1).normalize("NFKC"));
      expect(r.characters_url).toBe(`/hanja/v1/hanja?radical_number=${r.radical_number}`);
    }
    expect(body.data[84]).toMatchObject({ radical_number: 85, radical: "水", strokes: 4 });
  });

  it("holds the strokes of every radical to the Kangxi order's stroke ranges, the five Unihan counts otherwise named", async () => {
    const body = await radicals();
    const differing: Record<number, number | null> = {};
    for (const r of body.data) if (r.strokes !== kangxiStrokes(r.radical_number)) differing[r.radical_number] = r.strokes;
    expect(differing).toEqual(UNIHAN_DIFFERS);
  });

  it("has strokes for the 37 radicals whose ideograph is not one of the characters", async () => {
    const body = await radicals();
    const absent = [];
    for (const r of body.data) if ((await call(app, `/hanja/v1/hanja/${encodeURIComponent(r.radical)}`)).status === 404) absent.push(r);
    expect(absent).toHaveLength(37);
    expect(absent.map((r) => r.radical)).toContain("丶");
    for (const r of absent) expect(r.strokes, r.radical).toBe(UNIHAN_DIFFERS[r.radical_number] ?? kangxiStrokes(r.radical_number));
  });

  it("counts each radical's characters as the radical_number filter does, 8,525 in all", async () => {
    const body = await radicals();
    for (const r of body.data) {
      const { body: page } = await getJson(app, r.characters_url);
      expect(page.total, r.radical).toBe(r.character_count);
      if (r.character_count > 0) expect(page.data[0].radical, r.radical).toBe(r.radical);
    }
    expect(body.data.reduce((sum, r) => sum + r.character_count, 0)).toBe(CHARACTERS);
  });

  it("links under the configured base and mount path, and answers If-None-Match and other methods as interface A does", async () => {
    const custom = testApp({ hanjaBase: "/api/chars", mountPath: "/lexicon" });
    const { body } = await getJson<RadicalList>(custom, "/api/chars/radicals");
    expect(body.data[0]?.characters_url).toBe("/lexicon/api/chars/hanja?radical_number=1");
    const first = await call(app, "/hanja/v1/radicals");
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    expect((await call(app, "/hanja/v1/radicals", { headers: { "If-None-Match": etag as string } })).status).toBe(304);
    expect((await call(app, "/hanja/v1/radicals", { method: "POST" })).status).toBe(405);
  });
});
