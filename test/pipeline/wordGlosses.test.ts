/**
 * The words' English meanings (docs/rules.md "Words", `pipeline/parse/wordGlosses.ts`,
 * `pipeline/pin/wordGlossesPin.ts`): the extract keeps okpyeon's glossed entries only; a word takes
 * the glosses of the entries written and read as it is, each sense once; a changed extract is refused.
 */
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { InputError } from "../../pipeline/load/types.ts";
import { wordGlossesText } from "../../pipeline/parse/wordGlosses.ts";
import { SCHOOL_LEVELS_DIR } from "../../pipeline/pin/schoolLevelsPin.ts";
import { WORD_GLOSSES_FILE, WORD_GLOSSES_PIN_FILE, extractWordGlosses, parseWordGlosses, readWordGlosses } from "../../pipeline/pin/wordGlossesPin.ts";
import { tempDir } from "./helpers.ts";

describe("wordGlossesText", () => {
  const words = [
    { hanja: "水道", readings: ["수도", "수돗"], note: null },
    { hanja: "一人", readings: ["일인"], note: null },
    { hanja: "先生", readings: ["선생", "선상"], note: null },
  ];
  test("joins the glosses of the entries read as one of the word's readings, each sense once, in code point order", () => {
    const { text, counts } = wordGlossesText(words, [
      { hanja: "水道", hangul: "수도", glosses: ["water supply", "waterworks"] },
      { hanja: "一人", hangul: "일인", glosses: ["one person"] },
      { hanja: "一人", hangul: "일인", glosses: ["one person; someone", "monarch"] },
      // Another reading than the word's, and a word the dictionary lacks: not used, counted.
      { hanja: "先生", hangul: "선쌩", glosses: ["teacher"] },
      { hanja: "火車", hangul: "화차", glosses: ["train"] },
    ]);
    expect(text).toBe("一人\tone person; someone; monarch\n水道\twater supply; waterworks\n");
    expect(counts).toEqual({ glossed: 2, unmatched: 2, dropped: 0 });
  });

  test("a gloss cut in the source (unbalanced brackets or quotes) is left out; '; ' inside brackets does not split a sense", () => {
    const { text, counts } = wordGlossesText(words, [
      { hanja: "先生", hangul: "선생", glosses: ["“teacher”) (South Korea", "teacher (one who teaches; an instructor)", "teacher", "Mr; sir"] },
    ]);
    expect(text).toBe("先生\tteacher (one who teaches; an instructor); teacher; Mr; sir\n");
    expect(counts).toEqual({ glossed: 1, unmatched: 0, dropped: 1 });
  });

  test("no glosses: an empty file", () => {
    expect(wordGlossesText(words, []).text).toBe("");
  });
});

describe("the pinned extract", () => {
  test("keeps okpyeon's entries with a gloss, hanja in code point order, glosses trimmed", () => {
    const json = JSON.stringify({
      words: {
        學生: [{ hangul: "학생", glosses: ["student", " pupil "], f: 1 }],
        水道: [
          { hangul: "수도", glosses: [] },
          { hangul: "수돗", glosses: ["tap"] },
        ],
        先生: [{ hangul: "선생", glosses: [""] }],
      },
    });
    expect(extractWordGlosses(json)).toBe("hanja\thangul\tglosses\n學生\t학생\tstudent\tpupil\n水道\t수돗\ttap\n");
  });

  test("a malformed line is named by file and line", () => {
    expect(() => parseWordGlosses("hanja\thangul\tglosses\n水道\t수도\ttap\n水\t수\twater\n")).toThrow(
      new InputError(`${WORD_GLOSSES_FILE}:3: expected hanja (two or more), a Hangul reading and one or more glosses, tab-separated: "水\\t수\\twater"`),
    );
  });

  test("the pinned folder reads 18,296 entries; a changed extract is refused by its hash", async () => {
    expect(readWordGlosses().entries.length).toBe(18_296);
    const dir = await tempDir();
    for (const name of [WORD_GLOSSES_PIN_FILE, WORD_GLOSSES_FILE]) await copyFile(join(SCHOOL_LEVELS_DIR, name), join(dir, name));
    const text = await readFile(join(dir, WORD_GLOSSES_FILE), "utf8");
    await writeFile(join(dir, WORD_GLOSSES_FILE), text.replace("\tone or two", "\tone or three"));
    expect(() => readWordGlosses(dir)).toThrow(/SHA-256 [0-9a-f]{64} is not the pinned/);
  });
});
