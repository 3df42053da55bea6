/**
 * A reading as the JSON `/read` answers: the same text as `JSON.stringify(result)`, written piece
 * by piece. The answer's shape is fixed (`READ_RESULT`), and about fifty segments of short strings
 * made generically cost about three times what writing their members directly does (on the
 * two-core machine of test/bench/RESULTS.md, about 20 against 7 µs for 200 characters).
 */
import type { ReadResult, ReadSegment } from "../../format/records.ts";

/**
 * `JSON.stringify(result)` for a reading as `readText` makes it: members in its order (a
 * segment's `href` or `idiom_idx` after its offset), each string quoted as JSON would.
 */
export function readResultJson(result: ReadResult): string {
  let out = `{"text":${quoted(result.text)},"hangul":${quoted(result.hangul)},"segments":[`;
  const { segments } = result;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as ReadSegment;
    const { hanja, hangul, other_readings: others } = segment;
    if (i > 0) out += ",";
    // The segment's head as one template, not through `quoted`: the two extra strings a segment made
    // that way cost about a quarter more in the answer's JSON and encoding (25 → 31–35 µs a 200-character text, 1,000 texts).
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
  return `${out}]}`;
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
