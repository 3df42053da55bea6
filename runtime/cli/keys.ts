/**
 * The operator's key tool over the quota database (SPEC §4): list applications, show one,
 * confirm a deposit, revoke a key. The same actions as the admin HTTP routes (`keyActions.ts`).
 *
 *   npm run keys -- list [--status pending_deposit|active|expired|revoked]
 *   npm run keys -- show|confirm|revoke <id>
 *
 * Exit codes: 0 done, 1 the action failed (no such key, no database, revoked key), 2 bad usage.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { KEY_STATUSES, adminView, confirmKey, keyStatus, keysWithStatus, paymentReference, revokeKey, type ActionResult } from "../core/quota/keyActions.ts";
import type { KeyStatus, QuotaStore } from "../core/quota/store.ts";
import { DEFAULT_QUOTA_DB } from "../stores/index.ts";
import { openSqliteStore } from "../stores/sqlite/sqliteStore.ts";

const USAGE = `Usage: npm run keys -- <command> [options]

Commands:
  list [--status <status>]   one JSON line per key, newest first
                             (status at this moment: pending_deposit, active,
                             expired, revoked; as GET /admin/keys?status=)
  show <id>                  the key record
  confirm <id>               deposit received: annual plan for one year (renews an expired key)
  revoke <id>                revoke the key for good

Options:
  --db <path>                the quota database (default: $QUOTA_DB or ${DEFAULT_QUOTA_DB})
  -h, --help                 this text
`;

/** A failure the operator must see: message on stderr, then exit with `code`. */
class CliError extends Error {
  constructor(message: string, readonly code: 1 | 2) {
    super(message);
  }
}

function usageError(message: string): CliError {
  return new CliError(`keys: ${message}\n\n${USAGE}`, 2);
}

function isStatus(value: string): value is KeyStatus {
  return (KEY_STATUSES as readonly string[]).includes(value);
}

/** What the operator asked for. */
type Command =
  | { name: "help" }
  | { name: "list"; status: KeyStatus | undefined; db: string }
  | { name: "show" | "confirm" | "revoke"; id: string; db: string };

/** Reads the command line; bad usage is a `CliError` with code 2. */
function parseCommand(argv: string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { db: { type: "string" }, status: { type: "string" }, help: { type: "boolean", short: "h" } },
    });
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return { name: "help" };
  const db = values.db ?? process.env["QUOTA_DB"] ?? DEFAULT_QUOTA_DB;
  const [name, id, ...extra] = positionals;
  switch (name) {
    case undefined:
      throw usageError("no command");
    case "list": {
      if (id !== undefined) throw usageError("list takes no arguments");
      const { status } = values;
      if (status !== undefined && !isStatus(status)) throw usageError(`unknown status "${status}"`);
      return { name, status, db };
    }
    case "show":
    case "confirm":
    case "revoke":
      if (id === undefined || extra.length > 0) throw usageError(`${name} takes exactly one key id`);
      if (values.status !== undefined) throw usageError("--status only applies to list");
      return { name, id, db };
    default:
      throw usageError(`unknown command "${name}"`);
  }
}

async function list(store: QuotaStore, status: KeyStatus | undefined, now: Date): Promise<void> {
  for (const key of await keysWithStatus(store, status, now)) {
    const { id, plan, created_at, expires_at, applicant } = key;
    const line = { id, plan, status: keyStatus(key, now), reference: paymentReference(id), created_at, expires_at, name: applicant.name, email: applicant.email, depositor: applicant.depositor };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
}

async function show(store: QuotaStore, id: string, now: Date): Promise<void> {
  const key = await store.keyById(id);
  if (!key) throw new CliError(`keys: no key with id "${id}"`, 1);
  process.stdout.write(`${JSON.stringify(adminView(key, now), null, 2)}\n`);
}

function report(result: ActionResult, id: string, now: Date): void {
  if (!result.ok) {
    throw new CliError(
      result.reason === "not_found" ? `keys: no key with id "${id}"` : `keys: key "${id}" is revoked and cannot be confirmed`,
      1,
    );
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

async function run(argv: string[]): Promise<void> {
  const command = parseCommand(argv);
  if (command.name === "help") {
    process.stdout.write(USAGE);
    return;
  }
  // Opening would create an empty database: a mistyped path must not look like "no keys".
  if (!existsSync(command.db)) throw new CliError(`keys: no quota database at ${command.db} (set --db or QUOTA_DB)`, 1);
  let store: QuotaStore & { close(): void };
  try {
    store = await openSqliteStore(command.db, { readOnlyUse: command.name === "list" || command.name === "show" });
  } catch (error) {
    // Not a database, another program's, a newer schema, unreadable: the reason, not a stack.
    throw new CliError(`keys: cannot open ${resolve(command.db)}: ${error instanceof Error ? error.message : String(error)}`, 1);
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
    }
  } finally {
    store.close();
  }
}

try {
  await run(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof CliError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = error.code;
}
