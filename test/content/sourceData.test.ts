/**
 * The product's own content (pipeline/data): 910 idioms, 128 starter glosses, their terms.
 * Every rule of docs/rules.md "Source data" is checked by running the pipeline's validators on the real files against
 * the real 17.0.0 records, plus the content rules of the content issue.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readCsvTable } from "../../pipeline/load/csvTable.ts";
import { validateIdiomContent } from "../../pipeline/validate/idiomContent.ts";
import { ALLOWED_COLUMNS, EXCEPTION_COLUMNS, GROUP_COLUMNS, LIST_FILES, MATURE_COLUMNS } from "../../pipeline/validate/idiomLists.ts";
import { REVIEWED_COLUMNS, THEME_COLUMNS } from "../../pipeline/validate/idiomReview.ts";
import { IDIOM_COLUMNS, type IdiomRow } from "../../pipeline/validate/idioms.ts";
import { STARTER_COLUMNS, type StarterRow, validateStarters } from "../../pipeline/validate/starters.ts";
import { DIST_FILES } from "../../runtime/format/dist.ts";
import type { HanjaRecord } from "../../runtime/format/records.ts";
import { chosung } from "../../runtime/format/hangul.ts";
import { ROOT, getJson, testApp } from "../helpers/app.ts";

const DATA = join(ROOT, "pipeline/data");
let byCharacter: Map<string, HanjaRecord>;
let idiomRows: IdiomRow[];
let starterRows: StarterRow[];
let sources: Parameters<typeof validateIdiomContent>[0];

beforeAll(async () => {
  const lines = readFileSync(join(ROOT, "dist", DIST_FILES.characters), "utf8")
    .trimEnd()
    .split("\n");
  byCharacter = new Map(lines.map((l) => JSON.parse(l) as HanjaRecord).map((r) => [r.character, r]));
  idiomRows = await readCsvTable(join(DATA, "idioms.csv"), IDIOM_COLUMNS);
  starterRows = await readCsvTable(join(DATA, "starter.csv"), STARTER_COLUMNS);
  sources = {
    idiomRows,
    groupRows: await readCsvTable(join(DATA, LIST_FILES.groups), GROUP_COLUMNS),
    allowedRows: await readCsvTable(join(DATA, LIST_FILES.allowed), ALLOWED_COLUMNS),
    matureRows: await readCsvTable(join(DATA, LIST_FILES.mature), MATURE_COLUMNS),
    exceptionRows: await readCsvTable(join(DATA, LIST_FILES.exceptions), EXCEPTION_COLUMNS),
    themeRows: await readCsvTable(join(DATA, LIST_FILES.themes), THEME_COLUMNS),
    reviewedRows: await readCsvTable(join(DATA, LIST_FILES.reviewed), REVIEWED_COLUMNS),
  };
});

describe("idioms.csv", () => {
  it("has 910 rows that pass every build rule (characters, readings with 두음법칙, duplicates, lengths, giveaways, close meanings, lists)", () => {
    expect(idiomRows).toHaveLength(910);
    const { idioms, quiz } = validateIdiomContent(sources, byCharacter);
    expect(idioms).toHaveLength(910);
    expect(quiz.group.filter((g) => g.length > 0).length).toBeGreaterThan(400);
  });

  it("has a review by theme covering every idiom, so the build checks the synonym groups against it", () => {
    const themed = new Set(sources.themeRows?.map((r) => r.values.idx));
    expect(themed.size).toBe(910);
    const decisions = new Set(sources.reviewedRows?.map((r) => r.values.decision));
    expect([...decisions].sort()).toEqual(["different", "same"]);
  });

  it("numbers the rows 1…910 in 가나다 order of the hangul, but for an idx kept when its reading was corrected (143)", () => {
    expect(idiomRows.map((r) => Number(r.values.idx))).toEqual(Array.from({ length: 910 }, (_, i) => i + 1));
    // 143's hangul was corrected after its idx was published (the other reading exceptions only
    // document a spelling the idioms always had).
    const corrected = new Set(["143"]);
    const hangul = idiomRows.filter((r) => !corrected.has(r.values.idx)).map((r) => r.values.hangul);
    expect(hangul.length).toBe(909);
    expect([...hangul].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(hangul);
  });

  it("has unique hanja (also after compatibility folding), hangul spellings and meanings", () => {
    const unique = (values: string[]) => new Set(values).size;
    expect(unique(idiomRows.map((r) => r.values.hanja.normalize("NFKC")))).toBe(910);
    expect(unique(idiomRows.map((r) => r.values.meaning))).toBe(910);
  });

  it("uses only hanja with a Korean standard source (KS X 1001/1002, education or name hanja)", () => {
    const bad = idiomRows.flatMap((r) => [...r.values.hanja].filter((ch) => !/:[01EN]*[01EN]/.test(byCharacter.get(ch)?.readings_raw ?? "")));
    expect(bad).toEqual([]);
  });

  it("writes each meaning as one sentence without a closing full stop", () => {
    const bad = idiomRows.filter((r) => /[.。]$/.test(r.values.meaning) || /[.?!]\s/.test(r.values.meaning));
    expect(bad.map((r) => r.values.hanja)).toEqual([]);
  });

  it("covers every initial consonant an idiom can start with", () => {
    const initials = new Set(idiomRows.map((r) => chosung(r.values.hangul)[0]));
    for (const c of "ㄱㄴㄷㅁㅂㅅㅇㅈㅊㅌㅍㅎ") expect(initials).toContain(c);
  });
});

describe("starter.csv", () => {
  it("has 128 glosses that pass every build rule", () => {
    expect(starterRows).toHaveLength(128);
    expect(validateStarters(starterRows, byCharacter).size).toBe(128);
  });

  it("glosses only education hanja, each sense in 훈음 form ending with one of the character's readings", () => {
    for (const { values } of starterRows) {
      const record = byCharacter.get(values.character);
      expect(record?.education_hanja, values.character).toBe(true);
      for (const sense of values.meaning_ko.split(", ")) {
        expect(sense).toMatch(/^\S.* [가-힣]$/);
        expect(record?.readings).toContain(sense.slice(-1));
      }
    }
  });

  it("glosses the basics a beginner meets first", () => {
    const glosses = new Map(starterRows.map((r) => [r.values.character, r.values.meaning_ko]));
    expect(glosses.get("天")).toBe("하늘 천");
    expect(glosses.get("水")).toBe("물 수");
    for (const ch of "一二三四五六七八九十日月火水木金土山川人父母東西南北上下中大小學校") expect(glosses.has(ch), ch).toBe(true);
  });
});

describe("idiom terms", () => {
  it("say who wrote the content, that running the software with it is licensed, that redistributing it as a dataset is not permitted, and the Unicode notice", () => {
    const terms = readFileSync(join(DATA, "TERMS.md"), "utf8");
    expect(terms).toMatch(/contributors/i);
    const running = section(terms, "Running the software with its content");
    expect(running).toMatch(/npm package[^]*compiled binary[^]*server you run yourself/);
    expect(running).toMatch(/commercially or not/);
    expect(section(terms, "What is not permitted")).toMatch(/Extracting the content[^]*redistributing or reselling it \*\*as a dataset\*\*/);
    expect(terms).toContain("https://www.unicode.org/license.txt");
  });

  it("are linked from /meta and served at that address", async () => {
    const app = testApp();
    const meta = await getJson(app, "/hanja/v1/meta");
    const url = meta.body.licenses.idioms.url as string;
    expect(url).toBe("/hanja/v1/terms");
    const terms = await app.fetch(new Request(`http://localhost${url}`));
    expect(terms.status).toBe(200);
    // The terms as written, then the notice of the dictionary `hunum` comes from (test/http/hanja-hunum.test.ts).
    const served = await terms.text();
    expect(served.startsWith(readFileSync(join(DATA, "TERMS.md"), "utf8").trimEnd())).toBe(true);
    expect(served).toContain("## libhangul hanja dictionary");
  });
});

/** The text of the `## title` section of a Markdown document, up to the next `##` heading. */
function section(markdown: string, title: string): string {
  const start = markdown.indexOf(`## ${title}\n`);
  expect(start, title).toBeGreaterThanOrEqual(0);
  const end = markdown.indexOf("\n## ", start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}
