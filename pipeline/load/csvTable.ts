import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { parse } from "csv-parse/sync";
import { InputError } from "./types.ts";

/** One CSV row keyed by the header's column names, with its 1-based line in the file. */
export interface CsvRow<K extends string> {
  line: number;
  values: Record<K, string>;
}

/**
 * Reads a UTF-8 CSV whose header must be exactly `columns` (RFC 4180 quoting, BOM allowed).
 * A wrong header, a row with the wrong number of fields or a broken quote fails with file and line.
 */
export async function readCsvTable<K extends string>(path: string, columns: readonly K[]): Promise<CsvRow<K>[]> {
  const file = basename(path);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new InputError(`${file}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
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
  return rows.map(({ record, info }) => {
    if (record.length !== columns.length) {
      throw new InputError(`${file}:${info.lines}: expected ${columns.length} fields (${columns.join(",")}), found ${record.length}: ${JSON.stringify(record.join(","))}`);
    }
    const values = {} as Record<K, string>;
    columns.forEach((column, i) => (values[column] = record[i] ?? ""));
    return { line: info.lines, values };
  });
}
