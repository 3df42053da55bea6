/**
 * Moving keys and applications between two quota stores (`npm run keys -- export`, `import`):
 * JSON Lines, one key record per line, as the store holds it (the key's SHA-256, never the key).
 * Daily counters are not moved: they last a day, and a move is done between days or accepted to
 * give each client the rest of a fresh day. An application whose personal data was erased moves
 * erased (`erased_at` and an empty applicant), so an import never brings erased data back.
 */
import { checkApplicant } from "./applicant.ts";
import { eachKey } from "./keyPages.ts";
import { DuplicateApplicationError, DuplicateReferenceError, type KeyRecord, type QuotaStore } from "./store.ts";

/** The format's version, the first line of an export; an import refuses another. */
export const EXPORT_HEADER = { format: "hanja-api-keys", version: 1 } as const;

/**
 * Every key of `store`, oldest first, as the lines of an export (header first; each line ends with
 * a newline), read a page at a time: an export of any size runs in constant memory when its lines
 * are written as they come.
 */
export async function* exportLines(store: QuotaStore): AsyncGenerator<string, void, undefined> {
  yield `${JSON.stringify(EXPORT_HEADER)}\n`;
  for await (const key of eachKey(store, { oldestFirst: true })) yield `${JSON.stringify(key)}\n`;
}

/** A line that is not a key record; the import stops before writing anything. */
export class ImportFormatError extends Error {
  constructor(line: number, detail: string) {
    super(`line ${line}: ${detail}`);
    this.name = "ImportFormatError";
  }
}

const STATUSES = new Set(["pending_deposit", "active", "revoked"]);
const PLANS = new Set(["free", "annual"]);
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** The key record on line `n`, checked field by field; an `ImportFormatError` names the line and field. */
function keyFromLine(text: string, n: number): KeyRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ImportFormatError(n, "not JSON");
  }
  const r = value as Record<string, unknown> | null;
  if (typeof r !== "object" || r === null || Array.isArray(r)) throw new ImportFormatError(n, "not a key record (an object)");
  const a = r.applicant as Record<string, unknown> | null | undefined;
  if (typeof a !== "object" || a === null) throw new ImportFormatError(n, "applicant: missing");
  const text_ = (where: Record<string, unknown>, field: string, prefix = "") => {
    const v = where[field];
    if (typeof v !== "string" || v === "")
      throw new ImportFormatError(n, `${prefix}${field}: must be a non-empty string, got ${JSON.stringify(v) ?? "nothing"}`);
    return v;
  };
  const optional = (where: Record<string, unknown>, field: string, prefix = "") =>
    where[field] === null || where[field] === undefined ? null : text_(where, field, prefix);
  const instant = (field: string, required: boolean) => {
    const v = required ? text_(r, field) : optional(r, field);
    if (v !== null && !INSTANT.test(v)) throw new ImportFormatError(n, `${field}: must be an ISO 8601 UTC instant, got ${JSON.stringify(v)}`);
    if (v !== null && !isRealInstant(v))
      throw new ImportFormatError(n, `${field}: ${JSON.stringify(v)} is no real date and time (a month, day, hour, minute or second out of range)`);
    return v;
  };
  const id = text_(r, "id");
  if (!/^key_[0-9A-Za-z]{12}$/.test(id)) throw new ImportFormatError(n, `id: must be key_ and 12 letters or digits, got ${JSON.stringify(id)}`);
  const hash = text_(r, "hash");
  if (!/^[0-9a-f]{64}$/.test(hash)) throw new ImportFormatError(n, "hash: must be 64 lower-case hex digits (the key's SHA-256)");
  const plan = text_(r, "plan");
  if (!PLANS.has(plan)) throw new ImportFormatError(n, `plan: must be free or annual, got ${JSON.stringify(plan)}`);
  const status = text_(r, "status");
  if (!STATUSES.has(status)) throw new ImportFormatError(n, `status: must be pending_deposit, active or revoked, got ${JSON.stringify(status)}`);
  const erasedAt = instant("erased_at", false);
  let applicant: KeyRecord["applicant"];
  if (erasedAt === null) {
    // The rules /subscribe applies: an import is no way around them.
    const checked = checkApplicant(a);
    if ("problems" in checked) throw new ImportFormatError(n, checked.problems.map((p) => `applicant.${p.param}: ${p.detail}`).join("; "));
    applicant = checked.applicant;
  } else {
    if (JSON.stringify(a) !== JSON.stringify(ERASED_APPLICANT))
      throw new ImportFormatError(n, `applicant: must be ${JSON.stringify(ERASED_APPLICANT)} for an application whose data was erased (erased_at is set)`);
    applicant = { ...ERASED_APPLICANT };
  }
  return {
    id,
    hash,
    plan: plan as KeyRecord["plan"],
    status: status as KeyRecord["status"],
    created_at: instant("created_at", true) as string,
    confirmed_at: instant("confirmed_at", false),
    expires_at: instant("expires_at", false),
    revoked_at: instant("revoked_at", false),
    ...(erasedAt === null ? {} : { erased_at: erasedAt }),
    applicant,
  };
}

/**
 * Whether an instant of the `INSTANT` shape names a real moment: `2026-13-45T99:99:99Z` is shaped
 * right, but a date rolls it over or reads it as no time, and a key would then never expire or its
 * applicant's data never be erased.
 */
function isRealInstant(text: string): boolean {
  const time = Date.parse(text);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 19) === text.slice(0, 19);
}

/** The applicant of an application whose personal data was erased. */
const ERASED_APPLICANT = { name: "", email: "", phone: null, depositor: null } as const;

/** A record with its fields in one order and `erased_at` null while kept: stores may differ in both. */
function canonical(key: KeyRecord): string {
  const { id, hash, plan, status, created_at, confirmed_at, expires_at, revoked_at, erased_at, applicant: a } = key;
  return JSON.stringify([id, hash, plan, status, created_at, confirmed_at, expires_at, revoked_at, erased_at ?? null, a.name, a.email, a.phone, a.depositor]);
}

/** The key records of an export's text, all checked before any is written. */
export function parseExport(text: string): KeyRecord[] {
  const lines = text.split("\n");
  const header = lines[0]?.trim() ?? "";
  let parsedHeader: unknown;
  try {
    parsedHeader = JSON.parse(header);
  } catch {
    parsedHeader = undefined;
  }
  if (JSON.stringify(parsedHeader) !== JSON.stringify(EXPORT_HEADER)) {
    throw new ImportFormatError(1, `not an export of this service: the first line must be ${JSON.stringify(EXPORT_HEADER)}`);
  }
  const keys: KeyRecord[] = [];
  const ids = new Set<string>();
  lines.forEach((line, i) => {
    if (i === 0 || line.trim() === "") return;
    const key = keyFromLine(line, i + 1);
    if (ids.has(key.id)) throw new ImportFormatError(i + 1, `id: ${key.id} appears twice`);
    ids.add(key.id);
    keys.push(key);
  });
  return keys;
}

/** What an import did. */
export interface ImportReport {
  imported: number;
  /** Keys the target already held, exactly as exported. */
  unchanged: number;
  /** Keys not imported, with the reason (the target holds another record under the id or hash, or a pending application with the e-mail or payment reference). */
  conflicts: { id: string; reason: string }[];
}

/**
 * Writes `keys` into `store`. A key already there unchanged is skipped, so an import can be run
 * again after an interruption; a key that clashes with what the target holds is not written and is
 * reported. Never changes a key already in the target.
 */
export async function importKeys(store: QuotaStore, keys: readonly KeyRecord[]): Promise<ImportReport> {
  const report: ImportReport = { imported: 0, unchanged: 0, conflicts: [] };
  for (const key of keys) {
    const existing = (await store.keyById(key.id)) ?? (await store.keyByHash(key.hash));
    if (existing !== null) {
      if (canonical(existing) === canonical(key)) report.unchanged++;
      else
        report.conflicts.push({
          id: key.id,
          reason: existing.id === key.id ? "the target holds a different record with this id" : `the target holds this key's hash under ${existing.id}`,
        });
      continue;
    }
    try {
      await store.insertKey(key);
      report.imported++;
    } catch (error) {
      if (error instanceof DuplicateApplicationError)
        report.conflicts.push({ id: key.id, reason: "the target holds another application awaiting its deposit with this e-mail" });
      else if (error instanceof DuplicateReferenceError)
        report.conflicts.push({ id: key.id, reason: "the target holds another application awaiting its deposit with this payment reference" });
      else throw error;
    }
  }
  return report;
}
