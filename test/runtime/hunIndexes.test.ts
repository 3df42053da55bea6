/** The 훈음 column of tables.json as the pipeline writes it and the runtime reads it back (search by 훈). */
import { describe, expect, test } from "vitest";
import { buildTables } from "../../pipeline/build/tables.ts";
import { loadData } from "../../runtime/core/data/load.ts";
import { hunIndexes, hunsContaining } from "../../runtime/core/hanja/hunIndexes.ts";
import { DIST_FILES } from "../../runtime/format/dist.ts";
import { distFiles, distText } from "../helpers/app.ts";
import { hanja } from "../pipeline/helpers.ts";

const withHunum = (character: string, ...items: [string, string][]) => ({ ...hanja(character, ["가"]), hunum: items.map(([hun, eum]) => ({ hun, eum })) });

describe("tables.json's 훈음 column", () => {
  const records = [withHunum("水", ["물", "수"], ["고를", "수"]), withHunum("一"), withHunum("家", ["집", "가"], ["괘 이름", "가"])];
  const { hunum } = buildTables(records, {}, ["", "", ""], []);

  test("is one string, read back into the record's 훈음 in order, a record without any kept in its place", () => {
    expect(hunum).toBe("물 수;고를 수||집 가;괘 이름 가");
    const indexes = hunIndexes(hunum);
    expect(indexes.hunsOf).toEqual([["물", "고를"], [], ["집", "괘 이름"]]);
    expect(indexes.byHunum.get("괘 이름 가")).toEqual([2]);
    expect(indexes.byHun.get("물")).toEqual([0]);
  });

  test("finds the 훈 containing a query through its rarest code point, checking each candidate", () => {
    const indexes = hunIndexes(hunum);
    expect(hunsContaining(indexes, "이름")).toEqual([2]);
    expect(hunsContaining(indexes, "름이")).toEqual([]);
    expect(hunsContaining(indexes, "뷁")).toEqual([]);
  });

  test("a 훈 holding a separator fails the build, naming it and its character", () => {
    expect(() => buildTables([withHunum("水", ["물|불", "수"])], {}, [""], [])).toThrow('hanja dictionary: the 훈음 "물|불 수" of 水 holds');
    expect(() => buildTables([withHunum("水", ["물;불", "수"])], {}, [""], [])).toThrow("of 水 holds");
  });
});

describe("loading tables.json's 훈음", () => {
  test("a column that does not hold one entry per record is refused on the first Hangul search, saying to rebuild", () => {
    const tables = JSON.parse(distText(DIST_FILES.tables)) as { hunum: string };
    const data = loadData({ ...distFiles(), [DIST_FILES.tables]: JSON.stringify({ ...tables, hunum: `${tables.hunum}|물 수` }) });
    expect(() => data.characters.hun).toThrow(/tables\.json lists 훈음 for 8526 records, not 8525; rebuild dist/);
    const { characters } = loadData(distFiles());
    expect(characters.hun.byHun.get("물")).toContain(characters.position("水"));
  });
});
