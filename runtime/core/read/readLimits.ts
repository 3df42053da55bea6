/**
 * What text the reader takes: its length limits and the characters it refuses. Everything else
 * (every script, compatibility and astral ideographs, combining marks, emoji) is read or passed
 * through unchanged.
 */
import { codePointLength } from "../util/codePointLength.ts";

/** The most characters (code points) `GET /read?text=` takes. */
export const READ_GET_MAX = 1_000;
/** The most characters (code points) `POST /read` takes; more is `413`. */
export const READ_POST_MAX = 20_000;
/**
 * The most bytes a `POST /read` body may have: room for 20,000 characters sent as JSON `\u` escapes
 * (six bytes each, twelve for an astral character's pair), so the character limit decides.
 */
export const READ_BODY_MAX_BYTES = 256 * 1024;

/** Why a text is refused: the rule it breaks, said so that a client can fix it. */
export type TextProblem = { rule: "required" | "too_long" | "lone_surrogate" | "control_character"; detail: string };

/** Control characters other than tab, line feed and carriage return (which texts hold). */
const CONTROL = /(?![\t\n\r])\p{Cc}/u;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first rule `text` breaks for a limit of `max` characters, or undefined when it may be read. */
export function textProblem(text: string | undefined, max: number): TextProblem | undefined {
  if (text === undefined || text === "") return { rule: "required", detail: "text is required: give the text to read" };
  // A code point is one or two UTF-16 units: most texts need no count.
  const length = text.length <= max ? text.length : codePointLength(text);
  if (length > max) return { rule: "too_long", detail: `text is ${length} characters long; the limit is ${max}` };
  const lone = LONE_SURROGATE.exec(text);
  if (lone) {
    const unit = (lone[0].charCodeAt(0) ?? 0).toString(16).toUpperCase();
    return { rule: "lone_surrogate", detail: `text holds a lone surrogate (U+${unit}) at index ${lone.index}: send well-formed UTF-16 or UTF-8` };
  }
  const control = CONTROL.exec(text);
  if (control) {
    const unit = (control[0].charCodeAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
    return {
      rule: "control_character",
      detail: `text holds the control character U+${unit} at index ${control.index}; only tab, line feed and carriage return are taken`,
    };
  }
  return undefined;
}
