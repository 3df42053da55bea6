/** Keys and applications moved between stores (export / import): round trip, re-runs, conflicts, and bad files named by line. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryQuotaStore } from "../../runtime/core/quota/memoryStore.ts";
import type { QuotaStore } from "../../runtime/core/quota/store.ts";
import { ImportFormatError, exportLines, importKeys, parseExport } from "../../runtime/core/quota/transfer.ts";
import { openSqliteStore } from "../../runtime/stores/sqlite/sqliteStore.ts";
import { keyRecord } from "./contractCases.ts";
import { fillWithKeys } from "./keySet.ts";
import { allKeys } from "../../runtime/core/quota/keyPages.ts";

const dir = mkdtempSync(join(tmpdir(), "quota-transfer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function exported(store: QuotaStore): Promise<string> {
  let text = "";
  for await (const line of exportLines(store)) text += line;
  return text;
}

describe("export and import", () => {
  it("memory → SQLite → memory keeps every record exactly, and the same e-mail stays refused while pending", async () => {
    const source = new MemoryQuotaStore();
    await fillWithKeys(source);
    const text = await exported(source);
    const sqlite = await openSqliteStore(join(dir, "round.sqlite"));
    expect(await importKeys(sqlite, parseExport(text))).toEqual({ imported: 5, unchanged: 0, conflicts: [] });
    expect(await allKeys(sqlite)).toEqual(await allKeys(source));
    // Erased applications move erased: no personal data comes back, erased_at is kept.
    expect((await allKeys(sqlite)).filter((k) => k.erased_at).map((k) => [k.erased_at, k.applicant])).toEqual([
      ["2025-02-05T00:00:00.000Z", { name: "", email: "", phone: null, depositor: null }],
      ["2025-04-05T00:00:00.000Z", { name: "", email: "", phone: null, depositor: null }],
    ]);
    expect(await importKeys(sqlite, parseExport(text))).toEqual({ imported: 0, unchanged: 5, conflicts: [] });
    await expect(async () => sqlite.insertKey(keyRecord({ email: "PENDING@example.com" }))).rejects.toThrow(/awaiting its deposit/);
    const back = new MemoryQuotaStore();
    await importKeys(back, parseExport(await exported(sqlite)));
    expect(await allKeys(back)).toEqual(await allKeys(source));
    sqlite.close();
  });

  it("an import run again imports nothing twice; a clash is reported and changes nothing", async () => {
    const source = new MemoryQuotaStore();
    await fillWithKeys(source);
    const keys = parseExport(await exported(source));
    const target = new MemoryQuotaStore();
    await importKeys(target, keys.slice(0, 2));
    const other = keyRecord({ email: "pending@example.com" });
    await target.insertKey(other);
    const report = await importKeys(target, keys);
    expect(report.imported).toBe(2);
    expect(report.unchanged).toBe(2);
    expect(report.conflicts).toEqual([{ id: keys[3]!.id, reason: "the target holds another application awaiting its deposit with this e-mail" }]);
    const changed = { ...keys[0]!, plan: "free" as const };
    expect((await importKeys(target, [changed])).conflicts).toEqual([{ id: changed.id, reason: "the target holds a different record with this id" }]);
    expect((await target.keyById(changed.id))?.plan).toBe("annual");
    // Another open application with the same payment reference: reported, not written.
    const sameReference = keyRecord({ id: `${other.id.slice(0, 10)}${other.id.endsWith("zzzzzz") ? "yyyyyy" : "zzzzzz"}` });
    expect((await importKeys(target, [sameReference])).conflicts).toEqual([
      { id: sameReference.id, reason: "the target holds another application awaiting its deposit with this payment reference" },
    ]);
    expect(await target.keyById(sameReference.id)).toBeNull();
  });

  it.each([
    ["", 1, /not an export of this service/],
    ['{"format":"hanja-api-keys","version":2}', 1, /not an export/],
    ['{"format":"hanja-api-keys","version":1}\nnot json', 2, /line 2: not JSON/],
    ['{"format":"hanja-api-keys","version":1}\n[]', 2, /line 2: not a key record/],
  ])("refuses a file that is not an export (%#), naming the line", (text, line, message) => {
    expect(() => parseExport(text)).toThrow(ImportFormatError);
    expect(() => parseExport(text)).toThrow(new RegExp(`^line ${line}: `));
    expect(() => parseExport(text)).toThrow(message);
  });

  it("names the line and field of a bad record, and of a repeated id, before writing anything", () => {
    const key = keyRecord();
    const head = '{"format":"hanja-api-keys","version":1}';
    const line = (patch: Record<string, unknown>) =>
      `${head}\n${JSON.stringify(key)}\n${JSON.stringify({ ...key, id: "key_AAAAAAAAAAAA", hash: "b".repeat(64), ...patch })}\n`;
    expect(() => parseExport(line({ status: "expired" }))).toThrow(/^line 3: status: must be pending_deposit, active or revoked, got "expired"$/);
    expect(() => parseExport(line({ hash: "XYZ" }))).toThrow(/^line 3: hash: must be 64 lower-case hex digits/);
    expect(() => parseExport(line({ created_at: "yesterday" }))).toThrow(/^line 3: created_at: must be an ISO 8601 UTC instant, got "yesterday"$/);
    expect(() => parseExport(line({ applicant: { ...key.applicant, email: "" } }))).toThrow(/^line 3: applicant\.email: email must not be blank$/);
    expect(() => parseExport(line({ id: key.id }))).toThrow(/^line 3: id: key_\w{12} appears twice$/);
    expect(() => parseExport(line({ erased_at: "soon" }))).toThrow(/^line 3: erased_at: must be an ISO 8601 UTC instant, got "soon"$/);
    expect(() => parseExport(line({ erased_at: "2025-04-01T00:00:00.000Z" }))).toThrow(
      /^line 3: applicant: must be \{"name":"","email":"","phone":null,"depositor":null\} for an application whose data was erased/,
    );
    expect(parseExport(line({}))).toHaveLength(2);
  });

  it("refuses an instant that is shaped right but is no real date and time, naming the line and field", () => {
    const key = keyRecord();
    const head = '{"format":"hanja-api-keys","version":1}';
    const line = (patch: Record<string, unknown>) =>
      `${head}\n${JSON.stringify(key)}\n${JSON.stringify({ ...key, id: "key_AAAAAAAAAAAA", hash: "b".repeat(64), ...patch })}\n`;
    for (const field of ["created_at", "confirmed_at", "expires_at", "revoked_at"]) {
      for (const bad of ["2026-13-45T99:99:99Z", "2026-02-30T00:00:00Z", "2027-02-29T12:00:00.000Z", "2026-01-01T24:00:00Z", "2026-01-01T23:59:60Z"]) {
        expect(() => parseExport(line({ [field]: bad })), `${field} ${bad}`).toThrow(
          new RegExp(`^line 3: ${field}: "${bad.replaceAll(".", "\\.")}" is no real date and time`),
        );
      }
    }
    expect(() => parseExport(line({ erased_at: "2026-04-31T00:00:00Z", applicant: { name: "", email: "", phone: null, depositor: null } }))).toThrow(
      /^line 3: erased_at: "2026-04-31T00:00:00Z" is no real date and time/,
    );
    // A leap day and the last second of a day are real.
    const [, leap] = parseExport(line({ expires_at: "2028-02-29T23:59:59.999Z", created_at: "2024-02-29T00:00:00Z" }));
    expect(leap?.expires_at).toBe("2028-02-29T23:59:59.999Z");
  });

  it("holds the applicant to the rules of POST /subscribe, naming the line and each field", () => {
    const key = keyRecord();
    const head = '{"format":"hanja-api-keys","version":1}';
    const withApplicant = (patch: Record<string, unknown>) => `${head}\n${JSON.stringify({ ...key, applicant: { ...key.applicant, ...patch } })}\n`;
    expect(() => parseExport(withApplicant({ name: "a".repeat(1_000_000) }))).toThrow(/^line 2: applicant\.name: name may be at most 100 characters$/);
    expect(() => parseExport(withApplicant({ name: "Kim\u0000" }))).toThrow(/^line 2: applicant\.name: name must not contain control characters/);
    expect(() => parseExport(withApplicant({ name: "\u202eevil" }))).toThrow(/bidirectional overrides/);
    expect(() => parseExport(withApplicant({ name: "!!!" }))).toThrow(/^line 2: applicant\.name: name must contain a letter or digit$/);
    expect(() => parseExport(withApplicant({ email: "not-an-address" }))).toThrow(/^line 2: applicant\.email: email is not a valid e-mail address$/);
    expect(() => parseExport(withApplicant({ phone: "call me" }))).toThrow(/^line 2: applicant\.phone: phone may contain only digits/);
    expect(() => parseExport(withApplicant({ depositor: "d".repeat(51) }))).toThrow(/^line 2: applicant\.depositor: depositor may be at most 50 characters$/);
    expect(() => parseExport(withApplicant({ name: 7, email: "x" }))).toThrow(
      /^line 2: applicant\.name: name must be a string; applicant\.email: email is not a valid e-mail address$/,
    );
    // What /subscribe takes, an import takes as /subscribe stores it: trimmed.
    expect(parseExport(withApplicant({ name: "  김철수 ", phone: " 010-1234-5678" }))[0]?.applicant).toMatchObject({ name: "김철수", phone: "010-1234-5678" });
  });
});
