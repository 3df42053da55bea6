/**
 * A bank statement as Korean banks export it (CSV, in UTF-8 or EUC-KR/CP949), read into deposit
 * lines for `keys deposits` (deposits.ts). Pure: bytes in, lines out; no store, no files (a Node
 * module: `Buffer` for iconv-lite).
 */
import { parse } from "csv-parse/sync";
import iconv from "iconv-lite";

/** The columns a deposit is read from. */
export type StatementColumn = "date" | "depositor" | "amount";

/**
 * The header names each column goes by in the banks' exports, most specific first. Every
 * depositor column present is searched (one bank puts the sender in 보낸분, another in 적요 or
 * 기재내용), so a reference written in any of them is found.
 */
export const COLUMN_NAMES: Readonly<Record<StatementColumn, readonly string[]>> = {
  date: ["거래일시", "거래일자", "입금일시", "입금일자", "거래일", "일시", "일자"],
  depositor: ["입금자명", "입금자", "보낸분", "보낸분성명", "의뢰인", "기재내용", "적요", "내용", "메모"],
  amount: ["입금액", "맡기신금액", "입금금액", "입금"],
};

/**
 * The encodings a statement may be in (`--encoding`); `euc-kr` is read as CP949 (Microsoft's
 * superset, which the banks' Windows exports are in): names such as 똠 are only in CP949.
 */
export const ENCODINGS = ["utf-8", "euc-kr"] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** A statement that cannot be read: the message names the line or the column. */
export class StatementError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StatementError";
  }
}

/** One deposit of the statement. */
export interface DepositLine {
  /** The line in the file (1-based), for the report. */
  line: number;
  /** When the deposit was made (ISO 8601; the statement's time is read as Korean time, UTC+09:00). */
  date: string;
  /** The depositor columns' text, joined with " / ". */
  depositor: string;
  /** In KRW. */
  amount: number;
}

/** A line with an amount that cannot be taken as a deposit (unreadable date or amount). */
export interface UnreadableLine {
  line: number;
  problem: string;
}

/** What a statement holds: its deposits, the lines it could not read, how many were not deposits. */
export interface Statement {
  encoding: Encoding;
  deposits: DepositLine[];
  unreadable: UnreadableLine[];
  /** Lines without a deposit amount (withdrawals, totals), left out. */
  skipped: number;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The statement's text: `encoding` when given, else UTF-8 when the bytes are valid UTF-8 (a
 * Hangul text in EUC-KR almost never is), else CP949. A byte-order mark is dropped. CP949 is
 * decoded by iconv-lite: Node's `TextDecoder("euc-kr")` (ICU) knows only EUC-KR's 2,350
 * syllables and turns the others (똠, 뷁) into two wrong characters.
 */
export function decodeStatement(bytes: Uint8Array, encoding?: Encoding): { text: string; encoding: Encoding } {
  const cp949 = () => ({ text: iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), "cp949"), encoding: "euc-kr" as const });
  if (encoding === "euc-kr") return cp949();
  try {
    return { text: strictUtf8.decode(bytes), encoding: "utf-8" };
  } catch {
    if (encoding === "utf-8") throw new StatementError("not valid UTF-8 (try --encoding euc-kr)");
    return cp949();
  }
}

/** The encoding an operator named: `utf-8`/`utf8`, or `euc-kr`/`cp949`/`uhc`; else undefined. */
export function encodingNamed(name: string): Encoding | undefined {
  const plain = name.toLowerCase().replace(/[-_]/g, "");
  if (plain === "utf8") return "utf-8";
  if (["euckr", "cp949", "uhc", "windows949", "ksc5601"].includes(plain)) return "euc-kr";
  return undefined;
}

/**
 * Header names given by the operator (`--columns date=거래일,depositor=받는분,amount=금액`; a
 * column may repeat for several depositor columns), each replacing that column's usual names.
 */
export function parseColumns(spec: string): Partial<Record<StatementColumn, string[]>> {
  const columns: Partial<Record<StatementColumn, string[]>> = {};
  for (const part of spec.split(",")) {
    const [column, name, ...extra] = part.split("=").map((s) => s.trim());
    if (column !== "date" && column !== "depositor" && column !== "amount") {
      throw new StatementError(`--columns: "${part}" does not start with date=, depositor= or amount=`);
    }
    if (!name || extra.length > 0) throw new StatementError(`--columns: "${part}" names no header`);
    columns[column] = [...(columns[column] ?? []), name];
  }
  return columns;
}

/** Where each column is in the header row, or null when this row is not the header. */
function headerOf(row: string[], names: Record<StatementColumn, readonly string[]>): Record<StatementColumn, number[]> | null {
  const cells = row.map((cell) => cell.replace(/\s/g, ""));
  const find = (column: StatementColumn) => names[column].map((name) => cells.indexOf(name.replace(/\s/g, ""))).filter((at) => at >= 0);
  const date = find("date").slice(0, 1);
  const amount = find("amount").slice(0, 1);
  // In the file's order, as the operator reads the line.
  const depositor = find("depositor").sort((a, b) => a - b);
  return date.length && amount.length && depositor.length ? { date, amount, depositor } : null;
}

/** A statement's date and time (`2026-11-20 14:03:22`, `2026.11.20 14:03`, `2026/11/20`, `20261120`), read as Korean time. */
export function statementDate(text: string): string | undefined {
  const m = /^(\d{4})[-./]?(\d{1,2})[-./]?(\d{1,2})\.?(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = "0", mi = "0", s = "0"] = m;
  const pad = (v: string) => v.padStart(2, "0");
  const iso = `${y}-${pad(mo as string)}-${pad(d as string)}T${pad(h)}:${pad(mi)}:${pad(s)}+09:00`;
  const time = Date.parse(iso);
  // Date.parse rolls 2026-02-30 over to March: a date that is not the one written is refused.
  if (Number.isNaN(time) || new Date(time + 9 * 3600_000).getUTCDate() !== Number(d)) return undefined;
  return new Date(time).toISOString();
}

/** An amount in KRW (`9,900`, `9900원`, `₩9,900`, `9900.00`); null for an empty cell or 0; undefined when unreadable. */
export function statementAmount(text: string): number | null | undefined {
  const plain = text.replace(/[\s,원₩]/g, "");
  if (plain === "" || plain === "-") return null;
  if (!/^\d+(\.0+)?$/.test(plain)) return undefined;
  const amount = Number.parseInt(plain, 10);
  return amount === 0 ? null : amount;
}

/**
 * The deposits of a statement's text. The header is the first row naming a date, a depositor and
 * an amount column (banks put the account's details above it); rows without a deposit amount are
 * skipped, rows whose date or amount cannot be read are listed.
 */
export function parseStatement(text: string, encoding: Encoding, columns: Partial<Record<StatementColumn, string[]>> = {}): Statement {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { bom: true, info: true, relax_column_count: true, relax_quotes: true }) as unknown as typeof records;
  } catch (error) {
    throw new StatementError(`not a CSV file: ${(error as Error).message}`);
  }
  const names = { ...COLUMN_NAMES, ...columns };
  let header: Record<StatementColumn, number[]> | null = null;
  let headerAt = 0;
  while (headerAt < records.length && header === null) header = headerOf(records[headerAt++]?.record ?? [], names);
  if (header === null) {
    const list = (column: StatementColumn) => names[column].slice(0, 3).join(", ");
    throw new StatementError(
      `no header row with a date (${list("date")}…), a depositor (${list("depositor")}…) and an amount (${list("amount")}…) column; name them with --columns date=…,depositor=…,amount=…`,
    );
  }
  const {
    date: [dateAt = 0],
    amount: [amountAt = 0],
    depositor,
  } = header;
  const statement: Statement = { encoding, deposits: [], unreadable: [], skipped: 0 };
  for (const { record: row, info } of records.slice(headerAt)) {
    // The line the record ends on (a quoted cell may span lines).
    const line = info.lines;
    const amount = statementAmount(row[amountAt] ?? "");
    if (amount === null) {
      if (row.some((cell) => cell.trim() !== "")) statement.skipped++;
      continue;
    }
    const date = statementDate(row[dateAt] ?? "");
    if (amount === undefined) statement.unreadable.push({ line, problem: `amount ${JSON.stringify(row[amountAt])} is not a sum in won` });
    else if (date === undefined) statement.unreadable.push({ line, problem: `date ${JSON.stringify(row[dateAt] ?? "")} is not a date (YYYY-MM-DD HH:MM)` });
    else
      statement.deposits.push({
        line,
        date,
        amount,
        depositor: depositor
          .map((at) => (row[at] ?? "").trim())
          .filter(Boolean)
          .join(" / "),
      });
  }
  return statement;
}
