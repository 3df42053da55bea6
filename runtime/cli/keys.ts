/**
 * The operator's key tool over the quota store (docs/rules.md "Interface B"): list applications, show one,
 * confirm a deposit, revoke a key. The same actions as the admin HTTP routes (`keyActions.ts`),
 * on the store the server is configured with (`QUOTA_STORE` and its kind's variables, or the
 * options below); the options and their help come from the store registry.
 *
 *   npm run keys -- list [--status pending_deposit|active|expired|revoked]
 *   npm run keys -- show|confirm|revoke <id>      (show also takes a payment reference, HJ…)
 *   npm run keys -- expiring [--within <days>]
 *   npm run keys -- usage <id>
 *   npm run keys -- deposits <statement.csv> [--apply] [--encoding euc-kr] [--columns date=…,depositor=…,amount=…]
 *   npm run keys -- erasures [--within <days>] | erase
 *   npm run keys -- export > keys.jsonl          (then, with the other store's options)
 *   npm run keys -- import keys.jsonl
 *
 * Exit codes: 0 done, 1 the action failed (no such key, no store, revoked key), 2 bad usage.
 */
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import {
  KEY_STATUSES,
  type ActionResult,
  adminView,
  confirmKey,
  expiringLine,
  isPaymentReference,
  keyStatus,
  keysExpiring,
  keysWithReference,
  keysWithStatus,
  paymentReference,
  revokeKey,
} from "../core/quota/keyActions.ts";
import { DAILY_LIMITS } from "../core/quota/plans.ts";
import { count } from "../core/util/count.ts";
import { DEFAULT_RETENTION_DAYS, eraseDue, erasuresDue } from "../core/quota/retention.ts";
import { OPTION_RULES } from "../core/appOptions.ts";
import { type KeyStatus, type QuotaStore, StoreUnavailableError } from "../core/quota/store.ts";
import { ImportFormatError, exportLines, importKeys, parseExport } from "../core/quota/transfer.ts";
import { DEFAULT_STORE_KIND, STORE_KINDS, type StoreKind, type StoreVariable, isStoreKind, openStore, storeKind, storeVariables } from "../stores/registry.ts";
import { StoreNotFoundError } from "../stores/storeKind.ts";
import { DEPOSITS_HELP, type DepositOptions, StatementChangedError, depositOptions, reportStatement, withStatementFile } from "./deposits.ts";
import { StatementError } from "./statement.ts";
import { USAGE_HELP, meteringOffset, printUsage } from "./usage.ts";

/** The variables of the store kinds that have a CLI option. */
const FLAGGED = storeVariables().filter((v): v is StoreVariable & { flag: NonNullable<StoreVariable["flag"]> } => v.flag !== undefined);

/** One option line of the usage text. */
const optionLine = (option: string, text: string) => `  ${option.padEnd(27)}${text}`;

const USAGE = `Usage: npm run keys -- <command> [options]

Commands:
  list [--status <status>]   one JSON line per key, newest first
                             (status at this moment: pending_deposit, active,
                             expired, revoked; as GET /admin/keys?status=)
  show <id>|<reference>      the key record; by payment reference (HJ…), every
                             key with that reference
  confirm <id>               deposit received: annual plan (${count(DAILY_LIMITS.annual)} calls a day)
                             for one year (renews an expired key)
  revoke <id>                revoke the key for good
  expiring [--within <days>] the annual keys that expire within <days> (default
                             30; 0 = expired already), soonest first
${USAGE_HELP}
${DEPOSITS_HELP}
  erasures [--within <days>] the keys whose personal data is erased within <days>
                             (default 7; 0 = due now), soonest first: pending for
                             RETENTION_DAYS after the application, revoked for
                             RETENTION_DAYS after the revocation
  erase                      erase the personal data due now (the server does it hourly)
  export                     every key and application, as JSON Lines on stdout
                             (holds personal data: keep the file private)
  import <file>              the keys of an export into this store (- for stdin);
                             keys already there are skipped, clashes reported

Options:
${optionLine("--store <kind>", `the quota store: ${Object.keys(STORE_KINDS).join(", ")} (default: $QUOTA_STORE or ${DEFAULT_STORE_KIND})`)}
${FLAGGED.map((v) => optionLine(`--${v.flag.name} <${v.flag.value}>`, `$${v.name}: ${v.help.split("\n")[0]}${v.secret ? " (a secret: prefer the variable)" : ""}`)).join("\n")}
${optionLine("--retention <days>", `the retention period (default: $RETENTION_DAYS or ${DEFAULT_RETENTION_DAYS})`)}
  -h, --help                 this text
`;

/** A failure the operator must see: message on stderr, then exit with `code`. */
class CliError extends Error {
  constructor(
    message: string,
    readonly code: 1 | 2,
  ) {
    super(message);
  }
}

function usageError(message: string): CliError {
  return new CliError(`keys: ${message}\n\n${USAGE}`, 2);
}

function isStatus(value: string): value is KeyStatus {
  return (KEY_STATUSES as readonly string[]).includes(value);
}

/** The store a command works on: its kind and `open` options. */
interface Target {
  kind: StoreKind;
  options: Record<string, string>;
}

/** What the operator asked for. */
type Command =
  | { name: "help" }
  | ({ name: "list"; status: KeyStatus | undefined } & Target)
  | ({ name: "show" | "confirm" | "revoke"; id: string } & Target)
  | ({ name: "usage"; id: string; offsetMinutes: number } & Target)
  | ({ name: "expiring"; withinDays: number } & Target)
  | ({ name: "deposits"; file: string } & DepositOptions & Target)
  | ({ name: "erasures"; withinDays: number; retentionDays: number } & Target)
  | ({ name: "erase"; retentionDays: number } & Target)
  | ({ name: "export" } & Target)
  | ({ name: "import"; file: string } & Target);

/** A whole number of days from an option (or the environment), else a usage error naming it. */
function days(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  if (!/^\d{1,4}$/.test(value)) throw usageError(`${name} must be a whole number of days, got "${value}"`);
  return Number(value);
}

/** Reads the command line; bad usage is a `CliError` with code 2. */
function parseCommand(argv: string[]): Command {
  let parsed: { positionals: string[]; values: Record<string, string | boolean | undefined> };
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        store: { type: "string" },
        ...Object.fromEntries(FLAGGED.map((v) => [v.flag.name, { type: "string" as const }])),
        status: { type: "string" },
        within: { type: "string" },
        retention: { type: "string" },
        apply: { type: "boolean" },
        encoding: { type: "string" },
        columns: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error));
  }
  const { positionals } = parsed;
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return { name: "help" };
  const target = targetOf(values);
  const [name, id, ...extra] = positionals;
  if (values.within !== undefined && name !== "erasures" && name !== "expiring") throw usageError("--within only applies to erasures and expiring");
  if ((values.apply || values.encoding !== undefined || values.columns !== undefined) && name !== "deposits") {
    throw usageError("--apply, --encoding and --columns only apply to deposits");
  }
  const retentionDays = days((values.retention as string | undefined) ?? process.env.RETENTION_DAYS, DEFAULT_RETENTION_DAYS, "--retention (RETENTION_DAYS)");
  // The server's bounds (createApp's rule): a period the server would refuse is refused here too.
  const { min, max } = OPTION_RULES.retentionDays;
  if (retentionDays < min || retentionDays > max) throw usageError(`--retention (RETENTION_DAYS) must be from ${min} to ${max} days, got ${retentionDays}`);
  switch (name) {
    case undefined:
      throw usageError("no command");
    case "list": {
      if (id !== undefined) throw usageError("list takes no arguments");
      const status = values.status as string | undefined;
      if (status !== undefined && !isStatus(status)) throw usageError(`unknown status "${status}"`);
      return { name, status, ...target };
    }
    case "show":
    case "confirm":
    case "revoke":
      if (id === undefined || extra.length > 0) throw usageError(`${name} takes exactly one key id`);
      if (values.status !== undefined) throw usageError("--status only applies to list");
      return { name, id, ...target };
    case "usage":
      if (id === undefined || extra.length > 0) throw usageError("usage takes exactly one key id");
      try {
        return { name, id, offsetMinutes: meteringOffset(), ...target };
      } catch (error) {
        throw usageError((error as Error).message);
      }
    case "erasures":
    case "erase":
      if (id !== undefined) throw usageError(`${name} takes no arguments`);
      return name === "erase"
        ? { name, retentionDays, ...target }
        : { name, withinDays: days(values.within as string | undefined, 7, "--within"), retentionDays, ...target };
    case "expiring":
      if (id !== undefined) throw usageError("expiring takes no arguments");
      return { name, withinDays: days(values.within as string | undefined, 30, "--within"), ...target };
    case "deposits":
      if (id === undefined || extra.length > 0) throw usageError("deposits takes exactly one statement file (- for stdin)");
      try {
        return { name, file: id, ...depositOptions(values), ...target };
      } catch (error) {
        throw error instanceof StatementError ? usageError(error.message) : error;
      }
    case "export":
      if (id !== undefined) throw usageError("export takes no arguments; it writes to stdout");
      if (values.status !== undefined) throw usageError("--status only applies to list");
      return { name, ...target };
    case "import":
      if (id === undefined || extra.length > 0) throw usageError("import takes exactly one file (- for stdin)");
      if (values.status !== undefined) throw usageError("--status only applies to list");
      return { name, file: id, ...target };
    default:
      throw usageError(`unknown command "${name}"`);
  }
}

/**
 * The store: the kind from `--store`, else `QUOTA_STORE`, else the default; each of its options
 * from its CLI option, else its variable, else its default. A value the kind refuses is bad usage
 * (repeated unless secret).
 */
function targetOf(values: Record<string, string | boolean | undefined>): Target {
  const name = (values.store as string | undefined) || process.env.QUOTA_STORE || DEFAULT_STORE_KIND;
  if (!isStoreKind(name)) throw usageError(`unknown store "${name}"; choose ${Object.keys(STORE_KINDS).join(" or ")}`);
  const kind = storeKind(name);
  const options: Record<string, string> = {};
  for (const variable of kind.variables) {
    const given = variable.flag ? (values[variable.flag.name] as string | undefined) : undefined;
    const value = given || process.env[variable.name] || variable.default;
    if (value === undefined) continue;
    const problem = variable.check?.(value);
    if (problem !== undefined) throw usageError(`${variable.name}: ${problem}${variable.secret ? "" : `, got ${JSON.stringify(value)}`}`);
    options[variable.option] = value;
  }
  return { kind, options };
}

/** How to name the store elsewhere: its CLI options and variables. */
function whereToSet(kind: StoreKind): string {
  const ways = kind.variables.flatMap((v) => [...(v.flag ? [`--${v.flag.name}`] : []), v.name]);
  return ways.length > 0 ? ` (set ${ways.join(" or ")})` : "";
}

/**
 * Writes a line on stdout, waiting while the reader is behind: a listing or an export of any size
 * streams page by page instead of piling up in this process's memory.
 */
async function writeOut(line: string): Promise<void> {
  if (!process.stdout.write(line)) await once(process.stdout, "drain");
}

async function list(store: QuotaStore, status: KeyStatus | undefined, now: Date): Promise<void> {
  for await (const key of keysWithStatus(store, status, now)) {
    const { id, plan, created_at, expires_at, applicant } = key;
    const line = {
      id,
      plan,
      status: keyStatus(key, now),
      reference: paymentReference(id),
      created_at,
      expires_at,
      name: applicant.name,
      email: applicant.email,
      depositor: applicant.depositor,
    };
    await writeOut(`${JSON.stringify(line)}\n`);
  }
}

/** The key with this id, or every key with this payment reference (`HJ…`, any case). */
async function show(store: QuotaStore, idOrReference: string, now: Date): Promise<void> {
  const byReference = isPaymentReference(idOrReference);
  const keys = byReference ? await keysWithReference(store, idOrReference) : [await store.keyById(idOrReference)].filter((key) => key !== null);
  if (keys.length === 0) throw new CliError(`keys: no key with ${byReference ? "payment reference" : "id"} "${idOrReference}"`, 1);
  for (const key of keys) process.stdout.write(`${JSON.stringify(adminView(key, now), null, 2)}\n`);
}

function report(result: ActionResult, id: string, now: Date): void {
  if (!result.ok) {
    throw new CliError(result.reason === "not_found" ? `keys: no key with id "${id}"` : `keys: key "${id}" is revoked and cannot be confirmed`, 1);
  }
  process.stdout.write(`${JSON.stringify(adminView(result.key, now), null, 2)}\n`);
  if (result.unchanged) {
    // The record alone would not show that nothing happened: an early renewal is not recorded.
    process.stderr.write(
      `keys: key "${id}" is already active (${result.key.plan} until ${result.key.expires_at ?? "no end"}): nothing changed. ` +
        "A deposit for the next year can be confirmed once the key has expired.\n",
    );
  }
}

/**
 * `keys deposits`: the statement is read whole before anything is credited, so a file that cannot
 * be read changes nothing; stdin is copied to a temporary file first (it is read twice).
 */
async function deposits(store: QuotaStore, command: { file: string } & DepositOptions, now: Date): Promise<void> {
  try {
    const summary = await withStatementFile(command.file, (file) => reportStatement(store, file, { ...command, now, write: writeOut }));
    process.stderr.write(`${summary}\n`);
  } catch (error) {
    if (error instanceof StatementError) throw new CliError(`keys: ${command.file}: ${error.message}; nothing changed`, 1);
    if (error instanceof StatementChangedError) throw new CliError(`keys: ${command.file}: ${error.message}`, 1);
    throw error;
  }
}

/** Reads and checks the whole export before the store is opened: a bad file changes nothing. */
function readExport(file: string): ReturnType<typeof parseExport> {
  let text: string;
  try {
    text = readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (error) {
    throw new CliError(`keys: cannot read ${file}: ${(error as Error).message}`, 1);
  }
  try {
    return parseExport(text);
  } catch (error) {
    if (error instanceof ImportFormatError) throw new CliError(`keys: ${file}: ${error.message}; nothing imported`, 1);
    throw error;
  }
}

/** Imports and reports: one JSON line of counts on stdout, each clash on stderr; a clash is exit 1. */
async function importInto(store: QuotaStore, keys: ReturnType<typeof parseExport>): Promise<void> {
  const result = await importKeys(store, keys);
  process.stdout.write(`${JSON.stringify({ imported: result.imported, unchanged: result.unchanged, conflicts: result.conflicts.length })}\n`);
  for (const { id, reason } of result.conflicts) process.stderr.write(`keys: ${id} not imported: ${reason}\n`);
  if (result.conflicts.length > 0) process.exitCode = 1;
}

async function run(argv: string[]): Promise<void> {
  const command = parseCommand(argv);
  if (command.name === "help") {
    process.stdout.write(USAGE);
    return;
  }
  const { kind, options } = command;
  if (!kind.shared) {
    throw new CliError(
      `keys: the ${kind.name} store lives inside one server process and is out of this command's reach; use that server's admin routes (ADMIN_TOKEN)`,
      1,
    );
  }
  const imported = command.name === "import" ? readExport(command.file) : undefined;
  let store: QuotaStore;
  try {
    // An import may create the store; everything else needs one that exists.
    store = await openStore(kind, options, {
      oneOff: true,
      patient: true,
      existing: command.name !== "import",
      readOnly: ["list", "show", "usage", "erasures", "export", "expiring"].includes(command.name) || (command.name === "deposits" && !command.apply),
    });
  } catch (error) {
    if (error instanceof StoreNotFoundError) throw new CliError(`keys: ${error.message}${whereToSet(kind)}`, 1);
    // Not a database, another program's, a newer schema, unreadable, unreachable: the reason, not a stack.
    throw new CliError(`keys: cannot open ${kind.where(options)}: ${error instanceof Error ? error.message : String(error)}`, 1);
  }
  try {
    const now = new Date();
    switch (command.name) {
      case "list":
        return await list(store, command.status, now);
      case "show":
        return await show(store, command.id, now);
      case "confirm":
        return report(await confirmKey(store, command.id, now), command.id, now);
      case "revoke":
        return report(await revokeKey(store, command.id, now), command.id, now);
      case "expiring":
        for (const key of await keysExpiring(store, now, command.withinDays)) process.stdout.write(`${JSON.stringify(expiringLine(key, now))}\n`);
        return;
      case "usage": {
        const sum = await printUsage(store, command.id, now, command.offsetMinutes, (line) => process.stdout.write(line));
        if (sum === null) throw new CliError(`keys: no key with id "${command.id}"`, 1);
        return void process.stderr.write(`${sum}\n`);
      }
      case "deposits":
        return await deposits(store, command, now);
      case "erasures":
        for await (const erasure of erasuresDue(store, now, command.retentionDays, command.withinDays)) await writeOut(`${JSON.stringify(erasure)}\n`);
        return;
      case "erase": {
        const swept = await eraseDue(store, now, command.retentionDays, (line) => process.stderr.write(`${JSON.stringify(line)}\n`));
        if (!swept.leased)
          throw new CliError("keys: another process is erasing personal data now (it holds the sweep's lease); nothing erased, try again in a few minutes", 1);
        process.stdout.write(`${JSON.stringify({ erased: swept.erased })}\n`);
        return;
      }
      case "export":
        for await (const line of exportLines(store)) await writeOut(line);
        return;
      case "import":
        return await importInto(store, imported ?? []);
    }
  } catch (error) {
    // Redis went away mid-command: the reason, not a stack.
    if (error instanceof StoreUnavailableError) throw new CliError(`keys: ${error.message}`, 1);
    throw error;
  } finally {
    await store.close();
  }
}

try {
  await run(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof CliError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = error.code;
}
