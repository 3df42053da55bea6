/**
 * The idiom content review (issue 26): the named corrections, literal readings where the old
 * meanings opened with one, and the committed before/after report kept in step with idioms.csv.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readCsvTable } from "../../pipeline/load/csvTable.ts";
import { giveaways } from "../../pipeline/validate/giveaways.ts";
import { EXCEPTION_COLUMNS, GROUP_COLUMNS, LIST_FILES, MATURE_COLUMNS } from "../../pipeline/validate/idiomLists.ts";
import { IDIOM_COLUMNS } from "../../pipeline/validate/idioms.ts";
import { ROOT } from "../helpers/app.ts";

const DATA = join(ROOT, "pipeline/data");
type Row = { idx: string; hanja: string; hangul: string; literal: string; meaning: string };
let rows: Map<number, Row>;
const idiom = (idx: number) => rows.get(idx) as Row;

beforeAll(async () => {
  rows = new Map((await readCsvTable(join(DATA, "idioms.csv"), IDIOM_COLUMNS)).map((r) => [Number(r.values.idx), r.values]));
});

describe("the named corrections", () => {
  it("143 琴瑟之樂 reads 금실지락, the standard headword, through a documented reading exception (瑟 is 슬 in Unihan)", async () => {
    expect(idiom(143)).toMatchObject({ hanja: "琴瑟之樂", hangul: "금실지락" });
    const exceptions = await readCsvTable(join(DATA, LIST_FILES.exceptions), EXCEPTION_COLUMNS);
    const listed = exceptions.map((e) => [e.values.idx, e.values.character, e.values.reading]);
    expect(listed).toContainEqual(["143", "瑟", "실"]);
    expect(exceptions.find((e) => e.values.idx === "143")?.values.source).toMatch(/표준국어대사전/);
  });

  it("670 一目瞭然 and every other idiom with the initial-sound law's form inside it is a documented exception, with its source", async () => {
    expect(idiom(670)).toMatchObject({ hanja: "一目瞭然", hangul: "일목요연" });
    const exceptions = await readCsvTable(join(DATA, LIST_FILES.exceptions), EXCEPTION_COLUMNS);
    expect(exceptions.map((e) => [e.values.idx, e.values.character, e.values.reading])).toContainEqual(["670", "瞭", "요"]);
    // 143 and the 46 spellings the position rule sent to review (the build proves each is used).
    expect(exceptions).toHaveLength(47);
    for (const { values } of exceptions.filter((e) => e.values.idx !== "143")) {
      const { hanja, hangul } = idiom(Number(values.idx));
      expect(values.source, values.idx).toContain(`'${hangul}(${hanja})'`);
      expect(values.source, values.idx).toMatch(/한글 맞춤법 제1[0-3]항|본음|한국 한자음/);
      const at = [...hanja].indexOf(values.character, 1);
      expect([...hangul][at], values.idx).toBe(values.reading);
    }
  });

  it("361 病入膏肓 gives the main sense (an illness beyond cure) before the figurative one", () => {
    expect(idiom(361).meaning).toMatch(/^병이 .*고칠 수 없게 됨, 또는 .*(버릇|폐단)/);
  });

  it("295 無錢取食 no longer says the meal was bought (사 먹음) without money", () => {
    expect(idiom(295).meaning).not.toMatch(/사 먹/);
    expect(idiom(295).meaning).toMatch(/돈.*없.*먹음/);
  });

  it("451 生死苦樂 has no modifier stacked before its head noun (…쓰는, …이르는 말)", () => {
    expect(idiom(451).meaning).not.toMatch(/쓰는,/);
    expect(idiom(451).meaning).toMatch(/함께 겪는 사이/);
  });

  it("嘆 and 歎 are not mixed: every 'sigh' idiom writes 歎 (403 with 250, 257, 263, 851)", () => {
    const sighs = [...rows.values()].filter((r) => /[嘆歎]/.test(r.hanja));
    expect(sighs.map((r) => Number(r.idx)).sort((a, b) => a - b)).toEqual([250, 257, 263, 403, 851]);
    for (const r of sighs) expect(r.hanja, r.idx).not.toContain("嘆");
  });

  it("543 魚魯不辨 no longer says the hangul 어 and 노 look alike", () => {
    const { literal, meaning } = idiom(543);
    expect(`${literal} ${meaning}`).not.toMatch(/'어' 자|'노' 자/);
    expect(literal).toMatch(/魚.*魯/);
  });

  it("126 君子豹變 gives the classical and the modern sense", () => {
    const { meaning } = idiom(126);
    expect(meaning).toMatch(/고침/);
    expect(meaning).toMatch(/바꿈/);
  });

  it("no text says '…을 맞선다' (664, 762) and 746 does not say 어린 나이에 … 일찍", () => {
    for (const r of rows.values()) expect(`${r.literal} ${r.meaning}`, r.idx).not.toMatch(/[을를] 맞서/);
    expect(idiom(746).meaning).not.toMatch(/어린.*일찍|일찍.*어린/);
  });

  it("405 牝鷄司晨 is framed as a dated view, as 170, 440, 559 and 820 are", () => {
    for (const idx of [170, 405, 440, 559, 820]) expect(idiom(idx).meaning, String(idx)).toMatch(/예전|옛|던 /);
  });

  it("177 路柳墻花 keeps its idx and is withheld from quizzes and random idioms, with a reason", async () => {
    expect(idiom(177)).toMatchObject({ hanja: "路柳墻花", hangul: "노류장화" });
    const withheld = await readCsvTable(join(DATA, LIST_FILES.mature), MATURE_COLUMNS);
    expect(withheld.map((w) => w.values.idx)).toEqual(["177"]);
    expect(withheld[0]?.values.reason.length).toBeGreaterThan(10);
  });
});

/** The table rows of the committed report: idx, hanja, hangul, old meaning, new literal, new meaning. */
function reportRows(): string[][] {
  const text = readFileSync(join(DATA, "meaning-rewrite-report.md"), "utf8");
  return text
    .split("\n")
    .filter((line) => /^\| \d+ \|/.test(line))
    .map((line) =>
      line
        .slice(2, -2)
        .split(/ (?<!\\)\| /)
        .map((c) => (c === "—" ? "" : c.replaceAll("\\|", "|"))),
    );
}

describe("meaning-rewrite-report.md", () => {
  it("is in step with idioms.csv: every row's literal and meaning are the current ones, and the counts add up", () => {
    const report = reportRows();
    const text = readFileSync(join(DATA, "meaning-rewrite-report.md"), "utf8");
    const rewritten = Number(/(\d+) of 910 meanings rewritten/.exec(text)?.[1]);
    expect(report.filter(([, , , before, , after]) => before !== after)).toHaveLength(rewritten);
    expect(rewritten).toBeGreaterThan(800);
    for (const [idx, , , , literal, meaning] of report) {
      const current = idiom(Number(idx));
      expect([literal, meaning], String(idx)).toEqual([current.literal, current.meaning]);
    }
  });

  it("shows that every meaning which opened with a literal reading now has a literal, and no giveaway is left", () => {
    const report = reportRows();
    const opened = report.filter(([, , , before]) => giveaways("", "", before ?? "").some((why) => why.includes("literal reading")));
    expect(opened.length).toBeGreaterThan(400);
    for (const [idx] of opened) expect(idiom(Number(idx)).literal, String(idx)).not.toBe("");
    for (const r of rows.values()) expect(giveaways(r.hanja, r.hangul, r.meaning), r.idx).toEqual([]);
  });
});

describe("idiom-review-report.md", () => {
  it("is in step with the data: its after columns are today's meanings and groups", async () => {
    const text = readFileSync(join(DATA, "idiom-review-report.md"), "utf8");
    const groups = await readCsvTable(join(DATA, LIST_FILES.groups), GROUP_COLUMNS);
    const names = new Set(groups.map((g) => g.values.group));
    expect(text).toContain(`${names.size} holding ${groups.length} after`);
    const section = (title: string) => text.split(`## ${title}\n`)[1]?.split("\n## ")[0] ?? "";
    const meanings = section("Meanings changed")
      .split("\n")
      .filter((line) => /^\| \d+ \|/.test(line))
      .map((line) => line.slice(2, -2).split(" | "));
    expect(meanings.map(([idx]) => idx)).toEqual(["295", "361", "451"]);
    for (const [idx, , , , after] of meanings) expect(after, idx).toBe(idiom(Number(idx)).meaning);
    for (const line of section("Groups new or changed")
      .split("\n")
      .filter((l) => l.startsWith("| ") && !l.startsWith("| group"))) {
      const [name, , after] = line.slice(2).split(" | ");
      const members = groups.filter((g) => g.values.group === name).map((g) => `${g.values.idx} ${g.values.hangul}`);
      expect(after, name).toBe(members.join(", "));
    }
  });
});
