/**
 * The pinned hanja dictionary: libhangul's `hanja.txt` kept as published in
 * `pipeline/data/libhangul/`, with Debian's copyright file and `pin.json` beside it. The pin
 * records where the file came from (the Debian package, its version and SHA-256, the path inside
 * it), the file's SHA-256 and what reading it gives (`DictionaryCounts`). It is computed from the
 * file (`npm run pin:dictionary`), never typed by hand; the build refuses a file whose hash or
 * counts are not the pin's.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type HanjaDictionary, type LeftOutReason, parseHanjaDictionary } from "../load/hanjaDictionary.ts";
import { InputError } from "../load/types.ts";
import { sha256 } from "../write/writeDist.ts";

/** The folder holding the pinned dictionary, Debian's copyright file, its provenance and `pin.json`. */
export const DICTIONARY_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../data/libhangul");
export const DICTIONARY_PIN_FILE = "pin.json";

/** What reading the dictionary gives; the build fails when the pinned file gives other counts. */
export interface DictionaryCounts {
  /** Lines in the file. */
  lines: number;
  /** `#` lines. */
  comments: number;
  /** Empty lines. */
  blanks: number;
  /** Entries kept. */
  entries: number;
  /** Kept entries of one character (a 훈음 and a reading of it). */
  single_character_entries: number;
  /** Distinct characters with at least one kept single-character entry. */
  characters: number;
  /** Kept entries of two or more characters. */
  words: number;
  /** Entries left out, by reason (see `LeftOutReason`). */
  left_out: Record<LeftOutReason, number>;
}

/** `pin.json`. */
export interface DictionaryPin {
  /** The dictionary's file name in the pin folder. */
  file: string;
  /** SHA-256 of the file, hex. */
  sha256: string;
  /** The Debian package the file was taken from, its version, the SHA-256 of its `.deb` and the file's path inside it. */
  package: { name: string; version: string; sha256: string; path: string };
  /** Where the package came from, in a sentence. */
  origin: string;
  counts: DictionaryCounts;
}

/** The counts of a parsed dictionary. */
export function dictionaryCounts(dictionary: HanjaDictionary): DictionaryCounts {
  const singles = dictionary.entries.filter((e) => [...e.hanja].length === 1);
  const left_out: Record<LeftOutReason, number> = { reading_not_hangul: 0, word_not_han_or_hangul: 0, uneven_reading: 0 };
  for (const { reason } of dictionary.leftOut) left_out[reason]++;
  return {
    lines: dictionary.lines,
    comments: dictionary.comments,
    blanks: dictionary.blanks,
    entries: dictionary.entries.length,
    single_character_entries: singles.length,
    characters: new Set(singles.map((e) => e.hanja)).size,
    words: dictionary.entries.length - singles.length,
    left_out,
  };
}

/** Computes the pin of the dictionary file `bytes`; `source` says where it came from (kept from the pin it replaces). */
export function computeDictionaryPin(bytes: Uint8Array, file: string, source: Pick<DictionaryPin, "package" | "origin">): DictionaryPin {
  const dictionary = parseHanjaDictionary(file, new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  return { file, sha256: sha256(bytes), package: source.package, origin: source.origin, counts: dictionaryCounts(dictionary) };
}

/** Reads and checks `pin.json` in `dir`, naming the file and field at fault. */
export function readDictionaryPin(dir = DICTIONARY_DIR): DictionaryPin {
  const path = join(dir, DICTIONARY_PIN_FILE);
  if (!existsSync(path)) throw new InputError(`${path}: missing; it pins the hanja dictionary the build uses (npm run pin:dictionary writes it from the file)`);
  let pin: Partial<DictionaryPin>;
  try {
    pin = JSON.parse(readFileSync(path, "utf8")) as Partial<DictionaryPin>;
  } catch (error) {
    throw new InputError(`${path}: not valid JSON: ${(error as Error).message}`);
  }
  const bad = (field: string, what: string, value: unknown) => new InputError(`${path}: ${field} ${what}, got ${JSON.stringify(value)}`);
  if (typeof pin.file !== "string" || !/^[\w.-]+\.txt$/.test(pin.file)) throw bad("file", "must name a .txt file in the pin folder", pin.file);
  if (typeof pin.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(pin.sha256)) throw bad("sha256", "must be 64 lower-case hex digits", pin.sha256);
  const source = pin.package;
  if (typeof source !== "object" || source === null) throw bad("package", "must be an object", source);
  for (const field of ["name", "version", "sha256", "path"] as const) {
    if (typeof source[field] !== "string" || source[field] === "") throw bad(`package.${field}`, "must be a non-empty string", source[field]);
  }
  if (typeof pin.origin !== "string") throw bad("origin", "must be a string", pin.origin);
  if (typeof pin.counts !== "object" || pin.counts === null) throw bad("counts", "must be an object", pin.counts);
  return pin as DictionaryPin;
}

/**
 * Checks the dictionary read from the pin folder against its pin: the file's SHA-256, then the
 * counts its reading gives (so a change to the reading rules that changes what is kept is seen,
 * and the pin recomputed and reviewed). Fails naming the file and what differs.
 */
export function verifyDictionary(bytes: Uint8Array, dictionary: HanjaDictionary, pin: DictionaryPin): void {
  const actual = sha256(bytes);
  if (actual !== pin.sha256) {
    throw new InputError(
      `${pin.file}: SHA-256 ${actual} is not the pinned ${pin.sha256}; restore the published file, or pin a new one with npm run pin:dictionary`,
    );
  }
  const counts = dictionaryCounts(dictionary);
  const differ = JSON.stringify(counts) !== JSON.stringify(pin.counts);
  if (differ) {
    throw new InputError(
      `${pin.file}: reading it gives ${JSON.stringify(counts)}, the pin says ${JSON.stringify(pin.counts)}; recompute the pin (npm run pin:dictionary) and review the change`,
    );
  }
}

/** The path of the pinned dictionary. */
export function pinnedDictionary(pin: DictionaryPin, dir = DICTIONARY_DIR): string {
  return join(dir, pin.file);
}
