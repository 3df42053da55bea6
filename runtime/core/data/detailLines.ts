/**
 * The character detail bodies of `details.jsonl`, one line per record, kept the way the host gave
 * the file. Given as bytes (what `loadDistFiles` reads), the file is never decoded as a whole:
 * each body is a view of its line, found from the line lengths `tables.json` lists, and decoded
 * only when something needs its text. Given as text (a worker's text module), it is split into
 * lines. Decoding the whole file was the largest cost of the first answer (see RESULTS.md, "First
 * answers when embedded").
 */
import { DIST_FILES } from "../../format/dist.ts";

/** The detail bodies by record position. */
export interface DetailLines {
  readonly count: number;
  /** The body at `position`, as text. */
  text(position: number): string;
  /** The body at `position`, as UTF-8 bytes (a view of the file when it was given as bytes). */
  bytes(position: number): Uint8Array<ArrayBuffer>;
}

/**
 * The lines of `details.jsonl`, checked against `lengths` (the UTF-8 length of each line, newline
 * excluded, from `tables.json`): a file of another shape fails here, naming both files; a line
 * that is not valid UTF-8 fails when it is first read, naming the file and the line.
 */
export function detailLines(file: string | Uint8Array, lengths: readonly number[]): DetailLines {
  return typeof file === "string" ? textLines(file, lengths.length) : byteLines(ownBuffer(file), lengths);
}

function textLines(file: string, expected: number): DetailLines {
  const lines = file.split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (lines.length !== expected) throw mismatch(`${lines.length} lines`, expected);
  const encoder = new TextEncoder();
  return {
    count: lines.length,
    text: (position) => lines[position] ?? outOfRange(position, lines.length),
    bytes: (position) => encoder.encode(lines[position] ?? outOfRange(position, lines.length)),
  };
}

function byteLines(file: Uint8Array<ArrayBuffer>, lengths: readonly number[]): DetailLines {
  const count = lengths.length;
  // starts[i] is where line i begins; starts[count] is the file's length (every line ends with "\n").
  const starts = new Float64Array(count + 1);
  for (let i = 0; i < count; i++) {
    const length = lengths[i] as number;
    if (!Number.isInteger(length) || length < 0)
      throw new Error(`dist: ${DIST_FILES.tables} lists ${JSON.stringify(length)} as the length of detail ${i + 1}; rebuild dist/`);
    starts[i + 1] = (starts[i] as number) + length + 1;
  }
  if (starts[count] !== file.length) throw mismatch(`${file.length} bytes`, count, `${starts[count]} bytes`);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const line = (position: number): Uint8Array<ArrayBuffer> => {
    if (!(position >= 0 && position < count)) outOfRange(position, count);
    const start = starts[position] as number;
    const end = (starts[position + 1] as number) - 1;
    if (file[end] !== NEWLINE) throw new Error(`dist: ${DIST_FILES.details} line ${position + 1} does not end where ${DIST_FILES.tables} says; rebuild dist/`);
    return file.subarray(start, end);
  };
  const text = (position: number): string => {
    try {
      return decoder.decode(line(position));
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      throw new Error(`dist: ${DIST_FILES.details} line ${position + 1} is not valid UTF-8; rebuild dist/`);
    }
  };
  return {
    count,
    text,
    bytes: (position) => {
      // Served as they are, so checked first: a bad line fails as clearly as when its text is read.
      text(position);
      return line(position);
    },
  };
}

const NEWLINE = 0x0a;

/** The bytes, copied only when they are a view of memory other than an ArrayBuffer (a SharedArrayBuffer). */
function ownBuffer(file: Uint8Array): Uint8Array<ArrayBuffer> {
  return file.buffer instanceof ArrayBuffer ? (file as Uint8Array<ArrayBuffer>) : new Uint8Array(file);
}

function mismatch(found: string, rows: number, listed?: string): Error {
  const detail = listed === undefined ? `${rows} rows` : `${listed} for its ${rows} rows`;
  return new Error(`dist: ${DIST_FILES.details} has ${found} and ${DIST_FILES.tables} ${detail}; they do not match, rebuild dist/`);
}

function outOfRange(position: number, count: number): never {
  throw new RangeError(`dist: no detail at position ${position} (${count} records)`);
}
