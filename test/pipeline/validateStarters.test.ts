import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCsvTable } from "../../pipeline/load/csvTable.ts";
import { InputError } from "../../pipeline/load/types.ts";
import { readUnihanZip } from "../../pipeline/load/unihanZip.ts";
import { RECORD_PROPERTIES, buildHanjaRecords, collectUnihan } from "../../pipeline/parse/hanjaRecords.ts";
import { STARTER_COLUMNS, type StarterRow, validateStarters } from "../../pipeline/validate/starters.ts";
import type { HanjaRecord } from "../../runtime/format/records.ts";
import { FIXTURES, SMALL_ZIP, characters } from "./helpers.ts";

let line = 1;
const row = (character: string, meaning_ko: string): StarterRow => ({ line: ++line, values: { character, meaning_ko } });

const CHARS = characters("天:천", "水:수", "樂:낙 락 악 요", "不:부 불", "𮕩:쇠");

function problems(rows: StarterRow[], chars: ReadonlyMap<string, HanjaRecord> = CHARS): string {
  try {
    validateStarters(rows, chars);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error("expected the starters to be rejected");
}

describe("validateStarters", () => {
  it("accepts the fixture glosses against the fixture characters", async () => {
    const reader = readUnihanZip(SMALL_ZIP);
    const records = buildHanjaRecords(await collectUnihan(reader.entries(RECORD_PROPERTIES, { onlyWith: "kHangul" })), "16.0.0");
    const rows = await readCsvTable(join(FIXTURES, "starter-small.csv"), STARTER_COLUMNS);
    const glosses = validateStarters(rows, new Map(records.map((r) => [r.character, r])));
    expect(glosses.size).toBe(12);
    expect(glosses.get("水")).toBe("물 수");
    expect(glosses.get("樂")).toBe("즐길 락, 노래 악");
  });

  it("accepts one or several 훈음 senses, each ending with a reading, and astral characters", () => {
    const glosses = validateStarters([row("天", "하늘 천"), row("樂", "즐길 락, 노래 악, 좋아할 요"), row("不", "아닐 불"), row("𮕩", "쇠할 쇠")], CHARS);
    expect([...glosses.keys()]).toEqual(["天", "樂", "不", "𮕩"]);
  });

  it.each([["水水"], [""], ["天 "]])("rejects character %j that is not one character", (character) => {
    const bad = row(character, "하늘 천");
    expect(problems([bad])).toContain(`starter.csv:${bad.line}: character ${JSON.stringify(character)} is not one character`);
  });

  it("rejects a character that is not in the dataset", () => {
    const bad = row("火", "불 화");
    expect(problems([bad])).toContain(`starter.csv:${bad.line}: "火" is not in the character dataset`);
  });

  it("rejects a gloss whose reading is not one of the character's", () => {
    const bad = row("水", "물 쉬");
    expect(problems([bad])).toContain(`starter.csv:${bad.line}: gloss "물 쉬" of 水 ends with 쉬, not one of its readings (수)`);
    const oneSense = row("樂", "즐길 락, 노래 앜");
    expect(problems([oneSense])).toContain("ends with 앜");
  });

  it.each([["하늘천"], ["천"], ["하늘 천 "], [" 하늘 천"], ["하늘 tian"], ["하늘  천"], [""]])("rejects gloss %j that is not in 훈음 form", (gloss) => {
    expect(problems([row("天", gloss)])).toContain(`gloss ${JSON.stringify(gloss)} of 天 is not in 훈음 form`);
  });

  it("rejects a repeated character, naming the first line", () => {
    const first = row("天", "하늘 천");
    const again = row("天", "하늘 천");
    expect(problems([first, again])).toContain(`starter.csv:${again.line}: 天 repeats line ${first.line}`);
  });

  it("lists every bad row with file and line", () => {
    const rows = [row("天", "하늘 천"), row("火", "불 화"), row("水", "물 쉬"), row("不", "아닐 불"), row("水水", "물 수")];
    const message = problems(rows);
    expect(message.startsWith("starter.csv: 3 bad row(s):\n")).toBe(true);
    for (const bad of [rows[1], rows[2], rows[4]]) expect(message).toContain(`starter.csv:${bad?.line}:`);
  });
});
