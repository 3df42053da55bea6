/**
 * Stroke order (docs/api.md "Strokes"): `GET /hanja/{character}/strokes` serves each stroke's outline
 * and median in writing order, the glyph's form and its source and licence (Arphic PL, kept in
 * `dist/strokes.jsonl`; KanjiVG's, CC BY-SA 3.0, in `dist/strokes-ja.jsonl`); animCJK's Korean form
 * first, else Make Me a Hanzi's Chinese one, else KanjiVG's Japanese one (centre lines, no outline); `404`
 * naming the character where there are none, and on a host without the stroke data; the detail's
 * `stroke_order` says which form; `/meta` gives the coverage; the file is read on the first strokes
 * request, not when the app is made.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { createApp } from "../../runtime/core/app.ts";
import { loadDistFiles } from "../../runtime/entry/loadDist.ts";
import { DIST_FILES, RUNTIME_FILES } from "../../runtime/format/dist.ts";
import { ROOT, call, distText, getJson, testApp } from "../helpers/app.ts";
import { BASE, expectProblem } from "./hanja-expect.ts";

const app = testApp();
const strokes = (character: string) => getJson(app, `${BASE}/hanja/${encodeURIComponent(character)}/strokes`);
/** animCJK's published lines, by character (the pinned file, read independently of the pipeline). */
const animCjk = new Map(
  readFileSync(join(ROOT, "pipeline/data/strokes/animcjk-graphicsKo.txt"), "utf8")
    .trim()
    .split("\n")
    .map((line) => {
      const parsed = JSON.parse(line) as { character: string; strokes: string[]; medians: number[][][] };
      return [parsed.character, parsed] as const;
    }),
);

describe("GET /hanja/{character}/strokes", () => {
  test("a character animCJK has: its Korean form, every stroke's outline and median in animCJK's order, with source and licence", async () => {
    const { status, body, headers } = await strokes("水");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toContain("application/json");
    const published = animCjk.get("水");
    expect(body.character).toBe("水");
    expect(body.form).toBe("ko");
    expect(body.strokes.map((s: { outline: string }) => s.outline)).toEqual(published?.strokes);
    expect(body.strokes.map((s: { median: number[][] }) => s.median)).toEqual(published?.medians);
    expect(body.strokes.length).toBe(4);
    expect(body.source).toEqual({
      name: "animCJK",
      url: "https://github.com/parsimonhi/animCJK",
      license: "Arphic-1999",
      attribution: expect.stringContaining("Arphic Public License"),
    });
  });

  test("a character animCJK lacks: Make Me a Hanzi's Chinese form, as hanzi-writer-data 2.0.1 gives it", async () => {
    const { status, body } = await strokes("丁");
    expect(status).toBe(200);
    expect(animCjk.has("丁")).toBe(false);
    expect(body.form).toBe("zh");
    expect(body.source.name).toBe("hanzi-writer-data");
    expect(body.source.attribution).toContain("Make Me a Hanzi");
    const published = JSON.parse(readFileSync(join(ROOT, "node_modules/hanzi-writer-data/丁.json"), "utf8"));
    expect(body.strokes.map((s: { outline: string }) => s.outline)).toEqual(published.strokes);
    expect(body.strokes.map((s: { median: number[][] }) => s.median)).toEqual(published.medians);
  });

  test("a character neither Arphic PL source has: KanjiVG's Japanese form, its centre lines as medians in the same frame, outline null, CC BY-SA 3.0", async () => {
    const { status, body } = await strokes("値");
    expect(status).toBe(200);
    expect(animCjk.has("値")).toBe(false);
    expect(body.form).toBe("ja");
    expect(body.source).toEqual({
      name: "KanjiVG",
      url: "https://kanjivg.tagaini.net",
      license: "CC-BY-SA-3.0",
      attribution: expect.stringContaining("Creative Commons Attribution-ShareAlike 3.0"),
    });
    // KanjiVG's 05024.svg has 10 stroke paths; each median runs from the path's start to its end,
    // moved from the 109-unit frame (y down) to the 1024-unit one (y up, top at 900).
    expect(body.strokes).toHaveLength(10);
    for (const stroke of body.strokes) expect(stroke.outline).toBe(null);
    const frame = ([x, y]: [number, number]) => [Math.round((x * 1024) / 109), Math.round(900 - (y * 1024) / 109)];
    expect(body.strokes[0].median[0]).toEqual(frame([35, 15.5])); // M35,15.5 (㇒, first)
    expect(body.strokes[0].median.at(-1)).toEqual(frame([11, 57.29]));
    expect(body.strokes[6].median).toEqual([frame([56.24, 55.49]), frame([86.62, 52.29])]); // M56.24,55.49c5.75-0.46,25.67-2.99,30.38-3.2
    expect(body.strokes[9].median[0]).toEqual(frame([41.25, 53])); // ㇗, last
  });

  test("an education hanja no source has: 404 naming it; a character outside the dataset: 404 naming it", async () => {
    const none = await call(app, `${BASE}/hanja/${encodeURIComponent("卽")}/strokes`);
    const problem = await expectProblem(none, 404, "not_found", "character");
    expect(problem.detail).toBe("卽 (U+537D) has no strokes in the stroke data");
    const outside = await call(app, `${BASE}/hanja/${encodeURIComponent("가")}/strokes`);
    expect((await expectProblem(outside, 404, "not_found", "character")).detail).toBe("가 (U+AC00) is not in the dataset");
  });

  test("a path segment of two characters, or of broken percent-encoding: 400 naming character", async () => {
    await expectProblem(await call(app, `${BASE}/hanja/${encodeURIComponent("水火")}/strokes`), 400, "invalid_parameter", "character");
    await expectProblem(await call(app, `${BASE}/hanja/%E6%B0/strokes`), 400, "invalid_parameter", "character");
  });

  test("the detail says which form the strokes are, null where there are none; a repeated request gets 304", async () => {
    const detail = async (character: string) => (await getJson(app, `${BASE}/hanja/${encodeURIComponent(character)}`)).body.stroke_order;
    expect(await detail("水")).toBe("ko");
    expect(await detail("丁")).toBe("zh");
    expect(await detail("値")).toBe("ja");
    expect(await detail("卽")).toBe(null);
    const first = await call(app, `${BASE}/hanja/${encodeURIComponent("水")}/strokes`);
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    const again = await call(app, `${BASE}/hanja/${encodeURIComponent("水")}/strokes`, { headers: { "If-None-Match": etag as string } });
    expect(again.status).toBe(304);
  });

  test("/meta gives the coverage by form, of the 1,800 and of all, and the sources; /terms names their licence", async () => {
    const { body } = await getJson(app, `${BASE}/meta`);
    expect(body.stroke_order.coverage).toEqual({
      all: { ko: 524, ja: 631, zh: 5256, none: 2114 },
      education_hanja: { ko: 516, ja: 20, zh: 1254, none: 10 },
    });
    const sum = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);
    expect(sum(body.stroke_order.coverage.all)).toBe(body.counts.characters);
    expect(sum(body.stroke_order.coverage.education_hanja)).toBe(body.counts.education_hanja);
    expect(body.stroke_order.sources.map((s: { name: string; version: string }) => [s.name, s.version])).toEqual([
      ["animCJK", "ec5e17cca76c87587790bcbce5ea0b4d4fb753d6"],
      ["hanzi-writer-data", "2.0.1"],
      ["KanjiVG", "1957802840a6f059d1e27dcb5755722955cc7dbb"],
    ]);
    expect(body.licenses.stroke_order.name).toBe("Arphic Public License");
    expect(body.licenses.stroke_order_ja).toMatchObject({ name: "CC BY-SA 3.0", url: "https://creativecommons.org/licenses/by-sa/3.0/" });
    const terms = await (await call(app, `${BASE}/terms`)).text();
    const section = terms.slice(terms.lastIndexOf("## Stroke order"));
    expect(section).toContain("animCJK and hanzi-writer-data");
    expect(section).toContain("Arphic Public License");
    expect(section).toContain("KanjiVG");
    expect(section).toContain("Creative Commons Attribution-ShareAlike 3.0");
    // The Arphic PL strokes and KanjiVG's are never in one file.
    const forms = (name: string) =>
      distText(name)
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line).source.license as string);
    const arphic = forms(DIST_FILES.strokes);
    expect(arphic.length).toBe(524 + 5256);
    expect(new Set(arphic)).toEqual(new Set(["Arphic-1999"]));
    const kanjivg = forms(DIST_FILES.strokesJa);
    expect(kanjivg.length).toBe(631);
    expect(new Set(kanjivg)).toEqual(new Set(["CC-BY-SA-3.0"]));
  });
});

describe("loading", () => {
  test("strokes.jsonl and strokes-ja.jsonl are read on the first strokes request, not when the app starts or serves a detail or /meta", async () => {
    const read: string[] = [];
    const files = loadDistFiles(join(ROOT, "dist"));
    const watched: Record<string, string | Uint8Array> = {};
    for (const name of Object.keys(files)) {
      Object.defineProperty(watched, name, {
        enumerable: true,
        get: () => {
          read.push(name);
          return files[name] as string | Uint8Array;
        },
      });
    }
    const lazy = createApp({ dist: watched, onError: () => {} });
    await getJson(lazy, `${BASE}/hanja/${encodeURIComponent("水")}`);
    await getJson(lazy, `${BASE}/meta`);
    expect(read).not.toContain(DIST_FILES.strokes);
    expect(read).not.toContain(DIST_FILES.strokesJa);
    expect((await getJson(lazy, `${BASE}/hanja/${encodeURIComponent("水")}/strokes`)).status).toBe(200);
    expect(read).toContain(DIST_FILES.strokes);
    expect(read).toContain(DIST_FILES.strokesJa);
    expect((await getJson(lazy, `${BASE}/hanja/${encodeURIComponent("値")}/strokes`)).body.form).toBe("ja");
    await lazy.close();
  });

  describe("a host without strokes.jsonl and stroke-forms.txt (the npm package's data, the binary)", () => {
    const dir = mkdtempSync(join(tmpdir(), "hanja-no-strokes-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    test("loadDistFiles reads the folder without it; the strokes path answers 404 saying the host has none, the detail stroke_order null", async () => {
      for (const name of [...RUNTIME_FILES, DIST_FILES.manifest]) copyFileSync(join(ROOT, "dist", name), join(dir, name));
      const files = loadDistFiles(dir);
      expect(Object.keys(files)).not.toContain(DIST_FILES.strokes);
      const bare = createApp({ dist: files, onError: () => {} });
      const response = await call(bare, `${BASE}/hanja/${encodeURIComponent("水")}/strokes`);
      const problem = await expectProblem(response, 404, "not_found", "character");
      expect(problem.detail).toBe("this host serves no stroke data (its data leaves strokes.jsonl out), so none for 水 (U+6C34)");
      const detail = await getJson(bare, `${BASE}/hanja/${encodeURIComponent("水")}`);
      expect(detail.status).toBe(200);
      expect(detail.body.stroke_order).toBe(null);
      await bare.close();
    });
  });
});
