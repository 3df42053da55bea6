/** Bank statements (statement.ts) and their deposits matched and credited (deposits.ts), in process. */
import { allKeys } from "../../runtime/core/quota/keyPages.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type DepositReport, matchDeposits, readStatement, referencesIn, reportDeposits } from "../../runtime/cli/deposits.ts";
import { StatementError, decodeStatement, parseColumns, parseStatement, statementAmount, statementDate } from "../../runtime/cli/statement.ts";
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
  it("reads a UTF-8 export: the header under the account's details, the deposits with Korean time, withdrawals skipped", () => {
    const statement = readStatement(join(STATEMENTS, "kb-utf8.csv"));
    expect(statement.encoding).toBe("utf-8");
    expect(statement.skipped).toBe(1);
    expect(statement.unreadable).toEqual([]);
    expect(statement.deposits.map((d) => d.line)).toEqual([5, 6, 7, 8, 9, 11]);
    expect(statement.deposits[0]).toEqual({ line: 5, date: "2026-11-20T00:15:02.000Z", depositor: "타행이체 / hj ab12 cd", amount: 9900 });
  });

  it("detects an EUC-KR (CP949) export, syllables outside EUC-KR included, with dates without a time and amounts in 원", () => {
    const bytes = readFileSync(join(STATEMENTS, "shinhan-euckr.csv"));
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bytes)).toThrow();
    const statement = readStatement(join(STATEMENTS, "shinhan-euckr.csv"));
    expect(statement.encoding).toBe("euc-kr");
    expect(statement.skipped).toBe(1);
    expect(statement.deposits).toEqual([
      { line: 2, date: "2026-11-19T15:00:00.000Z", depositor: "ＨＪ ＡＢ１２ＣＤ", amount: 9900 },
      { line: 3, date: "2026-11-20T15:00:00.000Z", depositor: "박영희 hjzx56cv", amount: 9900 },
      { line: 5, date: "2026-11-22T15:00:00.000Z", depositor: "똠방각하", amount: 10000 },
    ]);
    // Forced UTF-8 on those bytes is refused rather than read as replacement characters.
    expect(() => decodeStatement(bytes, "utf-8")).toThrow(/not valid UTF-8.*--encoding euc-kr/);
    expect(decodeStatement(new TextEncoder().encode("\uFEFF거래일시"), "utf-8").text).toBe("거래일시");
  });

  it("reads other headers named by --columns, and says which columns it looked for when none is found", () => {
    const text = "날짜,받는분메모,금액\n2026-11-20 10:00,HJAB12CD,9900\n";
    expect(() => parseStatement(text, "utf-8")).toThrow(StatementError);
    expect(() => parseStatement(text, "utf-8")).toThrow(/no header row with a date \(거래일시, 거래일자, 입금일시…\).*--columns date=…,depositor=…,amount=…/);
    const statement = parseStatement(text, "utf-8", parseColumns("date=날짜, depositor=받는분메모, amount=금액"));
    expect(statement.deposits).toEqual([{ line: 2, date: "2026-11-20T01:00:00.000Z", depositor: "HJAB12CD", amount: 9900 }]);
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
    expect(statementAmount("-9,900")).toBeUndefined();
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
  it("reports matched, renewed, short, ambiguous and unmatched lines", () => {
    const keys = fixtureKeys();
    const reports = byLine(matchDeposits(readStatement(join(STATEMENTS, "kb-utf8.csv")), Object.values(keys), NOW));
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

  it("counts a deposit made before the key's last confirmation as already counted (confirmed by hand after it arrived)", () => {
    const confirmed = keyRecord({
      id: "key_ab12cdEFGHIJ",
      plan: "annual",
      status: "active",
      confirmed_at: "2026-11-20T03:00:00.000Z",
      expires_at: "2027-11-20T03:00:00.000Z",
    });
    const [report] = matchDeposits(readStatement(join(STATEMENTS, "shinhan-euckr.csv")), [confirmed], NOW);
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
    const summary = await reportDeposits(stale, readStatement(join(STATEMENTS, "kb-utf8.csv")), { apply: true, now: NOW, write: (line) => lines.push(line) });
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
    const statement = readStatement(join(STATEMENTS, "kb-utf8.csv"));
    const lines: string[] = [];
    const write = (line: string) => lines.push(line);

    const dry = await reportDeposits(store, statement, { apply: false, now: NOW, write });
    expect(dry).toBe(
      "keys: deposits (utf-8): 2 matched, 1 unmatched, 1 short, 2 ambiguous, 0 counted, 0 revoked, 0 unreadable; 1 lines without a deposit skipped; nothing changed: run again with --apply to credit the matched lines",
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
