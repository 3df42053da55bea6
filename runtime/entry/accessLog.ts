/** The access log: one JSON line per request on stdout, written in batches so logging stays cheap. */
import type { AccessLogEntry } from "../core/appOptions.ts";

export interface AccessLog {
  write(entry: AccessLogEntry): void;
  flush(): void;
}

/** A batch is written once it holds this many bytes, or 100 ms after its first line. */
export const BATCH_BYTES = 65_536;
/** The bytes a batch has room for: past BATCH_BYTES, room for the usual last line. */
export const BATCH_ROOM = BATCH_BYTES + 16_384;

/**
 * Batches lines and writes them every 100 ms or every 64 KiB. Each line is encoded into the
 * batch's bytes as it is written: a batch kept as text instead is a string grown line by line,
 * which lives through several collections among the requests' garbage and then costs more to
 * flatten and encode than the rest of the log (see RESULTS.md, "The access log").
 */
export function createAccessLog(enabled: boolean, out: (bytes: Uint8Array) => void = stdoutWriter()): AccessLog {
  if (!enabled) return { write: () => {}, flush: () => {} };
  const encoder = new TextEncoder();
  // A line that does not fit in what is left of a batch starts the next one.
  const newBatch = () => new Uint8Array(BATCH_ROOM);
  let batch = newBatch();
  let length = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (length === 0) return;
    // The writer may keep the bytes until they are out: the next batch gets its own.
    out(batch.subarray(0, length));
    batch = newBatch();
    length = 0;
  };
  return {
    write(entry) {
      const line = logLine(entry);
      let { read, written } = encoder.encodeInto(line, batch.subarray(length));
      if (read < line.length) {
        flush();
        ({ read, written } = encoder.encodeInto(line, batch));
        // Longer than a whole batch (a very long request target): written on its own.
        if (read < line.length) return out(encoder.encode(line));
      }
      length += written;
      if (length >= BATCH_BYTES) flush();
      else timer ??= setTimeout(flush, 100);
    },
    flush,
  };
}

/** Writes a batch to stdout (`process.stdout`, which Node, Bun and Deno all have). */
export function stdoutWriter(): (bytes: Uint8Array) => void {
  return (bytes) => void process.stdout.write(bytes);
}

/**
 * `JSON.stringify(entry)` with the path as `loggedTarget` gives it, and a newline, with the fields
 * in the order of `AccessLogEntry`, written field by field: the same text at a fraction of the
 * cost, on every request.
 */
export function logLine(entry: AccessLogEntry): string {
  let tail = entry.plan === undefined ? "" : `,"plan":${string(entry.plan)}`;
  if (entry.problem !== undefined) tail += `,"problem":${string(entry.problem)}`;
  if (entry.param !== undefined) tail += `,"param":${string(entry.param)}`;
  const path = entry.path.length <= MAX_LOGGED_TARGET && PLAIN_TARGET.test(entry.path) ? `"${entry.path}"` : JSON.stringify(loggedTarget(entry.path));
  return `{"time":${string(entry.time)},"request_id":${string(entry.request_id)},"method":${string(entry.method)},"path":${path},"status":${number(entry.status)},"duration_ms":${number(entry.duration_ms)}${tail}}\n`;
}

/**
 * The most characters of a request target a line holds: a line stays within what log collectors
 * take as one record (Docker splits lines over 16 KiB), though Deno accepts targets of about 64 KiB.
 */
export const MAX_LOGGED_TARGET = 8_192;

/** A run of characters a request target cannot hold as they are: spaces, controls, non-ASCII. */
const UNSENDABLE = /[^!-~]+/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A request target as the log writes it, the same on every runtime: Bun hands over raw UTF-8 in a
 * target percent-encoded, Deno as it came; here it is encoded, as Bun and the URL parser write it
 * (a lone surrogate as U+FFFD). A target longer than `MAX_LOGGED_TARGET` is cut there (never
 * inside an escape) and ends with `…`, which an encoded target cannot otherwise hold.
 */
export function loggedTarget(target: string): string {
  let text = target.replace(UNSENDABLE, (run) => encodeURIComponent(run.replace(LONE_SURROGATE, "\ufffd")));
  if (text.length > MAX_LOGGED_TARGET) {
    const lastEscape = text.lastIndexOf("%", MAX_LOGGED_TARGET - 1);
    text = `${text.slice(0, lastEscape > MAX_LOGGED_TARGET - 3 ? lastEscape : MAX_LOGGED_TARGET)}…`;
  }
  return text;
}

/** Text JSON writes as it is, between quotes: printable ASCII but `"` and `\`. */
const PLAIN = /^[ !#-[\]-~]*$/;
/** A target `loggedTarget` leaves as it is and JSON writes as it is: visible ASCII but `"` and `\` (the usual target). */
const PLAIN_TARGET = /^[!#-[\]-~]*$/;

/** A string as JSON writes it; quoted directly when it needs no escape (the usual case, and much quicker). */
function string(value: string): string {
  return PLAIN.test(value) ? `"${value}"` : JSON.stringify(value);
}

/** A number as JSON writes it (`null` for NaN and the infinities). */
function number(value: number): string {
  return Number.isFinite(value) ? String(value) : "null";
}
