/** The 훈음 search by 훈 reads: decoded once from the records (`CharacterData.fields`), never a second copy in tables.json. */
import { describe, expect, test } from "vitest";
import { buildTables } from "../../pipeline/build/tables.ts";
import { loadData } from "../../runtime/core/data/load.ts";
import { hunIndexes, hunsContaining } from "../../runtime/core/hanja/hunIndexes.ts";
import { createCharacterBank } from "../../runtime/core/quiz/characterBank.ts";
import { DIST_FILES, FLAG_HUNUM } from "../../runtime/format/dist.ts";
import { distFiles, distText } from "../helpers/app.ts";
import { hanja } from "../pipeline/helpers.ts";

const hunum = [
  [
    { hun: "물", eum: "수" },
    { hun: "고를", eum: "수" },
  ],
  [],
  [
    { hun: "집", eum: "가" },
    { hun: "괘 이름", eum: "가" },
  ],
];

describe("the 훈 indexes", () => {
  test("hold each record's 훈음 in order, a record without any kept in its place", () => {
    const indexes = hunIndexes(3, (position) => hunum[position] ?? []);
    expect(indexes.hunsOf).toEqual([["물", "고를"], [], ["집", "괘 이름"]]);
    expect(indexes.byHunum.get("괘 이름 가")).toEqual([2]);
    expect(indexes.byHun.get("물")).toEqual([0]);
  });

  test("find the 훈 containing a query through its rarest code point, checking each candidate", () => {
    const indexes = hunIndexes(3, (position) => hunum[position] ?? []);
    expect(hunsContaining(indexes, "이름")).toEqual([2]);
    expect(hunsContaining(indexes, "름이")).toEqual([]);
    expect(hunsContaining(indexes, "뷁")).toEqual([]);
  });
});

describe("the 훈음 in dist/", () => {
  test("tables.json carries no copy of them: the records are their one encoding", () => {
    const withHunum = { ...hanja("水", ["수"]), hunum: [{ hun: "물|불", eum: "수" }] };
    expect(buildTables([withHunum], {}, [""], [])).not.toHaveProperty("hunum");
    expect(JSON.parse(distText(DIST_FILES.tables))).not.toHaveProperty("hunum");
  });

  test("are decoded once: search by 훈 and the character quizzes read the same decoded fields", () => {
    const data = loadData(distFiles());
    const { characters } = data;
    const water = characters.position("水") as number;
    expect(characters.hun.byHun.get("물")).toContain(water);
    expect(characters.hun.hunsOf[water]).toEqual(characters.fields(water).hunum.map((h) => h.hun));
    expect(createCharacterBank(data).hunum(water)).toBe(characters.fields(water).hunum);
  });

  test("a record whose text lacks the field is refused on first use, naming it and saying to rebuild", () => {
    const files = distFiles();
    const details = Buffer.from(files[DIST_FILES.details] as Uint8Array).toString("utf8");
    const damaged = details.replaceAll('"hunum":', '"hunnum":');
    const tables = JSON.parse(distText(DIST_FILES.tables)) as { detailBytes: number[]; flags: number[] };
    tables.detailBytes = tables.detailBytes.map((bytes) => bytes + 1);
    const data = loadData({ ...files, [DIST_FILES.details]: new TextEncoder().encode(damaged), [DIST_FILES.tables]: JSON.stringify(tables) });
    const first = tables.flags.findIndex((flags) => (flags & FLAG_HUNUM) !== 0);
    expect(() => data.characters.hun).toThrow(`dist: record ${first + 1} has no hunum; rebuild dist/`);
  });
});
