import { basename } from "node:path";
import { crc32 } from "node:zlib";
import unzipper from "unzipper";
import { versionFromFingerprint } from "./fingerprint.ts";
import { addFingerprint, codepointsWith, scanUnihanFile } from "./scanUnihanFile.ts";
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

/**
 * Reads an official `Unihan.zip` (from a file path or the bytes of a download).
 * Every non-comment line must be `U+XXXX<TAB>kProperty<TAB>value`; the lines of the wanted
 * properties become entries, the others are only shape-checked on their bytes
 * (`scanUnihanFile`), which keeps a full build close to the cost of decompressing the zip.
 */
export function readUnihanZip(source: string | Uint8Array, label = typeof source === "string" ? basename(source) : "Unihan.zip"): UnihanReader {
  const headerVersions = new Map<string, string>();
  const seen = new Set<string>();
  let done = false;
  let filesRead = 0;
  let newestMs = 0;

  async function* entries(properties?: ReadonlySet<string>, options: EntryOptions = {}): AsyncGenerator<UnihanEntry> {
    const directory = await openZip(source, label);
    const files = directory.files
      .filter((f) => /^Unihan_\w+\.txt$/.test(basename(f.path)) && f.type === "File")
      .sort((a, b) => basename(a.path).localeCompare(basename(b.path)));
    newestMs = Math.max(...files.map((f) => dosTime(f.lastModifiedDate, f.lastModifiedTime)));
    const names = new Set(files.map((f) => basename(f.path)));
    for (const required of UNIHAN_FILES) {
      if (!names.has(required)) throw new InputError(`unihan: ${label} has no ${required} (found: ${[...names].join(", ") || "no Unihan_*.txt files"})`);
    }
    // Inflate every file at once: zlib works on the thread pool, so the files decompress in
    // parallel, and each file is scanned as soon as it is ready while the others still inflate.
    const inflated = files.map((file) =>
      file.buffer().then(
        (bytes) => ({ bytes }),
        (error: unknown) => ({ error }),
      ),
    );
    const take = async (i: number): Promise<[string, Buffer]> => {
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
      return [name, bytes];
    };
    const scan = (bytes: Buffer, name: string, only: ReadonlySet<number> | undefined) => scanUnihanFile(bytes, name, { properties, only }, headerVersions);
    // Only data without a version header is dated by its properties (see version()).
    const fingerprint = (inputs: Buffer[]) => {
      if (headerVersions.size < inputs.length) for (const bytes of inputs) addFingerprint(bytes, seen);
    };

    if (!options.onlyWith) {
      const inputs: Buffer[] = [];
      for (let i = 0; i < files.length; i++) {
        const [name, bytes] = await take(i);
        inputs.push(bytes);
        for (const entry of scan(bytes, name, undefined)) yield entry;
        filesRead++;
      }
      fingerprint(inputs);
      done = true;
      return;
    }
    // The selection needs the code points that have `onlyWith` before any file can be scanned.
    // Unihan keeps each property in one file (kHangul: Unihan_Readings.txt), so that file is read
    // first and the others are scanned as they arrive; if another file turns out to carry the
    // property too (a release that moved it), everything is scanned again with the full set.
    const property = options.onlyWith;
    const first = Math.max(
      0,
      files.findIndex((f) => basename(f.path) === PROPERTY_HOME[property]),
    );
    const read: [string, Buffer][] = new Array(files.length);
    read[first] = await take(first);
    const only = withAlso(codepointsWith([read[first][1]], property), options.alsoCodepoints);
    let found: UnihanEntry[][] = new Array(files.length);
    let moved = false;
    const order = [first, ...[...files.keys()].filter((i) => i !== first)];
    for (const i of order) {
      const [name, bytes] = (read[i] ??= await take(i));
      if (i !== first && bytes.includes(`\t${property}\t`)) moved = true;
      if (!moved) found[i] = scan(bytes, name, only);
    }
    if (moved) {
      headerVersions.clear();
      const all = withAlso(
        codepointsWith(
          read.map(([, bytes]) => bytes),
          property,
        ),
        options.alsoCodepoints,
      );
      found = read.map(([name, bytes]) => scan(bytes, name, all));
    }
    fingerprint(read.map(([, bytes]) => bytes));
    // A plain loop: `yield*` over an array wraps it in an async iterator, which costs more per entry.
    for (const entries of found) if (entries) for (const entry of entries) yield entry;
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

  function newest(): Date {
    if (!done) throw new Error("unihan: newest() called before the entries were read");
    return new Date(newestMs);
  }

  return { label, entries, version, newest };
}

/** The selected code points and those read as well. */
function withAlso(selected: Set<number>, also: ReadonlySet<number> | undefined): Set<number> {
  if (also !== undefined) for (const codepoint of also) selected.add(codepoint);
  return selected;
}

async function openZip(source: string | Uint8Array, label: string): Promise<unzipper.CentralDirectory> {
  try {
    return typeof source === "string"
      ? await unzipper.Open.file(source)
      : await unzipper.Open.buffer(Buffer.from(source.buffer, source.byteOffset, source.byteLength));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "file not found" : `${(error as Error).message} (not a zip, or corrupt or truncated)`;
    throw new InputError(`unihan: cannot open ${label} as a zip: ${reason}`);
  }
}

/**
 * A zip entry's MS-DOS date and time as milliseconds, read as UTC (a zip records no time zone, so
 * every machine reads the same instant): years from 1980, two-second steps.
 */
export function dosTime(date: number, time: number): number {
  return Date.UTC(1980 + (date >> 9), ((date >> 5) & 0xf) - 1, date & 0x1f, time >> 11, (time >> 5) & 0x3f, (time & 0x1f) * 2);
}
