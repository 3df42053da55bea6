import { basename } from "node:path";
import { crc32 } from "node:zlib";
import { parse } from "csv-parse/sync";
import unzipper from "unzipper";
import { FINGERPRINT_PROPERTIES, versionFromFingerprint } from "./fingerprint.ts";
import { type EntryOptions, InputError, type UnihanEntry, type UnihanReader, type UnihanVersion } from "./types.ts";

/** Where a property lives in the official layout, so its file can be read first (see `entries`). */
const PROPERTY_HOME: Record<string, string> = { kHangul: "Unihan_Readings.txt" };

/** The eight files of every Unihan.zip since 5.2; a newer release may add more, which are read too. */
export const UNIHAN_FILES = [
  "Unihan_DictionaryIndices.txt",
  "Unihan_DictionaryLikeData.txt",
  "Unihan_IRGSources.txt",
  "Unihan_NumericValues.txt",
  "Unihan_OtherMappings.txt",
  "Unihan_RadicalStrokeCounts.txt",
  "Unihan_Readings.txt",
  "Unihan_Variants.txt",
] as const;

// `# Unicode Version 17.0.0` (16.0 and later) or `# Unicode version: 15.0.0` (earlier).
const VERSION_HEADER = /^#\s*Unicode version:?\s+(\d+\.\d+\.\d+)\s*$/i;
const CODEPOINT = /^U\+[0-9A-F]{4,6}$/;
const PROPERTY = /^k[A-Za-z0-9_]+$/;

/**
 * Reads an official `Unihan.zip` (from a file path or the bytes of a download).
 * Every non-comment line must be `U+XXXX<TAB>kProperty<TAB>value`; the lines of the wanted
 * properties are parsed with csv-parse (tab-separated, no quoting), the others only shape-checked,
 * which keeps a full build close to the cost of decompressing the zip.
 */
export function readUnihanZip(source: string | Uint8Array, label = typeof source === "string" ? basename(source) : "Unihan.zip"): UnihanReader {
  const headerVersions = new Map<string, string>();
  const seen = new Set<string>();
  let done = false;
  let filesRead = 0;

  async function* entries(properties?: ReadonlySet<string>, options: EntryOptions = {}): AsyncGenerator<UnihanEntry> {
    const directory = await openZip(source, label);
    const files = directory.files
      .filter((f) => /^Unihan_\w+\.txt$/.test(basename(f.path)) && f.type === "File")
      .sort((a, b) => basename(a.path).localeCompare(basename(b.path)));
    const names = new Set(files.map((f) => basename(f.path)));
    for (const required of UNIHAN_FILES) {
      if (!names.has(required)) throw new InputError(`unihan: ${label} has no ${required} (found: ${[...names].join(", ") || "no Unihan_*.txt files"})`);
    }
    // Inflate every file at once: zlib works on the thread pool, so the files decompress in
    // parallel, and each file is scanned as soon as it is ready while the others still inflate.
    const inflated = files.map((file) => file.buffer().then((bytes) => ({ bytes }), (error: unknown) => ({ error })));
    const take = async (i: number): Promise<[string, string]> => {
      const file = files[i] as (typeof files)[number];
      const name = basename(file.path);
      const result = await inflated[i];
      if (!result || "error" in result) {
        const reason = (result?.error as Error | undefined)?.message ?? "unknown error";
        throw new InputError(`unihan: cannot decompress ${name} in ${label}: ${reason} (corrupt or truncated zip?)`);
      }
      const { bytes } = result;
      // unzipper does not check the CRC: without this a damaged entry can inflate to wrong text silently.
      if (bytes.length !== file.uncompressedSize || crc32(bytes) !== file.crc32) {
        throw new InputError(`unihan: ${name} in ${label} fails its size or CRC-32 check (corrupt zip)`);
      }
      return [name, bytes.toString("utf8")];
    };
    const scan = (text: string, name: string, only: ReadonlySet<number> | undefined) => [...scanFile(text, name, { properties, only }, headerVersions, seen)];

    if (!options.onlyWith) {
      for (let i = 0; i < files.length; i++) {
        const [name, text] = await take(i);
        yield* scan(text, name, undefined);
        filesRead++;
      }
      done = true;
      return;
    }
    // The selection needs the code points that have `onlyWith` before any file can be scanned.
    // Unihan keeps each property in one file (kHangul: Unihan_Readings.txt), so that file is read
    // first and the others are scanned as they arrive; if another file turns out to carry the
    // property too (a release that moved it), everything is scanned again with the full set.
    const property = options.onlyWith;
    const first = Math.max(0, files.findIndex((f) => basename(f.path) === PROPERTY_HOME[property]));
    const texts: [string, string][] = new Array(files.length);
    texts[first] = await take(first);
    const only = codepointsWith([texts[first]], property);
    let found: UnihanEntry[][] = new Array(files.length);
    let moved = false;
    const order = [first, ...[...files.keys()].filter((i) => i !== first)];
    for (const i of order) {
      const [name, text] = (texts[i] ??= await take(i));
      if (i !== first && text.includes(`\t${property}\t`)) moved = true;
      if (!moved) found[i] = scan(text, name, only);
    }
    if (moved) {
      headerVersions.clear();
      const all = codepointsWith(texts, property);
      found = texts.map(([name, text]) => scan(text, name, all));
    }
    for (const entries of found) if (entries) yield* entries;
    filesRead = files.length;
    done = true;
  }

  function version(): UnihanVersion {
    if (!done) throw new Error("unihan: version() called before the entries were read");
    const versions = new Set(headerVersions.values());
    if (versions.size > 1) {
      const list = [...headerVersions].map(([file, v]) => `${file}: ${v}`).join(", ");
      throw new InputError(`unihan: the files of ${label} disagree on the Unicode version (${list})`);
    }
    const [headerVersion] = versions;
    if (headerVersion && headerVersions.size === filesRead) return { version: headerVersion, method: "header" };
    return versionFromFingerprint(seen, label);
  }

  return { label, entries, version };
}

async function openZip(source: string | Uint8Array, label: string) {
  try {
    return typeof source === "string" ? await unzipper.Open.file(source) : await unzipper.Open.buffer(Buffer.from(source));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "file not found" : `${(error as Error).message} (not a zip, or corrupt or truncated)`;
    throw new InputError(`unihan: cannot open ${label} as a zip: ${reason}`);
  }
}

/** The code point of every line carrying `property`, found by a plain text search. */
function codepointsWith(texts: [string, string][], property: string): Set<number> {
  const found = new Set<number>();
  const needle = `\t${property}\t`;
  for (const [, text] of texts) {
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
      found.add(hexAfterPlus(text, text.lastIndexOf("\n", at) + 1, at));
    }
  }
  return found;
}

/**
 * The number written as upper-case hex between `U+` at `start` and `end`, or -1: lets the hot loop
 * test a line's code point without allocating a string per line (the shape is checked later).
 */
function hexAfterPlus(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start + 2; i < end; i++) {
    const c = text.charCodeAt(i);
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

interface ScanFilter {
  properties: ReadonlySet<string> | undefined;
  only: ReadonlySet<number> | undefined;
}

function* scanFile(text: string, file: string, filter: ScanFilter, headerVersions: Map<string, string>, seen: Set<string>): Generator<UnihanEntry> {
  const { properties, only } = filter;
  const wanted: string[] = [];
  const wantedLines: number[] = [];
  for (const property of FINGERPRINT_PROPERTIES) if (text.includes(`\t${property}\t`)) seen.add(property);
  let lineNumber = 0;
  let start = 0;
  // Hot loop over ~1.5 million lines: look at character codes and slice only lines that are kept.
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    lineNumber++;
    const lineStart = start;
    const lineEnd = text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    start = end + 1;
    if (lineEnd === lineStart) continue;
    if (text.charCodeAt(lineStart) === 35 /* # */) {
      if (!headerVersions.has(file)) {
        const match = VERSION_HEADER.exec(text.slice(lineStart, lineEnd));
        if (match?.[1]) headerVersions.set(file, match[1]);
      }
      continue;
    }
    const tab1 = text.indexOf("\t", lineStart);
    const tab2 = tab1 < 0 || tab1 >= lineEnd ? -1 : text.indexOf("\t", tab1 + 1);
    if (tab2 < 0 || tab2 >= lineEnd || text.charCodeAt(lineStart) !== 85 /* U */ || text.charCodeAt(lineStart + 1) !== 43 /* + */) {
      throw malformed(file, lineNumber, text.slice(lineStart, lineEnd), "expected U+XXXX<TAB>kProperty<TAB>value");
    }
    if (only && !only.has(hexAfterPlus(text, lineStart, tab1))) continue;
    const property = text.slice(tab1 + 1, tab2);
    if (!PROPERTY.test(property)) throw malformed(file, lineNumber, text.slice(lineStart, lineEnd), `bad property name "${property}"`);
    if (properties && !properties.has(property)) continue;
    wanted.push(text.slice(lineStart, lineEnd));
    wantedLines.push(lineNumber);
  }
  if (wanted.length === 0) return;
  // Lines were split already: naming the record delimiter spares csv-parse detecting it (a third faster).
  const records = parse(wanted.join("\n"), { delimiter: "\t", record_delimiter: "\n", quote: false, relax_column_count: true }) as string[][];
  for (let i = 0; i < records.length; i++) {
    const [cp, property, value, ...extra] = records[i] as string[];
    const line = wantedLines[i] ?? 0;
    if (!cp || !CODEPOINT.test(cp) || !property || value === undefined || extra.length > 0) {
      throw malformed(file, line, wanted[i] ?? "", "expected U+XXXX<TAB>kProperty<TAB>value");
    }
    if (value.length === 0) throw malformed(file, line, wanted[i] ?? "", `empty value for ${property}`);
    yield { codepoint: Number.parseInt(cp.slice(2), 16), property, value, file, line };
  }
}

function malformed(file: string, line: number, text: string, why: string): InputError {
  const shown = text.length > 120 ? `${text.slice(0, 120)}…` : text;
  return new InputError(`unihan: malformed line at ${file}:${line}: ${why}: ${JSON.stringify(shown)}`);
}
