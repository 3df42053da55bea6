/**
 * The words' English meanings (docs/rules.md "Words", docs/api.md "Words"): `GET /words` gives each
 * item `meaning_en` (the glosses okpyeon compiles from English Wiktionary, CC BY-SA 4.0, kept in
 * `dist/words-en.txt`), null where the source has none; a host without that file (the npm package)
 * gives no `meaning_en` at all; a detail's first words never carry it; `/meta` and `/terms` name the
 * licence and the attribution.
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { createApp } from "../../runtime/core/app.ts";
import { loadDistFiles } from "../../runtime/entry/loadDist.ts";
import { DIST_FILES, RUNTIME_FILES } from "../../runtime/format/dist.ts";
import { ROOT, call, distFiles, getJson, testApp } from "../helpers/app.ts";
import { BASE } from "./hanja-expect.ts";

const app = testApp();
type Item = { hanja: string; meaning_en?: string | null };
const words = async (target: App, query: string): Promise<Item[]> => (await getJson(target, `${BASE}/words?${query}`)).body.data;
type App = ReturnType<typeof testApp>;

describe("meaning_en of GET /words", () => {
  test("a word with glosses has them, each sense once, joined by '; '; a word without has null", async () => {
    const found = await words(app, `q=${encodeURIComponent("水道")}&per_page=50`);
    expect(found.find((w) => w.hanja === "水道")?.meaning_en).toBe("water supply; waterworks (municipal utility); tap water");
    // 一人: two entries of the source (one person / one person; someone / monarch), each sense once.
    expect((await words(app, `q=${encodeURIComponent("一人")}`)).find((w) => w.hanja === "一人")?.meaning_en).toBe("one person; someone; monarch");
    const all = await words(app, `char=${encodeURIComponent("水")}&per_page=50`);
    expect(all.every((w) => "meaning_en" in w)).toBe(true);
    expect(all.some((w) => w.meaning_en === null)).toBe(true);
    expect(all.filter((w) => typeof w.meaning_en === "string").length).toBeGreaterThan(10);
  });

  test("15,783 words have one, and every line of words-en.txt is a word the service lists", async () => {
    const text = distFiles()[DIST_FILES.wordsEn] as string;
    const lines = text.trimEnd().split("\n");
    expect(lines.length).toBe(15_783);
    for (const line of lines.slice(0, 200)) {
      const [hanja, meaning] = line.split("\t");
      const item = (await words(app, `q=${encodeURIComponent(hanja as string)}`)).find((w) => w.hanja === hanja);
      expect(item?.meaning_en, hanja).toBe(meaning);
    }
  });

  test("a character detail's first words carry no meaning_en (its body is the package's bytes)", async () => {
    const { body } = await getJson(app, `${BASE}/hanja/${encodeURIComponent("水")}`);
    expect(body.words.length).toBe(3);
    for (const word of body.words) expect(word).not.toHaveProperty("meaning_en");
  });
});

describe("a host without words-en.txt (the npm package's data)", () => {
  const dir = mkdtempSync(join(tmpdir(), "hanja-no-glosses-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("loadDistFiles reads a folder without it, and the words have no meaning_en", async () => {
    for (const name of [...RUNTIME_FILES, DIST_FILES.manifest]) copyFileSync(join(ROOT, "dist", name), join(dir, name));
    const files = loadDistFiles(dir);
    expect(Object.keys(files)).not.toContain(DIST_FILES.wordsEn);
    expect(Object.keys(loadDistFiles(join(ROOT, "dist")))).toContain(DIST_FILES.wordsEn);
    const bare = createApp({ dist: files, onError: () => {} });
    const found = await words(bare, `q=${encodeURIComponent("水道")}`);
    expect(found.length).toBeGreaterThan(0);
    for (const word of found) expect(word).not.toHaveProperty("meaning_en");
    await bare.close();
  });
});

describe("licence", () => {
  test("/meta names CC BY-SA 4.0 for the words' meanings; /terms ends with their attribution", async () => {
    const { body } = await getJson(app, `${BASE}/meta`);
    expect(body.licenses.word_meanings).toMatchObject({
      name: expect.stringContaining("CC BY-SA 4.0"),
      url: "https://creativecommons.org/licenses/by-sa/4.0/",
    });
    const terms = await (await call(app, `${BASE}/terms`)).text();
    const section = terms.slice(terms.lastIndexOf("## English meanings of words"));
    expect(section).toContain("https://en.wiktionary.org");
    expect(section).toContain("https://github.com/jjm4000/okpyeon");
    expect(section).toContain("not under the terms above");
  });
});
