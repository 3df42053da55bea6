/**
 * The 대표훈음 of the 1,800 education hanja and the corrections of the dictionary's 훈음
 * (`pipeline/data/representative-hunum.csv`, `hunum-corrections.csv`, docs/rules.md "훈음") as the
 * service shows them: first in `hunum` and marked, `reading`, the card and the list, the 훈음 and
 * reading quizzes. Checked on the built data and against the committed files read here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCsvTable } from "../../pipeline/load/csvTable.ts";
import { CORRECTION_COLUMNS, HUNUM_FILES, REPRESENTATIVE_COLUMNS } from "../../pipeline/parse/hunum.ts";
import { createCharacterBank } from "../../runtime/core/quiz/characterBank.ts";
import { hanjaToHunum } from "../../runtime/core/quiz/types/hanjaToHunum.ts";
import { hanjaToReading } from "../../runtime/core/quiz/types/hanjaToReading.ts";
import { hunumToHanja } from "../../runtime/core/quiz/types/hunumToHanja.ts";
import { seededRandom } from "../../runtime/core/util/random.ts";
import type { HanjaRecord } from "../../runtime/format/records.ts";
import { ROOT, getJson, testApp } from "../helpers/app.ts";
import type { CharacterQuiz } from "../helpers/characterOracle.ts";
import { BASE, type Envelope, fileRecords } from "../http/hanja-expect.ts";
import { Q, ipFor } from "../http/quiz-helpers.ts";

const DATA = join(ROOT, "pipeline/data");
const app = testApp({ random: seededRandom(47) });
const byCharacter = new Map(fileRecords().map((r) => [r.character, r]));
const record = (character: string) => byCharacter.get(character) as HanjaRecord;
const text = (h: { hun: string; eum: string } | undefined) => (h === undefined ? "" : `${h.hun} ${h.eum}`);
const representativeRows = await readCsvTable(join(DATA, HUNUM_FILES.representative), REPRESENTATIVE_COLUMNS);
const correctionRows = await readCsvTable(join(DATA, HUNUM_FILES.corrections), CORRECTION_COLUMNS);

describe("the 대표훈음 on the records", () => {
  it("every education hanja has its row's 대표훈음 first, marked, and only there; no other record has a marked 훈음", () => {
    const rows = new Map(representativeRows.map(({ values }) => [values.character, `${values.hun} ${values.eum}`]));
    const education = fileRecords().filter((r) => r.education_hanja);
    expect(education).toHaveLength(1800);
    expect(rows.size).toBe(1800);
    for (const r of education) {
      expect(text(r.hunum[0]), r.character).toBe(rows.get(r.character));
      expect(r.hunum[0]?.representative, r.character).toBe(true);
      expect(
        r.hunum.slice(1).filter((h) => h.representative !== undefined || text(h) === text(r.hunum[0])),
        r.character,
      ).toEqual([]);
    }
    expect(fileRecords().filter((r) => !r.education_hanja && r.hunum.some((h) => "representative" in h))).toEqual([]);
  });

  it.each([
    ["答", "대답 답", "젖을 답"],
    ["北", "북녘 북", "달아날 배"],
    ["行", "다닐 행", "시장 항"],
    ["食", "먹을 식", "밥 먹일 사"],
    ["金", "쇠 금", "성 금"],
    ["文", "글월 문", "무늬 문"],
    ["老", "늙을 로", "늙을 노"],
    ["來", "올 래", "올 내"],
    ["梁", "들보 량", "푸조나무 량"],
    ["第", "차례 제", "집 제"],
  ])("%s: %s first and marked (the dictionary's first was %s)", (character, first, before) => {
    const r = record(character);
    expect(r.hunum[0]).toEqual({ ...{ hun: first.split(" ")[0], eum: first.split(" ")[1] }, representative: true });
    expect(r.hunum.map(text)).not.toContain(undefined);
    // The dictionary's former first is not first any more (it stays listed unless a correction removed it).
    expect(text(r.hunum[0])).not.toBe(before);
  });

  it("the 128 starter glosses are unchanged, and each gloss's first 훈음 is the 대표훈음", () => {
    const starters = fileRecords().filter((r) => r.starter);
    expect(starters).toHaveLength(128);
    const glossRows = readFileSync(join(DATA, "starter.csv"), "utf8").trim().split("\n").slice(1);
    expect(starters.map((r) => `${r.character},${r.meaning_ko?.includes(",") ? `"${r.meaning_ko}"` : r.meaning_ko}`).sort()).toEqual(glossRows.sort());
    expect(starters.filter((r) => r.meaning_ko?.split(", ")[0] !== text(r.hunum[0])).map((r) => r.character)).toEqual([]);
  });
});

describe("the corrections of the dictionary's 훈음", () => {
  it("no misspelling the issue names is left (宮 굴궐, 備 깆출, 怒 성냉, 陶 질 그도, 忽 소흘히, 信 맏길, 削 깍을, 寅 세째), and the fixed forms are there", () => {
    // As the dictionary writes them; and no education hanja's 훈 with these misspelt words (the editors covered the 1,800).
    const all = fileRecords()
      .filter((r) => r.education_hanja)
      .flatMap((r) => r.hunum.map((h) => `${r.character} ${text(h)}`));
    for (const wrong of ["宮 굴궐 궁", "備 깆출 비", "怒 성냉 로", "陶 질 그도 도", "忽 소흘히 할 홀", "信 맏길 신", "削 깍을 삭", "寅 세째지지 인"]) {
      expect(all, wrong).not.toContain(wrong);
    }
    expect(all.filter((h) => /굴궐|깆출|성냉|그도|소흘히|맏길|깍을|세째/.test(h))).toEqual([]);
    expect(record("宮").hunum.map(text)).toContain("대궐 궁");
    expect(record("備").hunum.map(text)).toContain("갖출 비");
    expect(record("削").hunum.map(text)).toContain("깎을 삭");
  });

  it("帳: no run-together 훈 (휘장 장막 장), its two 훈 apart; 度 and 易 pair each 훈 with its 음", () => {
    expect(record("帳").hunum.map(text)).toEqual(["장막 장", "휘장 장"]);
    expect(record("度").hunum.map(text)).not.toContain("법도 탁");
    expect(record("度").hunum[0]).toMatchObject({ hun: "법도", eum: "도" });
    expect(record("易").hunum.map(text)).not.toContain("바꿀 이");
    expect(record("易").hunum[0]).toMatchObject({ hun: "바꿀", eum: "역" });
  });

  it("姊, which the dictionary has no 훈음 for, has one; 件 물건, 係 맬 and 竝 나란히 병 are there", () => {
    expect(record("姊").hunum.map(text)).toEqual(["손윗누이 자"]);
    expect(record("件").hunum.map(text)).toContain("물건 건");
    expect(record("係").hunum.map(text)).toContain("맬 계");
    expect(text(record("竝").hunum[0])).toBe("나란히 병");
  });

  it("each applied correction shows: its corrected 훈음 is listed, its as_given is gone", () => {
    for (const { line, values } of correctionRows) {
      const listed = record(values.character).hunum.map(text);
      if (values.corrected !== "") expect(listed, `line ${line}`).toContain(values.corrected);
      else expect(listed, `line ${line}`).not.toContain(values.as_given);
      if (values.as_given !== "" && values.corrected !== "") expect(listed, `line ${line}`).not.toContain(values.as_given);
    }
  });
});

describe("reading", () => {
  it.each([
    ["北", "북"],
    ["行", "행"],
    ["金", "금"],
    ["員", "원"],
    ["宿", "숙"],
    ["數", "수"],
    ["葉", "엽"],
    ["樂", "락"],
    ["責", "책"],
    ["車", "거"],
  ])("%s reads %s; its readings keep Unihan's order", (character, reading) => {
    const r = record(character);
    expect(r.reading).toBe(reading);
    expect(r.readings_raw.split(" ").map((raw) => raw.split(":")[0])).toEqual(expect.arrayContaining(r.readings));
    expect(r.readings).toEqual([...new Set(r.readings_raw.split(" ").map((raw) => raw.split(":")[0]))]);
  });

  it("is the 대표훈음's 음 for every education hanja, and one of the readings or a 훈음's 음 for every record", () => {
    for (const r of fileRecords()) {
      if (r.education_hanja) expect(r.reading, r.character).toBe(r.hunum[0]?.eum);
      expect([...r.readings, ...r.hunum.map((h) => h.eum)], r.character).toContain(r.reading);
    }
  });

  it("is on the detail and on the list's items, with the marked 훈음", async () => {
    const { body } = await getJson<HanjaRecord>(app, `${BASE}/hanja/${encodeURIComponent("北")}`);
    expect([body.reading, body.hunum[0]]).toEqual(["북", { hun: "북녘", eum: "북", representative: true }]);
    const list = await getJson<Envelope<HanjaRecord>>(app, `${BASE}/hanja?q=${encodeURIComponent("北")}`);
    expect(list.body.data[0]).toMatchObject({ character: "北", reading: "북", hunum: body.hunum });
  });

  it("the reader gives a character outside any word its reading (北 북, not the 배 of 敗北)", async () => {
    const { body } = await getJson<{ hangul: string }>(app, `${BASE}/read?text=${encodeURIComponent("北")}`);
    expect(body.hangul).toBe("북");
  });
});

describe("the quizzes", () => {
  const bank = createCharacterBank(app.data);
  const at = (character: string) => ({ kind: "character" as const, position: bank.position(character) as number });

  it("hanja_to_reading asks for the reading: 北 북, 行 행, 員 원, 宿 숙, 數 수, 葉 엽, 責 책", () => {
    const answers = [..."北行員宿數葉責"].map((c) => hanjaToReading.ask(bank, at(c))?.right.text);
    expect(answers.join(" ")).toBe("북 행 원 숙 수 엽 책");
  });

  it("hunum_to_hanja and hanja_to_hunum ask and answer with an education hanja's 대표훈음 (答 대답 답)", () => {
    expect(hunumToHanja.ask(bank, at("答"))?.prompt).toBe("대답 답");
    expect(hanjaToHunum.ask(bank, at("答"))?.right.text).toBe("대답 답");
    expect(hanjaToHunum.ask(bank, at("北"))?.right).toEqual({ text: "북녘 북", hangul: "북" });
  });

  it("hanja_to_reading never offers a reading of the character as a wrong choice (1,000 seeded quizzes, normal and hard, typed readings all accepted)", async () => {
    let checked = 0;
    for (const query of ["", "&difficulty=hard", "&level=all", "&level=all&difficulty=hard&choices=6"]) {
      for (let seed = 1; seed <= 12; seed++) {
        const { status, body } = await getJson<{ quizzes: CharacterQuiz[] }>(app, `${Q}/quiz?type=hanja_to_reading${query}&count=20&seed=${seed}`, {
          clientAddress: ipFor(4700 + checked),
        });
        expect(status).toBe(200);
        for (const quiz of body.quizzes) {
          const r = record(quiz.answer_character.character);
          const right = quiz.choices.find((c) => c.key === quiz.answer);
          expect(right?.text, quiz.prompt).toBe(r.reading);
          const own = new Set([...r.readings, ...r.hunum.map((h) => h.eum)]);
          const wrong = quiz.choices.filter((c) => c.key !== quiz.answer && own.has(c.text));
          expect(wrong, quiz.prompt).toEqual([]);
          checked++;
        }
      }
    }
    expect(checked).toBe(960);
  });
});
