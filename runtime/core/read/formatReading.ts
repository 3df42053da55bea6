/**
 * The forms a reading is answered in: plain Hangul, Hangul with the hanja after it in parentheses
 * (대한민국(大韓民國)은), or HTML `<ruby>` markup with the whole text HTML-escaped.
 */
import { escapeHtml } from "../util/escapeHtml.ts";
import type { ReadResult, ReadSegment } from "./readText.ts";
import { type Steps, runAtOnce } from "./slices.ts";

/** The forms of `format=`, the first the default. */
export const READ_FORMATS = ["hangul", "paren", "ruby"] as const;
/** One of `READ_FORMATS`. */
export type ReadFormat = (typeof READ_FORMATS)[number];

/**
 * The text read in the given form: `hangul` the reading itself; `paren` each run of Han characters
 * read, followed by the run in parentheses; `ruby` every piece as `<ruby>hanja<rt>reading</rt></ruby>`
 * (a character without a reading as it is), everything HTML-escaped.
 */
export function formatReading(result: ReadResult, format: ReadFormat): string {
  return runAtOnce(formatReadingSteps(result, format));
}

/** How many segments `formatReadingSteps` writes between two steps. */
const STEP_SEGMENTS = 256;

/** `formatReading` in steps (`slices.ts`), one about every `STEP_SEGMENTS` segments. */
export function* formatReadingSteps(result: ReadResult, format: ReadFormat): Steps<string> {
  if (format === "hangul") return result.hangul;
  const { text, segments } = result;
  let out = "";
  let last = 0;
  const passThrough = (end: number) => {
    const plain = text.slice(last, end);
    out += format === "ruby" ? escapeHtml(plain) : plain;
  };
  let sinceStep = 0;
  for (const run of runs(segments)) {
    if (format === "paren") sinceStep += run.length;
    if (sinceStep >= STEP_SEGMENTS) {
      sinceStep = 0;
      yield;
    }
    const first = run[0] as ReadSegment;
    const lastSegment = run.at(-1) as ReadSegment;
    passThrough(first.offset);
    if (format === "paren") {
      const hanja = run.map((s) => s.hanja).join("");
      const reading = run.map((s) => s.hangul).join("");
      out += reading === hanja ? hanja : `${reading}(${hanja})`;
    } else {
      for (const s of run) {
        out += s.source === "none" ? escapeHtml(s.hanja) : `<ruby>${escapeHtml(s.hanja)}<rt>${escapeHtml(s.hangul)}</rt></ruby>`;
        if (++sinceStep >= STEP_SEGMENTS) {
          sinceStep = 0;
          yield;
        }
      }
    }
    last = lastSegment.offset + lastSegment.hanja.length;
  }
  passThrough(text.length);
  return out;
}

/** The segments grouped by the run of Han characters they came from (adjacent in the text). */
function runs(segments: readonly ReadSegment[]): ReadSegment[][] {
  const grouped: ReadSegment[][] = [];
  for (const segment of segments) {
    const current = grouped.at(-1);
    const previous = current?.at(-1);
    if (current && previous && previous.offset + previous.hanja.length === segment.offset) current.push(segment);
    else grouped.push([segment]);
  }
  return grouped;
}
