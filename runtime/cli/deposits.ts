/**
 * `keys deposits <file>`: a bank statement's deposits matched to the applications by their
 * payment reference (`HJ…`, written as the depositor name), checked against the annual price,
 * reported, and with `--apply` credited (`creditDeposit`: confirm, or renew an active key).
 *
 * Reading the same statement twice credits nothing twice: crediting a line sets the key's
 * `confirmed_at` to the deposit's time, and a line dated at or before a key's `confirmed_at` is
 * reported as `counted`.
 */
import { readFileSync } from "node:fs";
import { creditDeposit, depositPatch, paymentReference } from "../core/quota/keyActions.ts";
import { allKeys } from "../core/quota/keyPages.ts";
import { ANNUAL_PRICE_KRW } from "../core/quota/plans.ts";
import type { KeyRecord, QuotaStore } from "../core/quota/store.ts";
import { count } from "../core/util/count.ts";
import {
  type DepositLine,
  type Encoding,
  type Statement,
  type StatementColumn,
  StatementError,
  decodeStatement,
  encodingNamed,
  parseColumns,
  parseStatement,
} from "./statement.ts";

/** The command's lines of `keys --help`. */
export const DEPOSITS_HELP = `  deposits <file>            match a bank statement (CSV, UTF-8 or EUC-KR) to the
                             applications by payment reference: one JSON line per
                             deposit (matched, unmatched, short, ambiguous,
                             counted, revoked, unreadable); changes nothing
    --apply                  credit the matched deposits: confirm the key, or
                             renew an active one for a year after its end; a
                             deposit already credited is never credited again
    --encoding <name>        utf-8 or euc-kr (cp949); default: detected
    --columns <spec>         the headers to read, e.g. date=거래일,depositor=보낸분,
                             amount=입금 (default: 거래일시/거래일자, 입금자명/
                             보낸분/적요…, 입금액/맡기신금액)`;

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
export type DepositOutcome = "matched" | "unmatched" | "short" | "ambiguous" | "counted" | "revoked" | "unreadable";

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
      reports.set(deposit, { ...base, outcome: "unmatched", detail: "no application's payment reference (HJ and 6 characters) in the depositor field" });
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

/** The statement in `file`, decoded and parsed; a file that cannot be read is a `StatementError`. */
export function readStatement(file: string, encoding?: Encoding, columns?: Partial<Record<StatementColumn, string[]>>): Statement {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file === "-" ? 0 : file);
  } catch (error) {
    throw new StatementError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const decoded = decodeStatement(bytes, encoding);
  return parseStatement(decoded.text, decoded.encoding, columns);
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
  const { apply, now, write } = options;
  const reports = matchDeposits(statement, await allKeys(store), now);
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
  for (const report of reports) write(`${JSON.stringify(report)}\n`);
  const tally = (outcome: DepositOutcome) => reports.filter((report) => report.outcome === outcome).length;
  const outcomes: DepositOutcome[] = ["matched", "unmatched", "short", "ambiguous", "counted", "revoked", "unreadable"];
  const counts = outcomes.map((outcome) => `${tally(outcome)} ${outcome}`).join(", ");
  const skipped = statement.skipped > 0 ? `; ${statement.skipped} lines without a deposit skipped` : "";
  const done = apply
    ? `${reports.filter((report) => report.applied).length} credited`
    : `nothing changed${tally("matched") > 0 ? ": run again with --apply to credit the matched lines" : ""}`;
  return `keys: deposits (${statement.encoding}): ${counts}${skipped}; ${done}`;
}
