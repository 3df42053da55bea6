/** Bank statements (statement.ts) and their deposits matched and credited (deposits.ts), in process. */
import { allKeys } from "../../runtime/core/quota/keyPages.ts";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import iconv from "iconv-lite";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type DepositReport,
  StatementChangedError,
  matchDeposits,
  readStatement,
  referencesIn,
  reportDeposits,
  reportStatement,
} from "../../runtime/cli/deposits.ts";
import {
  DETECT_BYTES,
  type Statement,
  StatementError,
  collect,
  decodeStatement,
  parseColumns,
  parseStatement,
  readStatementBytes,
  statementAmount,
  statementDate,
} from "../../runtime/cli/statement.ts";
import { MemoryQuotaStore } from "../../runtime/core/quota/memoryStore.ts";
import type { KeyRecord } from "../../runtime/core/quota/store.ts";
import { keyRecord } from "./contractCases.ts";

const STATEMENTS = join(import.meta.dirname, "../../fixtures/statements");
const NOW = new Date("2026-11-27T00:00:00.000Z");

/** The keys the fixtures' references name (HJ + the id's characters 5 to 10, upper-cased). */
function fixtureKeys(): Record<string, KeyRecord> {
  return {
    pending: keyRecord({ id: "key_ab12cdEFGHIJ" }),
    active: keyRecord({
      id: "key_QW34ERtyuiop",
      plan: "annual",
      status: "active",
      confirmed_at: "2025-12-01T00:00:00.000Z",
      expires_at: "2026-12-01T00:00:00.000Z",
    }),
    short: keyRecord({ id: "key_zx56cvBNMLKJ" }),
    // Two keys, one reference: an expired key of an earlier year and a pending application.
    twinExpired: keyRecord({
      id: "key_MN78BGbbbbbb",
      plan: "annual",
      status: "active",
      confirmed_at: "2024-11-01T00:00:00.000Z",
      expires_at: "2025-11-01T00:00:00.000Z",
    }),
    twinPending: keyRecord({ id: "key_mn78bgAAAAAA" }),
  };
}

function byLine(reports: DepositReport[]): Map<number, DepositReport> {
  return new Map(reports.map((report) => [report.line, report]));
}

describe("bank statement", () => {
  it("reads a UTF-8 export: the header under the account's details, the deposits with Korean time, withdrawals skipped", async () => {
    const statement = await readStatement(join(STATEMENTS, "kb-utf8.csv"));
    expect(statement.encoding).toBe("utf-8");
    expect(statement.skipped).toBe(1);
    expect(statement.unreadable).toEqual([]);
    expect(statement.deposits.map((d) => d.line)).toEqual([5, 6, 7, 8, 9, 11]);
    expect(statement.deposits[0]).toEqual({ line: 5, date: "2026-11-20T00:15:02.000Z", precision: "second", depositor: "타행이체 / hj ab12 cd", amount: 9900 });
  });

  it("detects an EUC-KR (CP949) export, syllables outside EUC-KR included, with dates without a time and amounts in 원", async () => {
    const bytes = readFileSync(join(STATEMENTS, "shinhan-euckr.csv"));
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bytes)).toThrow();
    const statement = await readStatement(join(STATEMENTS, "shinhan-euckr.csv"));
    expect(statement.encoding).toBe("euc-kr");
    expect(statement.skipped).toBe(1);
    expect(statement.deposits).toEqual([
      { line: 2, date: "2026-11-19T15:00:00.000Z", precision: "day", depositor: "ＨＪ ＡＢ１２ＣＤ", amount: 9900 },
      { line: 3, date: "2026-11-20T15:00:00.000Z", precision: "day", depositor: "박영희 hjzx56cv", amount: 9900 },
      { line: 5, date: "2026-11-22T15:00:00.000Z", precision: "day", depositor: "똠방각하", amount: 10000 },
    ]);
    // Forced UTF-8 on those bytes is refused rather than read as replacement characters.
    expect(() => decodeStatement(bytes, "utf-8")).toThrow(/not valid UTF-8.*--encoding euc-kr/);
    expect(decodeStatement(new TextEncoder().encode("\uFEFF거래일시"), "utf-8").text).toBe("거래일시");
  });

  // The banks' layouts (fixtures/statements/README.md says what each is modelled on): the same
  // four transfers, a withdrawal and a total line in each, read without --columns.
  const SECOND = "second" as const;
  const layouts = [
    {
      name: "kb-star",
      lines: [7, 8, 10],
      precision: SECOND,
      depositors: ["타행이체 / 김예시 / HJAB12CD", "모바일 / 이샘플 HJQW34ER", "타행이체 / 박가상 / hj-zx56cv"],
    },
    {
      name: "nh",
      lines: [5, 6, 8],
      precision: SECOND,
      depositors: ["타행이체 / 김예시 / HJAB12CD", "스마트폰 / 이샘플HJQW34ER", "타행이체 / 박가상 / hj zx56cv"],
    },
    {
      name: "hana",
      lines: [5, 6, 8],
      precision: "minute" as const,
      depositors: ["타행이체 / 김예시 HJAB12CD", "모바일 / 이샘플HJQW34ER", "타행이체 / 박가상 hj-zx56cv"],
    },
    {
      name: "woori",
      lines: [5, 6, 8],
      precision: SECOND,
      depositors: ["타행이체 / 김예시 / HJAB12CD", "모바일 / 이샘플HJQW34ER", "타행이체 / 박가상 hj zx56cv"],
    },
    {
      name: "shinhan-sol",
      lines: [5, 6, 8],
      precision: SECOND,
      depositors: ["타행이체 / 김예시 HJAB12CD", "모바일 / 이샘플HJQW34ER", "타행이체 / 박가상 hj-zx56cv"],
    },
    // One signed amount column, a withdrawal negative, and no total line.
    {
      name: "kakao",
      lines: [6, 7, 9],
      precision: SECOND,
      depositors: ["김예시 / HJAB12CD", "이샘플HJQW34ER", "박가상 / hj-zx56cv"],
      skipped: 1,
    },
    {
      name: "toss",
      lines: [5, 6, 8],
      precision: SECOND,
      depositors: ["김예시 / HJAB12CD", "이샘플HJQW34ER", "박가상 hj zx56cv"],
      skipped: 1,
    },
  ];
  for (const layout of layouts) {
    it(`reads the ${layout.name} layout in UTF-8 and EUC-KR alike, without --columns: its withdrawal and total line skipped`, async () => {
      const utf8 = readFileSync(join(STATEMENTS, `${layout.name}-utf8.csv`));
      const euckr = readFileSync(join(STATEMENTS, `${layout.name}-euckr.csv`));
      expect(iconv.decode(euckr, "cp949")).toBe(utf8.toString("utf-8"));
      for (const [file, encoding] of [
        [`${layout.name}-utf8.csv`, "utf-8"],
        [`${layout.name}-euckr.csv`, "euc-kr"],
      ] as const) {
        const statement = await readStatement(join(STATEMENTS, file));
        expect(statement.encoding).toBe(encoding);
        expect(statement.unreadable).toEqual([]);
        // The withdrawal and the total line (the signed layouts have none).
        expect(statement.skipped).toBe("skipped" in layout ? layout.skipped : 2);
        const times = layout.precision === "minute" ? ["00:15:00", "05:30:00", "02:11:00"] : ["00:15:02", "05:30:00", "02:11:11"];
        expect(statement.deposits).toEqual([
          { line: layout.lines[0], date: `2026-11-20T${times[0]}.000Z`, precision: layout.precision, depositor: layout.depositors[0], amount: 9900 },
          { line: layout.lines[1], date: `2026-11-21T${times[1]}.000Z`, precision: layout.precision, depositor: layout.depositors[1], amount: 9900 },
          { line: layout.lines[2], date: `2026-11-23T${times[2]}.000Z`, precision: layout.precision, depositor: layout.depositors[2], amount: 5000 },
        ]);
        expect(statement.deposits.map((deposit) => referencesIn(deposit.depositor))).toEqual([["HJAB12CD"], ["HJQW34ER"], ["HJZX56CV"]]);
      }
    });
  }

  it("skips total lines however captioned, and only when their date cannot be read", () => {
    const text = [
      "거래일시,보낸분/받는분,출금액(원),입금액(원)",
      "2026-11-20 10:00,합계,0,9900",
      "합계,,0,9900",
      "총계,,,19800",
      ",입금합계,,19800",
      "총 2건,,,19800",
      "합계(2건),,,19800",
      "소 계,,,19800",
      "2026-13-01,HJAB12CD,0,9900",
      "잔액,,,19800",
    ].join("\n");
    const statement = parseStatement(text, "utf-8");
    // A dated line whose depositor is 합계 is a deposit.
    expect(statement.deposits).toEqual([{ line: 2, date: "2026-11-20T01:00:00.000Z", precision: "minute", depositor: "합계", amount: 9900 }]);
    expect(statement.skipped).toBe(6);
    // A line that is not dated and not a total is still listed.
    expect(statement.unreadable).toEqual([
      { line: 9, problem: 'date "2026-13-01" is not a date (YYYY-MM-DD HH:MM)' },
      { line: 10, problem: 'date "잔액" is not a date (YYYY-MM-DD HH:MM)' },
    ]);
  });

  it("finds headers with units and joined names, --columns written the same way, a time column only for dates without one", () => {
    // Units in any bracket and spaces are not part of the name; 출금액(원) is not 입금액.
    const text =
      "거래 일시 (KST),보낸분 / 받는분,출금액(원),입금액［원］,거래시간\n2026-11-20 10:00,HJAB12CD,0,9900,23:59\n2026-11-21,HJAB12CD,0,9900,7:05\n2026-11-22,HJAB12CD,0,9900,0705\n";
    expect(parseStatement(text, "utf-8").deposits).toEqual([
      { line: 2, date: "2026-11-20T01:00:00.000Z", precision: "minute", depositor: "HJAB12CD", amount: 9900 },
      { line: 3, date: "2026-11-20T22:05:00.000Z", precision: "minute", depositor: "HJAB12CD", amount: 9900 },
      // A time that is not HH:MM leaves the day.
      { line: 4, date: "2026-11-21T15:00:00.000Z", precision: "day", depositor: "HJAB12CD", amount: 9900 },
    ]);
    // An amount header joined with another (입금/출금, a kind column) is not the amount column.
    expect(() => parseStatement("거래일시,보낸분,입금/출금\n2026-11-20,HJAB12CD,9900\n", "utf-8")).toThrow(/no header row/);
    const named = parseStatement(
      "날짜,받는분 메모,금액(원)\n2026-11-20 10:00,HJAB12CD,9900\n",
      "utf-8",
      parseColumns("date=날짜,depositor=받는분메모,amount=금액(원)"),
    );
    expect(named.deposits).toHaveLength(1);
  });

  it("reads other headers named by --columns, and says which columns it looked for when none is found", () => {
    const text = "날짜,받는분메모,금액\n2026-11-20 10:00,HJAB12CD,9900\n";
    expect(() => parseStatement(text, "utf-8")).toThrow(StatementError);
    expect(() => parseStatement(text, "utf-8")).toThrow(/no header row with a date \(거래일시, 거래일자, 입금일시…\).*--columns date=…,depositor=…,amount=…/);
    const statement = parseStatement(text, "utf-8", parseColumns("date=날짜, depositor=받는분메모, amount=금액"));
    expect(statement.deposits).toEqual([{ line: 2, date: "2026-11-20T01:00:00.000Z", precision: "minute", depositor: "HJAB12CD", amount: 9900 }]);
    expect(() => parseColumns("when=날짜")).toThrow(/"when=날짜" does not start with date=, depositor= or amount=/);
    expect(() => parseColumns("date=")).toThrow(/"date=" names no header/);
  });

  it("lists lines whose date or amount cannot be read, naming the cell", () => {
    const text = "거래일시,입금자명,입금액\n2026-02-30 10:00,HJAB12CD,9900\n2026-11-20,HJAB12CD,9.9천\n";
    expect(parseStatement(text, "utf-8").unreadable).toEqual([
      { line: 2, problem: 'date "2026-02-30 10:00" is not a date (YYYY-MM-DD HH:MM)' },
      { line: 3, problem: 'amount "9.9천" is not a sum in won' },
    ]);
  });

  it("reads the banks' date and amount spellings", () => {
    expect(statementDate("2026.11.20 14:03")).toBe("2026-11-20T05:03:00.000Z");
    expect(statementDate("20261120")).toBe("2026-11-19T15:00:00.000Z");
    expect(statementDate("2026/1/2 3:04:05")).toBe("2026-01-01T18:04:05.000Z");
    expect(statementDate("20.11.2026")).toBeUndefined();
    expect(statementAmount("₩9,900")).toBe(9900);
    expect(statementAmount("9900.00")).toBe(9900);
    expect(statementAmount("0")).toBeNull();
    expect(statementAmount("")).toBeNull();
    // A withdrawal in a signed column, with a hyphen or a minus sign; a plus sign is a deposit's.
    expect(statementAmount("-9,900")).toBe(-9900);
    expect(statementAmount("−9,900원")).toBe(-9900);
    expect(statementAmount("+9,900")).toBe(9900);
    expect(statementAmount("9-900")).toBeUndefined();
  });

  it("reads one signed amount column: a negative amount or a kind column's 출금 is a withdrawal, skipped", () => {
    const text = [
      "거래일시,구분,거래금액,거래 후 잔액,내용",
      '2026-11-20 10:00,입금,"9,900","9,900",HJAB12CD',
      '2026-11-20 11:00,출금,"-5,000","4,900",HJAB12CD',
      // Some exports write a withdrawal unsigned and say so in 구분.
      '2026-11-20 12:00,출금,"1,000","3,900",HJAB12CD',
      '2026-11-20 13:00,입금,구천구백,"3,900",HJAB12CD',
    ].join("\n");
    const statement = parseStatement(text, "utf-8");
    expect(statement.deposits).toEqual([{ line: 2, date: "2026-11-20T01:00:00.000Z", precision: "minute", depositor: "HJAB12CD", amount: 9900 }]);
    expect(statement.skipped).toBe(2);
    expect(statement.unreadable).toEqual([{ line: 5, problem: 'amount "구천구백" is not a sum in won' }]);
    // A deposit column is preferred to a signed one, and the operator's amount= column replaces both.
    const both = parseStatement("거래일시,내용,거래금액,입금액\n2026-11-20 10:00,HJAB12CD,-100,9900\n", "utf-8");
    expect(both.deposits.map((deposit) => deposit.amount)).toEqual([9900]);
    const named = parseStatement("거래일시,내용,금액\n2026-11-20 10:00,HJAB12CD,-100\n2026-11-20 11:00,HJAB12CD,200\n", "utf-8", parseColumns("amount=금액"));
    expect(named.deposits.map((deposit) => deposit.amount)).toEqual([200]);
    expect(named.skipped).toBe(1);
  });

  it("finds references in any case, with spaces or hyphens, in full-width letters, overlapping candidates included", () => {
    expect(referencesIn("hj ab12 cd")).toEqual(["HJAB12CD"]);
    expect(referencesIn("김철수-HJ-QW34ER")).toEqual(["HJQW34ER"]);
    expect(referencesIn("ＨＪ ＡＢ１２ＣＤ")).toEqual(["HJAB12CD"]);
    expect(referencesIn("HJHJAB12CD")).toEqual(["HJHJAB12", "HJAB12CD"]);
    expect(referencesIn("홍길동")).toEqual([]);
  });
});

describe("matching deposits", () => {
  it("reports matched, renewed, short, ambiguous and unmatched lines", async () => {
    const keys = fixtureKeys();
    const reports = byLine(matchDeposits(await readStatement(join(STATEMENTS, "kb-utf8.csv")), Object.values(keys), NOW));
    expect(reports.get(5)).toMatchObject({
      outcome: "matched",
      key: keys.pending?.id,
      reference: "HJAB12CD",
      action: "confirm",
      expires_at: "2027-11-27T00:00:00.000Z",
    });
    // An active annual key gets a year after its current end, not after today.
    expect(reports.get(6)).toMatchObject({ outcome: "matched", key: keys.active?.id, action: "renew", expires_at: "2027-12-01T00:00:00.000Z" });
    expect(reports.get(7)).toMatchObject({ outcome: "short", key: keys.short?.id, detail: "4,900 KRW short of the annual price (9,900 KRW)" });
    expect(reports.get(8)).toMatchObject({ outcome: "ambiguous", keys: [keys.twinExpired?.id, keys.twinPending?.id] });
    expect(reports.get(9)).toMatchObject({ outcome: "unmatched", depositor: "타행이체 / 홍길동" });
    // One line naming two applications is ambiguous too, whatever its amount.
    expect(reports.get(11)).toMatchObject({ outcome: "ambiguous", keys: [keys.pending?.id, keys.short?.id] });
    expect(reports.size).toBe(6);
  });

  it("takes a key's deposits in date order: the first confirms, the second renews after that year; a revoked key's is refused", () => {
    const pending = keyRecord({ id: "key_ab12cdEFGHIJ" });
    const revoked = keyRecord({ id: "key_rv00000000aa", status: "revoked", revoked_at: "2026-01-01T00:00:00.000Z" });
    const text = "거래일시,입금자명,입금액\n2026-11-22 09:00,HJAB12CD,9900\n2026-11-20 09:00,HJAB12CD,10000\n2026-11-21 09:00,HJRV0000,9900\n";
    const reports = byLine(matchDeposits(parseStatement(text, "utf-8"), [pending, revoked], NOW));
    expect(reports.get(3)).toMatchObject({
      outcome: "matched",
      action: "confirm",
      expires_at: "2027-11-27T00:00:00.000Z",
      detail: "confirms the annual plan; 100 KRW over the price (one year is credited)",
    });
    expect(reports.get(2)).toMatchObject({ outcome: "matched", action: "renew", expires_at: "2028-11-27T00:00:00.000Z" });
    expect(reports.get(4)).toMatchObject({ outcome: "revoked", key: revoked.id });
  });

  it("counts a deposit made before the key's last confirmation as already counted (confirmed by hand after it arrived)", async () => {
    const confirmed = keyRecord({
      id: "key_ab12cdEFGHIJ",
      plan: "annual",
      status: "active",
      confirmed_at: "2026-11-20T03:00:00.000Z",
      expires_at: "2027-11-20T03:00:00.000Z",
    });
    const [report] = matchDeposits(await readStatement(join(STATEMENTS, "shinhan-euckr.csv")), [confirmed], NOW);
    expect(report).toMatchObject({ line: 2, outcome: "counted", key: confirmed.id });
  });
});

describe("crediting deposits", () => {
  it("credits nothing to a key revoked, or credited, after the statement was matched: the line says so", async () => {
    const revoked = keyRecord({ id: "key_ab12cdEFGHIJ" });
    const credited = keyRecord({ id: "key_QW34ERtyuiop" });
    const store = new MemoryQuotaStore();
    for (const key of [revoked, credited]) store.insertKey(key);
    // Another process acts between the match (on the keys as listed) and the credit.
    const listed = await allKeys(store);
    store.updateKey(revoked.id, { status: "revoked", revoked_at: "2026-11-26T00:00:00.000Z" });
    store.updateKey(credited.id, { plan: "annual", status: "active", confirmed_at: "2026-11-26T00:00:00.000Z", expires_at: "2027-11-26T00:00:00.000Z" });
    const stale = Object.assign(Object.create(store), { keyPage: () => ({ keys: listed, next: null }) });
    const lines: string[] = [];
    const summary = await reportDeposits(stale, await readStatement(join(STATEMENTS, "kb-utf8.csv")), {
      apply: true,
      now: NOW,
      write: (line) => lines.push(line),
    });
    const reports = byLine(lines.map((line) => JSON.parse(line)));
    expect(reports.get(5)).toMatchObject({ outcome: "revoked", key: revoked.id, detail: "not credited: the key is revoked" });
    expect(reports.get(6)).toMatchObject({ outcome: "counted", key: credited.id, detail: "already counted (credited meanwhile)" });
    expect(reports.get(6)?.action).toBeUndefined();
    expect(summary).toMatch(/; 0 credited$/);
    expect(store.keyById(revoked.id)).toMatchObject({ status: "revoked" });
    expect(store.keyById(credited.id)).toMatchObject({ expires_at: "2027-11-26T00:00:00.000Z" });
  });

  it("changes nothing without apply; with it confirms and renews once: the same statement again credits nothing", async () => {
    const keys = fixtureKeys();
    const store = new MemoryQuotaStore();
    for (const key of Object.values(keys)) store.insertKey(key);
    const statement = await readStatement(join(STATEMENTS, "kb-utf8.csv"));
    const lines: string[] = [];
    const write = (line: string) => lines.push(line);

    const dry = await reportDeposits(store, statement, { apply: false, now: NOW, write });
    expect(dry).toBe(
      "keys: deposits (utf-8): 2 matched, 1 unmatched, 1 short, 2 ambiguous, 0 counted, 0 revoked, 0 early, 0 unreadable; 1 lines without a deposit skipped; nothing changed: run again with --apply to credit the matched lines",
    );
    expect(lines).toHaveLength(6);
    expect(await store.keyById(keys.pending?.id as string)).toEqual(keys.pending);

    lines.length = 0;
    const applied = await reportDeposits(store, statement, { apply: true, now: NOW, write });
    expect(applied).toMatch(/2 matched, .*; 2 credited$/);
    expect(lines.map((line) => JSON.parse(line)).filter((report) => report.applied)).toHaveLength(2);
    expect(await store.keyById(keys.pending?.id as string)).toMatchObject({
      plan: "annual",
      status: "active",
      confirmed_at: "2026-11-20T00:15:02.000Z",
      expires_at: "2027-11-27T00:00:00.000Z",
    });
    expect(await store.keyById(keys.active?.id as string)).toMatchObject({ confirmed_at: "2026-11-20T01:02:44.000Z", expires_at: "2027-12-01T00:00:00.000Z" });
    expect(await store.keyById(keys.short?.id as string)).toEqual(keys.short);

    // A day later, the same statement (or one overlapping it): everything already credited is counted.
    const again = await reportDeposits(store, statement, { apply: true, now: new Date("2026-11-28T00:00:00.000Z"), write });
    expect(again).toMatch(/0 matched, 1 unmatched, 1 short, 2 ambiguous, 2 counted, .*; 0 credited$/);
    expect(await store.keyById(keys.active?.id as string)).toMatchObject({ expires_at: "2027-12-01T00:00:00.000Z" });
  });
});

/** `bytes` in chunks of `size` bytes, as a stream gives them. */
async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** The statement `readStatementBytes` reads from `bytes` in chunks of `size`. */
async function streamed(bytes: Uint8Array, size: number, ...rest: Parameters<typeof readStatementBytes> extends [unknown, unknown, ...infer R] ? R : never) {
  const statement: Statement = { encoding: "utf-8", deposits: [], unreadable: [], skipped: 0 };
  return { ...statement, ...(await readStatementBytes(chunked(bytes, size), collect(statement), ...rest)) };
}

describe("statements that cannot be spoofed", () => {
  const HEADER = "거래일시,보낸분,출금액,입금액,잔액\n";

  it("reports a row with more cells than the header (an unquoted comma in a depositor's name) as unreadable, naming the line", () => {
    const pending = keyRecord({ id: "key_ab12cdEFGHIJ" });
    const text = [
      HEADER,
      // Sent as "HJAB12CD,,9900" with 1,000 won, written unquoted: 9900 lands in the deposit column.
      "2026-11-20 10:00,HJAB12CD,,9900,,1000,51000\n",
      // One cell short: the deposit column would read the balance.
      "2026-11-21 10:00,HJAB12CD,9900,109900\n",
      "합계\n",
      '2026-11-22 10:00,"HJAB12CD,,9900",,1000,52000\n',
    ].join("");
    const statement = parseStatement(text, "utf-8");
    expect(statement.skipped).toBe(1);
    expect(statement.unreadable).toEqual([
      { line: 2, problem: "7 cells where the header has 5: a comma outside quotes (in a depositor's name?) shifts the cells after it" },
      { line: 3, problem: "4 cells where the header has 5: which one is missing cannot be told" },
    ]);
    expect(matchDeposits(statement, [pending], NOW).map((report) => [report.line, report.outcome, report.amount ?? null])).toEqual([
      [2, "unreadable", null],
      [3, "unreadable", null],
      [5, "short", 1000],
    ]);
  });

  it("reads rows that stop before the header's trailing empty cells, never rows past its last cell", () => {
    const text = "거래일시,입금자명,입금액,,\n2026-11-20 10:00,HJAB12CD,9900\n2026-11-20 11:00,HJAB12CD,9900,,\n2026-11-20 12:00,HJAB12CD,9900,,,\n";
    const statement = parseStatement(text, "utf-8");
    expect(statement.deposits.map((deposit) => deposit.line)).toEqual([2, 3]);
    expect(statement.unreadable).toEqual([
      { line: 4, problem: "6 cells where the header has 5: a comma outside quotes (in a depositor's name?) shifts the cells after it" },
    ]);
  });

  it("reports a deposit dated before the key's application as early and never credits it, to the precision the statement gives", async () => {
    // Applied for at 14:00 Korean time on 2026-11-20.
    const key = keyRecord({ id: "key_ab12cdEFGHIJ", created_at: "2026-11-20T05:00:00.000Z" });
    const text = [
      "거래일시,입금자명,입금액\n",
      "2026-11-20 13:59:59,HJAB12CD,9900\n",
      "2026-11-20 13:59,HJAB12CD,9900\n",
      "2026.11.19,HJAB12CD,9900\n",
      // The day it applied (when that day is all the statement says), and the minute it did.
      "2026.11.20,HJAB12CD,9900\n",
      "2026-11-20 14:00,HJAB12CD,9900\n",
    ].join("");
    const reports = matchDeposits(parseStatement(text, "utf-8"), [key], NOW);
    expect(reports.map((report) => [report.line, report.outcome, report.action ?? null])).toEqual([
      [2, "early", null],
      [3, "early", null],
      [4, "early", null],
      [5, "matched", "confirm"],
      [6, "matched", "renew"],
    ]);
    expect(reports[0]?.detail).toBe(
      "dated before the key's application (2026-11-20T05:00:00.000Z), when its payment reference did not exist yet: not credited; check the deposit by hand",
    );

    const store = new MemoryQuotaStore();
    store.insertKey(key);
    const early = "거래일시,입금자명,입금액\n2026-11-20 13:59:59,HJAB12CD,9900\n2026.11.19,HJAB12CD,9900\n";
    const lines: string[] = [];
    const summary = await reportDeposits(store, parseStatement(early, "utf-8"), { apply: true, now: NOW, write: (line) => lines.push(line) });
    expect(summary).toMatch(/0 matched, .* 2 early, .*; 0 credited$/);
    expect(lines.map((line) => JSON.parse(line).outcome)).toEqual(["early", "early"]);
    expect(store.keyById(key.id)).toEqual(key);
  });

  it("reports an amount past Number.MAX_SAFE_INTEGER as unreadable, and writes every amount as whole won", async () => {
    expect(statementAmount("9,007,199,254,740,991")).toBe(Number.MAX_SAFE_INTEGER);
    expect(statementAmount("9007199254740992")).toBeUndefined();
    expect(statementAmount("100000000000000000000000")).toBeUndefined();
    const text = '거래일시,입금자명,입금액\n2026-11-20 10:00,HJAB12CD,100000000000000000000000\n2026-11-21 10:00,HJAB12CD,"9,007,199,254,740,991"\n';
    const statement = parseStatement(text, "utf-8");
    expect(statement.unreadable).toEqual([
      { line: 2, problem: 'amount "100000000000000000000000" is more than 9,007,199,254,740,991 won, too large to be counted exactly' },
    ]);
    const store = new MemoryQuotaStore();
    store.insertKey(keyRecord({ id: "key_ab12cdEFGHIJ" }));
    const lines: string[] = [];
    await reportDeposits(store, statement, { apply: false, now: NOW, write: (line) => lines.push(line) });
    expect(lines.join("")).not.toMatch(/e\+/);
    expect(lines[1]).toContain('"amount":9007199254740991,');
    expect(JSON.parse(lines[1] as string)).toMatchObject({
      outcome: "matched",
      detail: "confirms the annual plan; 9,007,199,254,731,091 KRW over the price (one year is credited)",
    });
  });

  it("stops at a line longer than 64 KiB, naming it", () => {
    const text = `거래일시,입금자명,입금액\n2026-11-20 10:00,HJAB12CD,9900\n2026-11-20 10:00,${"x".repeat(70_000)},9900\n`;
    expect(() => parseStatement(text, "utf-8")).toThrow(StatementError);
    expect(() => parseStatement(text, "utf-8")).toThrow(/not a CSV file: .*maximum number of tolerated bytes of 65536 at line 3/);
  });
});

describe("reading a statement as it streams in", () => {
  it("reads the fixtures in chunks of any size as it reads them whole, characters cut between chunks included", async () => {
    for (const [file, encoding] of [
      ["kb-utf8.csv", "utf-8"],
      ["shinhan-euckr.csv", "euc-kr"],
      ["nh-euckr.csv", "euc-kr"],
    ] as const) {
      const bytes = readFileSync(join(STATEMENTS, file));
      const whole = parseStatement(decodeStatement(bytes).text, encoding);
      expect(whole.deposits.length).toBeGreaterThan(2);
      for (const size of [1, 2, 3, 7, 4096]) expect(await streamed(bytes, size), `${file} in chunks of ${size}`).toEqual(whole);
    }
  });

  it("detects CP949 at its first non-ASCII bytes, however far in; UTF-8 broken off after the start it was detected on stops the reading", async () => {
    const ascii = Array.from({ length: 3000 }, (_, i) => `2026-11-20 10:00,payer ${i},9900\n`).join("");
    expect(ascii.length).toBeGreaterThan(DETECT_BYTES);
    const cp949 = Buffer.concat([Buffer.from(`date,name,amount\n${ascii}`), iconv.encode("2026-11-21 10:00,똠방각하 HJAB12CD,9900\n", "cp949")]);
    const columns = parseColumns("date=date,depositor=name,amount=amount");
    const statement = await streamed(cp949, 16 * 1024, undefined, columns);
    expect(statement.encoding).toBe("euc-kr");
    expect(statement.deposits.at(-1)).toMatchObject({ line: 3002, depositor: "똠방각하 HJAB12CD" });

    const hangul = Array.from({ length: 3000 }, (_, i) => `2026-11-20 10:00,홍길동 ${i},9900\n`).join("");
    const mixed = Buffer.concat([Buffer.from(`거래일시,입금자명,입금액\n${hangul}`), iconv.encode("2026-11-21 10:00,똠방각하,9900\n", "cp949")]);
    await expect(streamed(mixed, 16 * 1024)).rejects.toThrow(StatementError);
    await expect(streamed(mixed, 16 * 1024)).rejects.toThrow(
      /^not valid UTF-8 past byte \d+, though its first 64 KiB from the first non-ASCII byte were \(try --encoding euc-kr\)$/,
    );
  });
});

describe("reporting a statement file, read twice", () => {
  it("credits once the whole file is read and reports in the file's order; a file changed between the readings is said to be, with what was credited", async () => {
    const dir = mkdtempSync(join(tmpdir(), "statement-twice-"));
    try {
      const file = join(dir, "statement.csv");
      writeFileSync(file, "거래일시,입금자명,입금액\n2026-11-20 10:00,홍길동,9900\n2026-11-20 11:00,HJAB12CD,9900\n2026-11-20 12:00,HJ,9900,\n");
      const key = keyRecord({ id: "key_ab12cdEFGHIJ" });
      const store = new MemoryQuotaStore();
      store.insertKey(key);
      const lines: string[] = [];
      const options = { apply: false, encoding: undefined, columns: {}, now: NOW, write: (text: string) => void lines.push(text) };
      const summary = await reportStatement(store, file, options);
      expect(summary).toBe(
        "keys: deposits (utf-8): 1 matched, 1 unmatched, 0 short, 0 ambiguous, 0 counted, 0 revoked, 0 early, 1 unreadable; nothing changed: run again with --apply to credit the matched lines",
      );
      expect(
        lines
          .join("")
          .trim()
          .split("\n")
          .map((line) => [JSON.parse(line).line, JSON.parse(line).outcome]),
      ).toEqual([
        [2, "unmatched"],
        [3, "matched"],
        [4, "unreadable"],
      ]);

      // The file grows while the key is credited, between the two readings.
      const changing = Object.assign(Object.create(store), {
        updateKey: (...args: Parameters<MemoryQuotaStore["updateKey"]>) => {
          appendFileSync(file, "2026-11-21 10:00,김철수,9900\n");
          return store.updateKey(...args);
        },
      });
      const failed = reportStatement(changing, file, { ...options, apply: true });
      await expect(failed).rejects.toThrow(StatementChangedError);
      await expect(failed).rejects.toThrow("the file changed while its report was written (the report is incomplete); 1 credited: read it again");
      expect(store.keyById(key.id)).toMatchObject({ status: "active", confirmed_at: "2026-11-20T02:00:00.000Z" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
