import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { parse } from "csv-parse/sync";
import { InputError } from "./types.ts";

/** One CSV row keyed by the header's column names, with its 1-based line in the file. */
export interface CsvRow<K extends string> {
  line: number;
  values: Record<K, string>;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * One of the project's source files, as read (its bytes, for the manifest's hashes) and as text.
 * A file that cannot be read, or that is not valid UTF-8 (which a lenient decoder would turn into
 * U+FFFD and publish), fails with the file, the line and that line's text.
 */
export async function readSourceFile(path: string): Promise<{ bytes: Uint8Array; text: string }> {
  const file = basename(path);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new InputError(`${file}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return { bytes, text: strictUtf8.decode(bytes) };
  } catch {
    const lenient = new TextDecoder("utf-8").decode(bytes);
    const at = lenient.indexOf("\uFFFD");
    const line = lenient.slice(0, at).split("\n").length;
    const text = lenient.split("\n")[line - 1] ?? "";
    throw new InputError(`${file}:${line}: not valid UTF-8 (shown as \uFFFD): ${JSON.stringify(text)}`);
  }
}

/** The text of one of the project's source files (see `readSourceFile`). */
export async function readSourceText(path: string): Promise<string> {
  return (await readSourceFile(path)).text;
}

/**
 * Reads a UTF-8 CSV whose header must be exactly `columns` (RFC 4180 quoting, BOM allowed).
 * A wrong header, a row with the wrong number of fields or a broken quote fails with file and line.
 */
export async function readCsvTable<K extends string>(path: string, columns: readonly K[]): Promise<CsvRow<K>[]> {
  return parseCsvTable(basename(path), await readSourceText(path), columns);
}

/** The rows of CSV `text` read from `file` (see `readCsvTable`). */
export function parseCsvTable<K extends string>(file: string, text: string, columns: readonly K[]): CsvRow<K>[] {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { bom: true, info: true, skip_empty_lines: true, relax_column_count: true }) as unknown as typeof records;
  } catch (error) {
    const e = error as Error & { lines?: number };
    throw new InputError(`${file}:${e.lines ?? "?"}: ${e.message}`);
  }
  const [header, ...rows] = records;
  if (!header || header.record.join(",") !== columns.join(",")) {
    throw new InputError(`${file}:1: header must be "${columns.join(",")}", found ${JSON.stringify(header?.record.join(",") ?? "")}`);
  }
  // Every row of the wrong width is listed, not only the first.
  const wrongWidth = rows
    .filter(({ record }) => record.length !== columns.length)
    .map(
      ({ record, info }) =>
        `${file}:${info.lines}: expected ${columns.length} fields (${columns.join(",")}), found ${record.length}: ${JSON.stringify(record.join(","))}`,
    );
  if (wrongWidth.length === 1) throw new InputError(wrongWidth[0] as string);
  if (wrongWidth.length > 1) throw new InputError(`${file}: ${wrongWidth.length} rows of the wrong width:\n  ${wrongWidth.join("\n  ")}`);
  return rows.map(({ record, info }) => {
    const values = {} as Record<K, string>;
    columns.forEach((column, i) => (values[column] = record[i] ?? ""));
    return { line: info.lines, values };
  });
}
