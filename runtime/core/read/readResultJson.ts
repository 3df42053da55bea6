/**
 * A reading as the JSON `/read` answers: the same text as `JSON.stringify(result)`, written piece
 * by piece. The answer's shape is fixed (`READ_RESULT`), and about fifty segments of short strings
 * made generically cost several times what writing their members directly does (see RESULTS.md,
 * "The reader's answer as bytes").
 */
import type { ReadResult, ReadSegment } from "../../format/records.ts";
import type { Steps } from "./slices.ts";

/**
 * `JSON.stringify(result)` for a reading as `readText` makes it: members in its order (a
 * segment's `href` or `idiom_idx` after its offset), each string quoted as JSON would.
 */
export function readResultJson(result: ReadResult): string {
  return `${writeSegments(head(result), result.segments, 0, result.segments.length)}]}`;
}

/** The answer's members before its segments. */
const head = (result: ReadResult) => `{"text":${quoted(result.text)},"hangul":${quoted(result.hangul)},"segments":[`;

/** `out` followed by the JSON of segments `from` to `to` (a comma before each but the answer's first). */
function writeSegments(out: string, segments: readonly ReadSegment[], from: number, to: number): string {
  for (let i = from; i < to; i++) {
    const segment = segments[i] as ReadSegment;
    const { hanja, hangul, other_readings: others } = segment;
    if (i > 0) out += ",";
    // The segment's head as one template, not through `quoted`: the two extra strings a segment made
    // that way cost noticeably more in the answer's JSON and encoding (see RESULTS.md, "The reader's answer as bytes").
    out +=
      plain(hanja) && plain(hangul)
        ? `{"hanja":"${hanja}","hangul":"${hangul}","source":"${segment.source}","other_readings":[`
        : `{"hanja":${JSON.stringify(hanja)},"hangul":${JSON.stringify(hangul)},"source":"${segment.source}","other_readings":[`;
    for (let j = 0; j < others.length; j++) {
      const other = others[j] as string;
      if (j > 0) out += ",";
      out += quoted(other);
    }
    out += `],"offset":${segment.offset}`;
    if (segment.href !== undefined) out += `,"href":${quoted(segment.href)}`;
    if (segment.idiom_idx !== undefined) out += `,"idiom_idx":${segment.idiom_idx}`;
    out += "}";
  }
  return out;
}

const encoder = new TextEncoder();
/** How many segments, or UTF-16 units of a string, are written and encoded between two steps of `readResultBytes`. */
const PART_SEGMENTS = 256;
const PART_UNITS = 32 * 1024;

/**
 * `readResultJson` encoded in UTF-8, in steps (`slices.ts`): written and encoded a part at a time
 * (a long text, its reading, about `PART_SEGMENTS` segments), one step a part, the parts then
 * copied into one array. The answer to 20,000 characters is megabytes: written and encoded at
 * once, it held the event loop for tens of milliseconds.
 */
export function* readResultBytes(result: ReadResult): Steps<Uint8Array<ArrayBuffer>> {
  // A short answer (most are) at once: its parts would cost more than they spare.
  if (result.segments.length <= PART_SEGMENTS && result.text.length + result.hangul.length <= PART_UNITS) return encoder.encode(readResultJson(result));
  const parts: Uint8Array[] = [];
  const add = (text: string) => parts.push(encoder.encode(text));
  add('{"text":');
  yield* encodeQuoted(result.text, add);
  add(',"hangul":');
  yield* encodeQuoted(result.hangul, add);
  add(',"segments":[');
  const { segments } = result;
  for (let from = 0; from < segments.length; from += PART_SEGMENTS) {
    add(writeSegments("", segments, from, Math.min(segments.length, from + PART_SEGMENTS)));
    yield;
  }
  add("]}");
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

/** `quoted(text)` encoded in parts: between quotes as it is when it needs no escape, without copying it. */
function* encodeQuoted(text: string, add: (part: string) => void): Steps<void> {
  if (!plain(text)) return yield* encodeInParts(JSON.stringify(text), add);
  add('"');
  yield* encodeInParts(text, add);
  add('"');
}

/** Encodes `text` a part of at most `PART_UNITS` units at a time, never between the two units of a pair. */
function* encodeInParts(text: string, add: (part: string) => void): Steps<void> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + PART_UNITS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    add(text.slice(start, end));
    start = end;
    yield;
  }
}

/** `text` as JSON writes it: between quotes as it is when it needs no escape (the usual case), else by `JSON.stringify`. */
function quoted(text: string): string {
  return plain(text) ? `"${text}"` : JSON.stringify(text);
}

/**
 * Whether JSON writes `text` as it is between quotes: no quote, backslash or control character,
 * and no surrogate (JSON writes a pair as it is but escapes a lone one: those go to
 * `JSON.stringify`). A loop over the code units tells it more cheaply than a pattern's call.
 */
function plain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x20 || unit === 0x22 || unit === 0x5c || (unit >= 0xd800 && unit <= 0xdfff)) return false;
  }
  return true;
}
