/**
 * `keys deposits <file>`: a bank statement's deposits matched to the applications by their
 * payment reference (`HJ…`, written as the depositor name), checked against the annual price,
 * reported, and with `--apply` credited (`creditDeposit`: confirm, or renew an active key).
 *
 * Reading the same statement twice credits nothing twice: crediting a line sets the key's
 * `confirmed_at` to the deposit's time, and a line dated at or before a key's `confirmed_at` is
 * reported as `counted`. A line dated before the key's application (its `created_at`, to the
 * precision the statement writes: a date alone is the whole day) cannot be its payment: it is
 * reported as `early`, never credited.
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { creditDeposit, depositPatch, paymentReference } from "../core/quota/keyActions.ts";
import { allKeys } from "../core/quota/keyPages.ts";
import { ANNUAL_PRICE_KRW } from "../core/quota/plans.ts";
import type { KeyRecord, QuotaStore } from "../core/quota/store.ts";
import { count } from "../core/util/count.ts";
import {
  type DepositLine,
  type Encoding,
  PRECISION_MS,
  type Statement,
  type StatementColumn,
  StatementError,
  type StatementLine,
  type StatementTotals,
  collect,
  encodingNamed,
  parseColumns,
  readStatementBytes,
} from "./statement.ts";

/** The command's lines of `keys --help`. */
export const DEPOSITS_HELP = `  deposits <file>            match a bank statement (CSV, UTF-8 or EUC-KR) to the
                             applications by payment reference: one JSON line per
                             deposit (matched, unmatched, short, ambiguous,
                             counted, revoked, early, unreadable); changes
                             nothing
    --apply                  credit the matched deposits: confirm the key, or
                             renew an active one for a year after its end; a
                             deposit already credited is never credited again
    --encoding <name>        utf-8 or euc-kr (cp949); default: detected
    --columns <spec>         the headers to read, e.g. date=거래일,depositor=보낸분,
                             amount=입금 (default: 거래일시/거래일자, 입금자명/
                             보낸분/적요/송금메모…, 입금액/맡기신금액; a unit
                             such as (원) is not part of a name)`;

/** How `deposits` reads the statement and whether it credits it. */
export interface DepositOptions {
  apply: boolean;
  encoding: Encoding | undefined;
  columns: Partial<Record<StatementColumn, string[]>>;
}

/** The options of `deposits` from the command line; a bad one is a `StatementError` naming it. */
export function depositOptions(values: Record<string, string | boolean | undefined>): DepositOptions {
  const name = values.encoding as string | undefined;
  const encoding = name === undefined ? undefined : encodingNamed(name);
  if (name !== undefined && encoding === undefined) throw new StatementError(`--encoding must be utf-8 or euc-kr (cp949), got "${name}"`);
  return { apply: values.apply === true, encoding, columns: values.columns === undefined ? {} : parseColumns(values.columns as string) };
}

/** What became of a deposit line. */
export type DepositOutcome = "matched" | "unmatched" | "short" | "ambiguous" | "counted" | "revoked" | "early" | "unreadable";

/** One line of the report (one JSON line on stdout). */
export interface DepositReport {
  line: number;
  date?: string;
  amount?: number;
  depositor?: string;
  outcome: DepositOutcome;
  /** The key credited (or that would be), or the keys an ambiguous line names. */
  key?: string;
  keys?: string[];
  reference?: string;
  /** `confirm` (awaiting its deposit, or expired) or `renew` (a year added to an active key). */
  action?: "confirm" | "renew";
  /** The key's end after this line is credited. */
  expires_at?: string;
  /** Whether `--apply` credited it. */
  applied?: boolean;
  detail: string;
}

/**
 * The payment references written in a depositor field: `HJ` and six letters or digits, found in
 * any case, with spaces, hyphens or dots in between, or in full-width letters (as some banking
 * apps type them). Overlapping candidates are all returned: the caller keeps those of real keys.
 */
export function referencesIn(depositor: string): string[] {
  const plain = depositor
    .normalize("NFKC")
    .toUpperCase()
    .replace(/[\s\-_.]/g, "");
  return [...plain.matchAll(/(?=(HJ[0-9A-Z]{6}))/g)].map((m) => m[1] as string);
}

/**
 * The report of each deposit, in the statement's order, for the keys as they are at `now`. A
 * key's deposits are taken in date order, each on the key as the earlier ones left it, so two
 * deposits for one key confirm it and then renew it, as `--apply` does.
 */
export function matchDeposits(statement: Statement, keys: readonly KeyRecord[], now: Date, price = ANNUAL_PRICE_KRW): DepositReport[] {
  const byReference = new Map<string, KeyRecord[]>();
  for (const key of keys) {
    const reference = paymentReference(key.id);
    byReference.set(reference, [...(byReference.get(reference) ?? []), key]);
  }
  const current = new Map<string, KeyRecord>();
  const reports = new Map<DepositLine, DepositReport>();
  for (const deposit of [...statement.deposits].sort((a, b) => a.date.localeCompare(b.date))) {
    const named = [...new Set(referencesIn(deposit.depositor).flatMap((reference) => byReference.get(reference) ?? []))];
    const base = { line: deposit.line, date: deposit.date, amount: deposit.amount, depositor: deposit.depositor };
    const [found, ...others] = named;
    if (found === undefined) {
      reports.set(deposit, unmatched(deposit));
      continue;
    }
    if (others.length > 0) {
      const ids = named.map((key) => key.id);
      reports.set(deposit, { ...base, outcome: "ambiguous", keys: ids, detail: `names ${ids.length} keys: confirm the right one by hand (keys confirm <id>)` });
      continue;
    }
    const key = current.get(found.id) ?? found;
    const about = { ...base, key: key.id, reference: paymentReference(key.id) };
    if (key.status === "revoked") {
      reports.set(deposit, { ...about, outcome: "revoked", detail: "the key is revoked: refund the deposit" });
    } else if (Date.parse(deposit.date) + PRECISION_MS[deposit.precision] <= Date.parse(key.created_at)) {
      reports.set(deposit, {
        ...about,
        outcome: "early",
        detail: `dated before the key's application (${key.created_at}), when its payment reference did not exist yet: not credited; check the deposit by hand`,
      });
    } else if (deposit.amount < price) {
      reports.set(deposit, { ...about, outcome: "short", detail: `${count(price - deposit.amount)} KRW short of the annual price (${count(price)} KRW)` });
    } else {
      const patch = depositPatch(key, now, new Date(deposit.date));
      if (patch === null) {
        reports.set(deposit, {
          ...about,
          outcome: "counted",
          detail: `already counted: the key's last confirmation (${key.confirmed_at}) is not earlier than this deposit`,
        });
        continue;
      }
      const action = patch.status === "active" ? "confirm" : "renew";
      const credited = { ...key, ...patch };
      current.set(key.id, credited);
      const excess = deposit.amount - price;
      const over = excess > 0 ? `; ${count(excess)} KRW over the price (one year is credited)` : "";
      reports.set(deposit, {
        ...about,
        outcome: "matched",
        action,
        expires_at: credited.expires_at ?? undefined,
        detail: `${action === "confirm" ? "confirms" : "renews"} the annual plan${over}`,
      });
    }
  }
  const lines: DepositReport[] = [
    ...statement.deposits.map((deposit) => reports.get(deposit) as DepositReport),
    ...statement.unreadable.map(({ line, problem }) => ({ line, outcome: "unreadable" as const, detail: problem })),
  ];
  return lines.sort((a, b) => a.line - b.line);
}

/** A deposit naming no application's payment reference, whatever the keys. */
function unmatched(deposit: DepositLine): DepositReport {
  const { line, date, amount, depositor } = deposit;
  return { line, date, amount, depositor, outcome: "unmatched", detail: "no application's payment reference (HJ and 6 characters) in the depositor field" };
}

/** `file`'s lines, read as it streams in (`readStatementBytes`); a file that cannot be read is a `StatementError`. */
async function readLines(
  file: string,
  each: (line: StatementLine) => void | Promise<void>,
  encoding?: Encoding,
  columns?: Partial<Record<StatementColumn, string[]>>,
): Promise<StatementTotals> {
  try {
    return await readStatementBytes(createReadStream(file), each, encoding, columns);
  } catch (error) {
    if (error instanceof StatementError) throw error;
    throw new StatementError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

/** The statement in `file`, every line kept in memory (`reportStatement` keeps only what it needs). */
export async function readStatement(file: string, encoding?: Encoding, columns?: Partial<Record<StatementColumn, string[]>>): Promise<Statement> {
  const statement: Statement = { encoding: "utf-8", deposits: [], unreadable: [], skipped: 0 };
  return { ...statement, ...(await readLines(file, collect(statement), encoding, columns)) };
}

/**
 * Runs `use` on `file`, or for `-` on a temporary copy of stdin (`reportStatement` reads its file
 * twice), removed after.
 */
export async function withStatementFile<T>(file: string, use: (path: string) => Promise<T>): Promise<T> {
  if (file !== "-") return use(file);
  const dir = mkdtempSync(join(tmpdir(), "keys-statement-"));
  try {
    const copy = join(dir, "statement.csv");
    await pipeline(process.stdin, createWriteStream(copy));
    return await use(copy);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Matches `statement`'s deposits to `keys` and, with `apply`, credits the matched ones in date order. */
async function matchAndCredit(store: QuotaStore, statement: Statement, keys: readonly KeyRecord[], apply: boolean, now: Date): Promise<DepositReport[]> {
  const reports = matchDeposits(statement, keys, now);
  if (apply) {
    const matched = reports.filter((report) => report.outcome === "matched").sort((a, b) => (a.date ?? "").localeCompare(b.date ?? ""));
    for (const report of matched) {
      const result = await creditDeposit(store, report.key as string, now, new Date(report.date as string));
      if (!result.ok)
        Object.assign(report, {
          outcome: result.reason === "revoked" ? "revoked" : "unmatched",
          detail: `not credited: the key is ${result.reason.replace("_", " ")}`,
        });
      else if (result.unchanged) Object.assign(report, { outcome: "counted", action: undefined, detail: "already counted (credited meanwhile)" });
      else Object.assign(report, { applied: true, expires_at: result.key.expires_at ?? undefined });
    }
  }
  return reports;
}

const OUTCOMES: DepositOutcome[] = ["matched", "unmatched", "short", "ambiguous", "counted", "revoked", "early", "unreadable"];

/**
 * Writes each report as a JSON line and counts its outcome; with `batchBytes`, the lines are
 * written in chunks of about that size (a write each costs more than the line), `flush` the last.
 */
class ReportWriter {
  readonly tally = new Map<DepositOutcome, number>(OUTCOMES.map((outcome) => [outcome, 0]));
  credited = 0;
  private batch = "";
  constructor(
    private readonly write: (text: string) => void | Promise<void>,
    private readonly batchBytes = 0,
  ) {}
  add(report: DepositReport): void | Promise<void> {
    this.tally.set(report.outcome, (this.tally.get(report.outcome) ?? 0) + 1);
    if (report.applied) this.credited++;
    this.batch += `${JSON.stringify(report)}\n`;
    if (this.batch.length >= this.batchBytes) return this.flush();
  }
  flush(): void | Promise<void> {
    const text = this.batch;
    this.batch = "";
    if (text !== "") return this.write(text);
  }
  /** The summary line for stderr. */
  summary(totals: StatementTotals, apply: boolean): string {
    const counts = OUTCOMES.map((outcome) => `${this.tally.get(outcome)} ${outcome}`).join(", ");
    const skipped = totals.skipped > 0 ? `; ${totals.skipped} lines without a deposit skipped` : "";
    const done = apply
      ? `${this.credited} credited`
      : `nothing changed${this.tally.get("matched") ? ": run again with --apply to credit the matched lines" : ""}`;
    return `keys: deposits (${totals.encoding}): ${counts}${skipped}; ${done}`;
  }
}

/**
 * Matches the statement against the store's keys and prints one JSON line per deposit line; with
 * `apply`, credits the matched lines in date order first. Returns the summary for stderr.
 */
export async function reportDeposits(
  store: QuotaStore,
  statement: Statement,
  options: { apply: boolean; now: Date; write: (line: string) => void },
): Promise<string> {
  const reports = await matchAndCredit(store, statement, await allKeys(store), options.apply, options.now);
  const writer = new ReportWriter(options.write);
  for (const report of reports) writer.add(report);
  return writer.summary(statement, options.apply);
}

/**
 * `reportDeposits` on the statement in `file`, read twice as it streams in so that a statement of
 * any size takes little memory: first whole, to check it and keep only the deposits that name a
 * key's payment reference (matched, and with `apply` credited, once the whole file is read), then
 * again to print each line's report in the file's order (every other deposit is `unmatched`,
 * whatever the keys). A statement that cannot be read is a `StatementError`, nothing changed.
 */
export async function reportStatement(
  store: QuotaStore,
  file: string,
  options: DepositOptions & { now: Date; write: (line: string) => void | Promise<void> },
): Promise<string> {
  const { apply, now, encoding, columns } = options;
  const keys = await allKeys(store);
  const references = new Set(keys.map((key) => paymentReference(key.id)));
  const named: Statement = { encoding: "utf-8", deposits: [], unreadable: [], skipped: 0 };
  let lines = 0;
  const first = await readLines(
    file,
    (line) => {
      lines++;
      if (!("problem" in line) && referencesIn(line.depositor).some((reference) => references.has(reference))) named.deposits.push(line);
    },
    encoding,
    columns,
  );
  const byLine = new Map((await matchAndCredit(store, named, keys, apply, now)).map((report) => [report.line, report]));
  const writer = new ReportWriter(options.write, 64 * 1024);
  let again = 0;
  let second: StatementTotals | undefined;
  try {
    second = await readLines(
      file,
      (line) => {
        again++;
        return writer.add("problem" in line ? { line: line.line, outcome: "unreadable", detail: line.problem } : (byLine.get(line.line) ?? unmatched(line)));
      },
      first.encoding,
      columns,
    );
  } catch (error) {
    if (!(error instanceof StatementError)) throw error;
  }
  await writer.flush();
  if (second === undefined || again !== lines || second.skipped !== first.skipped) {
    const credited = apply ? `; ${[...byLine.values()].filter((report) => report.applied).length} credited` : "";
    throw new StatementChangedError(`the file changed while its report was written (the report is incomplete)${credited}: read it again`);
  }
  return writer.summary(first, apply);
}

/** The statement read for its report was not the one read before (`reportStatement`). */
export class StatementChangedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StatementChangedError";
  }
}
