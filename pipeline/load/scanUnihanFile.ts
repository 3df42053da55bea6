import { isUtf8 } from "node:buffer";
import { parse } from "csv-parse/sync";
import { FINGERPRINT_PROPERTIES } from "./fingerprint.ts";
import { InputError, type UnihanEntry } from "./types.ts";

// `# Unicode Version 17.0.0` (16.0 and later) or `# Unicode version: 15.0.0` (earlier).
const VERSION_HEADER = /^#\s*Unicode version:?\s+(\d+\.\d+\.\d+)\s*$/i;
const SHAPE = "expected U+XXXX<TAB>kProperty<TAB>value";
const CODEPOINT = /^U\+[0-9A-F]{4,6}$/;

// Byte values of the characters the scan looks for.
const TAB = 9;
const LF = 10;
const CR = 13;
const HASH = 35;
const PLUS = 43;
const U = 85;
const K = 107;

/** Which lines of a file become entries. */
export interface ScanFilter {
  /** Wanted properties; all when undefined. */
  properties: ReadonlySet<string> | undefined;
  /** Wanted code points; all when undefined. */
  only: ReadonlySet<number> | undefined;
}

/**
 * The entries of one decompressed `Unihan_*.txt`, read from its UTF-8 bytes. Every line is
 * shape-checked (`U+XXXX<TAB>kProperty<TAB>value`, comments and blank lines aside) and a
 * malformed one fails with file, line and text; only the lines of wanted code points and
 * properties are decoded and parsed with csv-parse, so a full Unihan costs one pass over its
 * bytes and no text of the rest. Shape errors are reported before field errors (a bad code point, an extra field, an
 * empty value) of the same file.
 */
export function scanUnihanFile(bytes: Uint8Array, file: string, filter: ScanFilter, headerVersions: Map<string, string>): UnihanEntry[] {
  const { only } = filter;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kept = new KeptLines(text, file, filter.properties);
  const length = text.length;
  let lineNumber = 0;
  let start = 0;
  // Hot loop over ~1.5 million lines, kept small so that it is optimised early: one walk over
  // the bytes finds the two tabs and the line end; the rare cases are handled out of line.
  while (start < length) {
    lineNumber++;
    const lineStart = start;
    // Each walk stops at a line feed, so the tabs it finds belong to this line.
    let tab1 = lineStart;
    let c = 0;
    while (tab1 < length && (c = text[tab1] as number) !== TAB && c !== LF) tab1++;
    let tab2 = tab1;
    if (c === TAB) {
      tab2++;
      while (tab2 < length && (c = text[tab2] as number) !== TAB && c !== LF) tab2++;
    }
    let end = tab2;
    while (end < length && text[end] !== LF) end++;
    start = end + 1;
    const lineEnd = end > lineStart && text[end - 1] === CR ? end - 1 : end;
    if (lineEnd === lineStart) continue;
    if (text[lineStart] === HASH) {
      if (!headerVersions.has(file)) readHeader(text, lineStart, lineEnd, file, headerVersions);
      continue;
    }
    if (text[tab1] !== TAB || text[tab2] !== TAB || text[lineStart] !== U || text[lineStart + 1] !== PLUS) {
      throw malformed(file, lineNumber, text.toString("utf8", lineStart, lineEnd), SHAPE);
    }
    // Checked on every line, kept or not: a line whose code point is misspelt would otherwise
    // drop out of the selection silently, and its character lose the value.
    const codepoint = hexAfterPlus(text, lineStart, tab1);
    const digits = tab1 - lineStart - 2;
    if (codepoint < 0 || digits < 4 || digits > 6) throw malformed(file, lineNumber, text.toString("utf8", lineStart, lineEnd), SHAPE);
    if (codepoint > 0x10ffff || (codepoint >= 0xd800 && codepoint <= 0xdfff)) {
      throw malformed(file, lineNumber, text.toString("utf8", lineStart, lineEnd), `${text.toString("latin1", lineStart, tab1)} is not a Unicode scalar value`);
    }
    if (only === undefined || only.has(codepoint)) kept.add(lineNumber, lineStart, tab1, tab2, lineEnd);
  }
  return kept.finish();
}

function readHeader(text: Buffer, lineStart: number, lineEnd: number, file: string, headerVersions: Map<string, string>): void {
  const match = VERSION_HEADER.exec(text.toString("utf8", lineStart, lineEnd));
  if (match?.[1]) headerVersions.set(file, match[1]);
}

/**
 * The lines of selected code points: their property name is checked (failing at once, as a
 * shape error), and the lines of wanted properties are kept as byte ranges. `finish` copies them
 * into one buffer, parses it with csv-parse (tab-separated, no quoting) and checks their fields,
 * after the whole file has been shape-checked; a line is decoded to text only for an error message.
 */
class KeptLines {
  private readonly names = new PropertyNames();
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly lineNumbers: number[] = [];
  private bytes = 0;

  constructor(
    private readonly text: Buffer,
    private readonly file: string,
    private readonly properties: ReadonlySet<string> | undefined,
  ) {}

  add(line: number, lineStart: number, tab1: number, tab2: number, lineEnd: number): void {
    const { text, file } = this;
    const property = this.names.read(text, tab1 + 1, tab2);
    if (property === undefined) {
      throw malformed(file, line, text.toString("utf8", lineStart, lineEnd), `bad property name "${text.toString("utf8", tab1 + 1, tab2)}"`);
    }
    if (this.properties && !this.properties.has(property)) return;
    this.starts.push(lineStart);
    this.ends.push(lineEnd);
    this.lineNumbers.push(line);
    this.bytes += lineEnd - lineStart + 1;
  }

  finish(): UnihanEntry[] {
    const { text, starts, ends, lineNumbers, file } = this;
    if (starts.length === 0) return [];
    // csv-parse reads bytes: handing it the kept lines as one buffer, newline-separated, spares
    // decoding each line to a string and joining them. Naming the record delimiter spares it
    // detecting one.
    const input = Buffer.allocUnsafe(this.bytes - 1);
    let at = 0;
    for (let i = 0; i < starts.length; i++) {
      if (i > 0) input[at++] = LF;
      at += text.copy(input, at, starts[i], ends[i]);
    }
    // What is kept is published: it must be UTF-8 (the rest of the file is never decoded).
    if (!isUtf8(input)) {
      const bad = starts.findIndex((s, i) => !isUtf8(text.subarray(s, ends[i])));
      throw malformed(
        file,
        lineNumbers[bad] ?? 0,
        text.toString("utf8", starts[bad], ends[bad]),
        "not valid UTF-8 (shown with U+FFFD where the bytes are bad)",
      );
    }
    const records = parse(input, { delimiter: "\t", record_delimiter: "\n", quote: false, relax_column_count: true }) as string[][];
    const lineText = (i: number) => text.toString("utf8", starts[i], ends[i]);
    const entries: UnihanEntry[] = [];
    for (let i = 0; i < records.length; i++) {
      const [cp, property, value, ...extra] = records[i] as string[];
      const line = lineNumbers[i] ?? 0;
      if (!cp || !CODEPOINT.test(cp) || !property || value === undefined || extra.length > 0) throw malformed(file, line, lineText(i), SHAPE);
      if (value.length === 0) throw malformed(file, line, lineText(i), `empty value for ${property}`);
      const codepoint = Number.parseInt(cp.slice(2), 16);
      if (codepoint > 0x10ffff || (codepoint >= 0xd800 && codepoint <= 0xdfff)) throw malformed(file, line, lineText(i), `${cp} is not a Unicode scalar value`);
      entries.push({ codepoint, property, value, file, line });
    }
    return entries;
  }
}

/** Adds to `seen` the fingerprint properties (see fingerprint.ts) that occur in a file's bytes. */
export function addFingerprint(bytes: Uint8Array, seen: Set<string>): void {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const property of FINGERPRINT_PROPERTIES) if (text.includes(`\t${property}\t`)) seen.add(property);
}

/** The code point of every line carrying `property`, found by a plain byte search. */
export function codepointsWith(files: readonly Uint8Array[], property: string): Set<number> {
  const found = new Set<number>();
  const needle = Buffer.from(`\t${property}\t`);
  for (const bytes of files) {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
      found.add(hexAfterPlus(text, text.lastIndexOf(LF, at) + 1, at));
    }
  }
  return found;
}

/**
 * The number written as upper-case hex between `U+` at `start` and `end`, or -1: lets the hot loop
 * test a line's code point without making a string (the shape is checked later).
 */
function hexAfterPlus(bytes: Uint8Array, start: number, end: number): number {
  let value = 0;
  for (let i = start + 2; i < end; i++) {
    const c = bytes[i] as number;
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/**
 * Property names (`k[A-Za-z0-9_]+`) read from bytes: each distinct name is decoded once and
 * found again by a hash of its bytes, so the ~450,000 lines of selected code points make no strings.
 */
class PropertyNames {
  private readonly byHash = new Map<number, string>();

  /** The name between `start` and `end`, or undefined when it is not a property name. */
  read(bytes: Buffer, start: number, end: number): string | undefined {
    if (end - start < 2 || bytes[start] !== K) return undefined;
    let hash = 0;
    for (let i = start; i < end; i++) {
      const c = bytes[i] as number;
      if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95)) return undefined;
      hash = (Math.imul(hash, 31) + c) | 0;
    }
    const known = this.byHash.get(hash);
    if (known !== undefined && sameAscii(known, bytes, start, end)) return known;
    const name = bytes.toString("latin1", start, end); // ASCII, checked above
    if (known === undefined) this.byHash.set(hash, name);
    return name;
  }
}

function sameAscii(name: string, bytes: Uint8Array, start: number, end: number): boolean {
  if (name.length !== end - start) return false;
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) !== bytes[start + i]) return false;
  return true;
}

function malformed(file: string, line: number, text: string, why: string): InputError {
  const shown = text.length > 120 ? `${text.slice(0, 120)}…` : text;
  return new InputError(`unihan: malformed line at ${file}:${line}: ${why}: ${JSON.stringify(shown)}`);
}
