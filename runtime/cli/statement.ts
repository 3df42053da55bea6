/**
 * A bank statement as Korean banks export it (CSV, in UTF-8 or EUC-KR/CP949), read into deposit
 * lines for `keys deposits` (deposits.ts). Pure: bytes in, lines out; no store, no files (a Node
 * module: `Buffer` for iconv-lite). Read as its bytes come (`readStatementBytes`): what is kept is
 * the deposit lines, not the file or its text.
 */
import { pipeline } from "node:stream/promises";
import { CsvError, parse as csvStream } from "csv-parse";
import { parse } from "csv-parse/sync";
import iconv from "iconv-lite";
import { count } from "../core/util/count.ts";

/** The columns a deposit is read from. */
export type StatementColumn = "date" | "depositor" | "amount";

/**
 * The header names each column goes by in the banks' exports, most specific first. Every
 * depositor column present is searched (one bank puts the sender in 보낸분, another in 적요 or
 * 기재내용), so a reference written in any of them is found.
 */
export const COLUMN_NAMES: Readonly<Record<StatementColumn, readonly string[]>> = {
  date: ["거래일시", "거래일자", "입금일시", "입금일자", "거래일", "일시", "일자"],
  depositor: ["입금자명", "입금자", "보낸분", "보낸분성명", "의뢰인", "기재내용", "거래기록사항", "적요", "거래내용", "내용", "송금메모", "이체메모", "메모"],
  amount: ["입금액", "맡기신금액", "입금금액", "입금"],
};

/**
 * The header names of a time column, read with a date column that gives only the day (NH농협's
 * export puts 거래일자 and 거래시간 apart).
 */
export const TIME_NAMES: readonly string[] = ["거래시간", "입금시간", "시간"];

/**
 * The header names of one signed amount column, read when the header has no deposit column
 * (카카오뱅크's 거래금액 and 토스뱅크's `거래 금액`: a deposit positive, a withdrawal negative).
 */
export const SIGNED_AMOUNT_NAMES: readonly string[] = ["거래금액", "금액"];

/**
 * The header names of a column saying whether a line is a deposit or a withdrawal (입금, 출금);
 * a line whose cell there reads 출금 or 지급 is a withdrawal, whatever its amount's sign.
 */
export const KIND_NAMES: readonly string[] = ["입출금구분", "구분", "거래유형"];

/** A kind cell (`KIND_NAMES`) that says the line is a withdrawal. */
const WITHDRAWAL_KIND = /^(?:출금|지급)/;

/**
 * A header cell as its names are compared: without spaces and without a unit in brackets
 * (`입금액(원)`, `거래 후 잔액(원)`, `금액[KRW]`).
 */
function headerName(cell: string): string {
  // The unit holds no bracket of either kind: a run of opening brackets is scanned once, not once per bracket.
  return cell.replace(/\s/g, "").replace(/[([（［][^()[\]（）［］]*[)\]）］]/g, "");
}

/**
 * The names a depositor header cell goes by: the whole, and each of the names it joins with `/`
 * or `·` (`보낸분/받는분`, `의뢰인/수취인`: one column for either side of the transfer).
 */
function depositorNames(cell: string): string[] {
  const whole = headerName(cell);
  const parts = whole.split(/[/·・]/).filter(Boolean);
  return parts.length > 1 ? [whole, ...parts] : [whole];
}

/** A cell that captions a total (`합계`, `총계`, `소계`, `입금합계`, `합계(3건)`, `총 3건`…), spaces taken out. */
const TOTAL_CAPTION = /^(?:[입출]금|총)?(?:합계|총계|소계|누계|월계|일계|계)(?:[(:：].*)?$|^총(?:입금|출금|거래)?(?:액|금액)?[\d,]*건/;

/**
 * Whether a line is a total of the statement: one of its cells captions a total. Asked only of a
 * line whose date cannot be read, so a depositor named 합계 on a dated line is still a deposit.
 */
export function isTotalLine(row: readonly string[]): boolean {
  return row.some((cell) => TOTAL_CAPTION.test(cell.replace(/\s/g, "")));
}

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

/** How much of a deposit's time the statement gives: its day, or to the minute or second. */
export type DatePrecision = "day" | "minute" | "second";

/** How long a time written to each precision lasts (2026-11-20 is the whole day). */
export const PRECISION_MS: Readonly<Record<DatePrecision, number>> = { day: 86_400_000, minute: 60_000, second: 1_000 };

/** One deposit of the statement. */
export interface DepositLine {
  /** The line in the file (1-based), for the report. */
  line: number;
  /**
   * When the deposit was made (ISO 8601; the statement's time is read as Korean time, UTC+09:00):
   * the start of the day, minute or second written.
   */
  date: string;
  precision: DatePrecision;
  /** The depositor columns' text, joined with " / ". */
  depositor: string;
  /** In KRW, a whole number of at most `Number.MAX_SAFE_INTEGER`. */
  amount: number;
}

/** A line with an amount that cannot be taken as a deposit (unreadable date or amount). */
export interface UnreadableLine {
  line: number;
  problem: string;
}

/** A line of a statement as it is read: a deposit, or a line with an amount that cannot be taken as one. */
export type StatementLine = DepositLine | UnreadableLine;

/** What is known of a statement once read through, besides its lines. */
export interface StatementTotals {
  encoding: Encoding;
  /** Lines without a deposit amount (withdrawals, totals), left out. */
  skipped: number;
}

/** What a statement holds: its deposits, the lines it could not read, how many were not deposits. */
export interface Statement {
  encoding: Encoding;
  deposits: DepositLine[];
  unreadable: UnreadableLine[];
  /** Lines without a deposit amount (withdrawals, totals), left out. */
  skipped: number;
}

/**
 * How many bytes, from the first that is not ASCII, the encoding is detected on: a Hangul text in
 * CP949 is almost never valid UTF-8 for more than a syllable or two.
 */
export const DETECT_BYTES = 64 * 1024;

/**
 * A statement's text as its bytes come: `encoding` when given, else detected. ASCII reads the same
 * in both encodings, so the encoding is chosen at the first byte that is not ASCII, on the
 * `DETECT_BYTES` from there (or to the end): UTF-8 when they are valid UTF-8, else CP949. After
 * UTF-8 was chosen, a byte further on that is not UTF-8 stops the reading with a `StatementError`
 * naming `--encoding` (the whole file is never held to look at it first). A byte-order mark is
 * dropped. CP949 is decoded by iconv-lite: Node's `TextDecoder("euc-kr")` (ICU) knows only
 * EUC-KR's 2,350 syllables and turns the others (똠, 뷁) into two wrong characters.
 */
export class StatementDecoder {
  /** The encoding given or detected; undefined while every byte so far was ASCII. */
  encoding: Encoding | undefined;
  private decode: ((bytes: Buffer, end: boolean) => string) | undefined;
  /** Undetected: the bytes from the first that is not ASCII on. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** Bytes decoded so far, for the message when UTF-8 breaks off. */
  private offset = 0;

  constructor(private readonly given?: Encoding) {
    if (given !== undefined) this.use(given);
  }

  /** The text of `chunk` (and of the bytes held before it once the encoding is known). */
  write(chunk: Uint8Array): string {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.decode) return this.decode(bytes, false);
    let ascii = "";
    if (this.heldBytes === 0) {
      let at = 0;
      while (at < bytes.length && (bytes[at] as number) < 0x80) at++;
      ascii = bytes.toString("latin1", 0, at);
      this.offset += at;
      if (at === bytes.length) return ascii;
      this.held.push(bytes.subarray(at));
      this.heldBytes = bytes.length - at;
    } else {
      this.held.push(bytes);
      this.heldBytes += bytes.length;
    }
    return this.heldBytes >= DETECT_BYTES ? ascii + this.detect(false) : ascii;
  }

  /** The text of the bytes still held or buffered in the decoder. */
  end(): string {
    if (this.decode) return this.decode(Buffer.alloc(0), true);
    return this.heldBytes > 0 ? this.detect(true) : "";
  }

  private detect(end: boolean): string {
    const sample = Buffer.concat(this.held);
    this.held = [];
    let utf8 = true;
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(sample, { stream: !end });
    } catch {
      utf8 = false;
    }
    this.use(utf8 ? "utf-8" : "euc-kr");
    return (this.decode as (bytes: Buffer, end: boolean) => string)(sample, end);
  }

  private use(encoding: Encoding): void {
    this.encoding = encoding;
    if (encoding === "euc-kr") {
      const cp949 = iconv.getDecoder("cp949");
      this.decode = (bytes, end) => (bytes.length > 0 ? cp949.write(bytes) : "") + (end ? (cp949.end() ?? "") : "");
      return;
    }
    const utf8 = new TextDecoder("utf-8", { fatal: true });
    this.decode = (bytes, end) => {
      try {
        const text = utf8.decode(bytes, { stream: !end });
        this.offset += bytes.length;
        return text;
      } catch {
        if (this.given === "utf-8") throw new StatementError("not valid UTF-8 (try --encoding euc-kr)");
        throw new StatementError(
          `not valid UTF-8 past byte ${this.offset}, though its first ${DETECT_BYTES / 1024} KiB from the first non-ASCII byte were (try --encoding euc-kr)`,
        );
      }
    };
  }
}

/** The statement's text, decoded as `StatementDecoder` does. */
export function decodeStatement(bytes: Uint8Array, encoding?: Encoding): { text: string; encoding: Encoding } {
  const decoder = new StatementDecoder(encoding);
  const text = decoder.write(bytes) + decoder.end();
  return { text, encoding: decoder.encoding ?? "utf-8" };
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

/** Where each column is in the header row (and the time column, if any), or null when this row is not the header. */
function headerOf(row: string[], names: Record<StatementColumn, readonly string[]>): Header | null {
  const cells = row.map(headerName);
  const joined = row.map(depositorNames);
  const at = (list: readonly string[], name: string) => list.indexOf(headerName(name));
  const find = (column: StatementColumn) => names[column].map((name) => at(cells, name)).filter((index) => index >= 0);
  const date = find("date").slice(0, 1);
  // The deposit column; else, of the banks' usual names only, one signed amount column.
  let amount = find("amount").slice(0, 1);
  if (amount.length === 0 && names.amount === COLUMN_NAMES.amount) {
    amount = SIGNED_AMOUNT_NAMES.map((name) => at(cells, name))
      .filter((index) => index >= 0)
      .slice(0, 1);
  }
  // Each depositor column once, in the file's order, as the operator reads the line.
  const depositor = [...new Set(joined.flatMap((cellNames, index) => (names.depositor.some((name) => cellNames.includes(headerName(name))) ? [index] : [])))];
  if (!(date.length && amount.length && depositor.length)) return null;
  const time = TIME_NAMES.map((name) => at(cells, name)).find((index) => index >= 0 && index !== date[0]);
  const kind = KIND_NAMES.map((name) => at(cells, name)).find((index) => index >= 0);
  return { date, amount, depositor, time, kind };
}

/** The header's columns: where each is in a line. */
type Header = Record<StatementColumn, number[]> & { time: number | undefined; kind: number | undefined };

/**
 * A statement's date and time (`2026-11-20 14:03:22`, `2026.11.20 14:03`, `2026/11/20`, `20261120`),
 * read as Korean time, and how precisely it is written.
 */
export function statementTime(text: string): { date: string; precision: DatePrecision } | undefined {
  const m = /^(\d{4})[-./]?(\d{1,2})[-./]?(\d{1,2})\.?(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi = "0", s] = m;
  const pad = (v = "0") => v.padStart(2, "0");
  const iso = `${y}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}+09:00`;
  const time = Date.parse(iso);
  // Date.parse rolls 2026-02-30 over to March: a date that is not the one written is refused.
  if (Number.isNaN(time) || new Date(time + 9 * 3600_000).getUTCDate() !== Number(d)) return undefined;
  return { date: new Date(time).toISOString(), precision: h === undefined ? "day" : s === undefined ? "minute" : "second" };
}

/** A statement's date and time as `statementTime` reads it (ISO 8601). */
export function statementDate(text: string): string | undefined {
  return statementTime(text)?.date;
}

/**
 * An amount in KRW (`9,900`, `9900원`, `₩9,900`, `9900.00`, `-9,900` for a withdrawal in a signed
 * column); null for an empty cell or 0; undefined when unreadable, or larger than
 * `Number.MAX_SAFE_INTEGER` (it could not be counted exactly).
 */
export function statementAmount(text: string): number | null | undefined {
  const plain = text.replace(/[\s,원₩+]/g, "").replace(/^[−–]/, "-");
  if (plain === "" || plain === "-") return null;
  if (!/^-?\d+(\.0+)?$/.test(plain)) return undefined;
  const amount = Number.parseInt(plain, 10);
  if (!Number.isSafeInteger(amount)) return undefined;
  return amount === 0 ? null : amount;
}

/** Why an amount `statementAmount` could not read is not one. */
function amountProblem(text: string): string {
  const tooLarge = /^-?\d+(\.0+)?$/.test(text.replace(/[\s,원₩+]/g, "").replace(/^[−–]/, "-"));
  return tooLarge
    ? `amount ${shown(text)} is more than ${count(Number.MAX_SAFE_INTEGER)} won, too large to be counted exactly`
    : `amount ${shown(text)} is not a sum in won`;
}

/** A cell quoted for a message, cut after 40 characters. */
function shown(cell: string): string {
  return JSON.stringify(cell.length > 40 ? `${cell.slice(0, 40)}…` : cell);
}

/** The CSV reading both ways share: a record longer than this stops the reading (no bank's line is). */
export const MAX_LINE_BYTES = 64 * 1024;
const CSV_OPTIONS = { bom: true, info: true, relax_column_count: true, relax_quotes: true, max_record_size: MAX_LINE_BYTES } as const;

/** A CSV record and the line it ends on (a quoted cell may span lines). */
interface CsvRecord {
  record: string[];
  info: { lines: number };
}

/**
 * A statement's records, taken one at a time. The header is the first row naming a date, a
 * depositor and an amount column (banks put the account's details above it). After it:
 * - a row with more cells than the header is unreadable: a comma outside quotes (an unquoted
 *   depositor name such as `HJOXDSYX,,9900`) shifts every cell after it, so the amount read
 *   would be another column's;
 * - a row with fewer cells than the header has up to its last named one is unreadable too when
 *   two or more of its cells are filled (which cell is missing cannot be told: the amount read
 *   could be the balance); one with a single filled cell (a note, a total's caption) is skipped,
 *   a blank one ignored;
 * - a total (a row whose date cannot be read and one of whose cells is 합계, 총계, 소계…) is
 *   skipped, whatever its cells;
 * - rows without a deposit amount are skipped, and so are withdrawals: a negative amount (in a
 *   signed amount column), or 출금 or 지급 in a kind column (구분); rows whose date or amount
 *   cannot be read are listed as unreadable. A date giving only the day is read with the header's time column
 *   (거래시간) when there is one and its cell is `HH:MM` or `HH:MM:SS`.
 */
class StatementRows {
  private header: Header | null = null;
  /** The header's cells, and those up to its last with a name (some exports end it with empty ones). */
  private width = 0;
  private named = 0;
  private skipped = 0;

  constructor(
    private readonly names: Record<StatementColumn, readonly string[]>,
    /** Given each deposit and unreadable line, in the file's order; the reading waits for a promise it returns. */
    private readonly each: (line: StatementLine) => void | Promise<void>,
  ) {}

  add(row: string[], line: number): void | Promise<void> {
    if (this.header === null) {
      this.header = headerOf(row, this.names);
      this.width = row.length;
      this.named = row.length;
      while (this.named > 0 && row[this.named - 1]?.trim() === "") this.named--;
      return;
    }
    let filled = 0;
    for (const cell of row) if (cell.trim() !== "") filled++;
    if (filled === 0) return;
    const {
      date: [dateAt = 0],
      amount: [amountAt = 0],
      depositor,
      time: timeAt,
    } = this.header;
    const dateCell = row[dateAt] ?? "";
    const day = statementTime(dateCell);
    if (day === undefined && isTotalLine(row)) {
      this.skipped++;
      return;
    }
    if (row.length > this.width) {
      return this.each({
        line,
        problem: `${row.length} cells where the header has ${this.width}: a comma outside quotes (in a depositor's name?) shifts the cells after it`,
      });
    }
    if (row.length < this.named) {
      if (filled > 1) return this.each({ line, problem: `${row.length} cells where the header has ${this.named}: which one is missing cannot be told` });
      this.skipped++;
      return;
    }
    const amountCell = row[amountAt] ?? "";
    const amount = statementAmount(amountCell);
    // No deposit: no amount, a negative one (a withdrawal in a signed column), or a line its kind column calls a withdrawal.
    const kindCell = this.header.kind === undefined ? "" : (row[this.header.kind] ?? "").replace(/\s/g, "");
    if (amount === null || (amount !== undefined && amount < 0) || WITHDRAWAL_KIND.test(kindCell)) {
      this.skipped++;
      return;
    }
    const timeCell = timeAt === undefined ? "" : (row[timeAt] ?? "").trim();
    const time = day?.precision === "day" && /^\d{1,2}:\d{2}(?::\d{2})?$/.test(timeCell) ? statementTime(`${dateCell.trim()} ${timeCell}`) : day;
    if (amount === undefined) return this.each({ line, problem: amountProblem(amountCell) });
    if (time === undefined) return this.each({ line, problem: `date ${shown(dateCell)} is not a date (YYYY-MM-DD HH:MM)` });
    return this.each({
      line,
      ...time,
      depositor: depositor
        .map((at) => (row[at] ?? "").trim())
        .filter(Boolean)
        .join(" / "),
      amount,
    });
  }

  /** The totals of the statement read; a `StatementError` when no header row was found. */
  totals(encoding: Encoding): StatementTotals {
    if (this.header === null) {
      const list = (column: StatementColumn) => this.names[column].slice(0, 3).join(", ");
      throw new StatementError(
        `no header row with a date (${list("date")}…), a depositor (${list("depositor")}…) and an amount (${list("amount")}…) column; name them with --columns date=…,depositor=…,amount=…`,
      );
    }
    return { encoding, skipped: this.skipped };
  }
}

/** A CSV parser's failure as the statement's: it names the line. */
function csvProblem(error: unknown): unknown {
  return error instanceof CsvError ? new StatementError(`not a CSV file: ${error.message}`) : error;
}

/** The deposits of a statement's text (`StatementRows` says how its rows are read). */
export function parseStatement(text: string, encoding: Encoding, columns: Partial<Record<StatementColumn, string[]>> = {}): Statement {
  let records: CsvRecord[];
  try {
    records = parse(text, CSV_OPTIONS) as unknown as CsvRecord[];
  } catch (error) {
    throw csvProblem(error);
  }
  const statement: Statement = { encoding, deposits: [], unreadable: [], skipped: 0 };
  const rows = new StatementRows({ ...COLUMN_NAMES, ...columns }, collect(statement));
  for (const { record, info } of records) rows.add(record, info.lines);
  return { ...statement, ...rows.totals(encoding) };
}

/** A sink for `StatementRows` that keeps every line in `statement`. */
export function collect(statement: Statement): (line: StatementLine) => void {
  return (line) => void ("problem" in line ? statement.unreadable.push(line) : statement.deposits.push(line));
}

/**
 * A statement read as its bytes come (a file's stream): decoded by `StatementDecoder`, parsed
 * record by record, each deposit and unreadable line given to `each` in the file's order; nothing
 * of the file is kept here. A failure of `source` is passed on as it is.
 */
export async function readStatementBytes(
  source: AsyncIterable<Uint8Array>,
  each: (line: StatementLine) => void | Promise<void>,
  encoding?: Encoding,
  columns: Partial<Record<StatementColumn, string[]>> = {},
): Promise<StatementTotals> {
  const decoder = new StatementDecoder(encoding);
  const rows = new StatementRows({ ...COLUMN_NAMES, ...columns }, each);
  const parser = csvStream(CSV_OPTIONS);
  const fed = pipeline(
    source,
    async function* (chunks: AsyncIterable<Uint8Array>) {
      for await (const chunk of chunks) {
        const text = decoder.write(chunk);
        if (text !== "") yield text;
      }
      const rest = decoder.end();
      if (rest !== "") yield rest;
    },
    parser,
  );
  // A failure is thrown by the loop below as well.
  fed.catch(() => {});
  try {
    for await (const { record, info } of parser as AsyncIterable<CsvRecord>) {
      const taken = rows.add(record, info.lines);
      if (taken) await taken;
    }
    await fed;
  } catch (error) {
    throw csvProblem(error);
  }
  return rows.totals(decoder.encoding ?? "utf-8");
}
