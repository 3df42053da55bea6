/**
 * Text taken as sent (the reader's `text`): not trimmed nor normalised, so every rule is about
 * what cannot be text at all. Refused: nothing, more than the limit, a lone surrogate, a control
 * character other than tab and line breaks. Everything else (every script, compatibility and
 * astral ideographs, combining marks, emoji) is taken.
 */
import { codePointLength } from "../util/codePointLength.ts";

/** Why a text is refused: the rule it breaks, said so that a client can fix it. */
export type TextProblem = { rule: "required" | "too_long" | "lone_surrogate" | "control_character"; detail: string };

/** Control characters other than tab, line feed and carriage return (which texts hold). */
const CONTROL = /(?![\t\n\r])\p{Cc}/u;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first rule the value of parameter `name` breaks for a limit of `max` characters (code points), or undefined when it may be taken. */
export function verbatimTextProblem(name: string, text: string | undefined, max: number): TextProblem | undefined {
  if (text === undefined || text === "") return { rule: "required", detail: `${name} is required: give the text` };
  // A code point is one or two UTF-16 units: most texts need no count.
  const length = text.length <= max ? text.length : codePointLength(text);
  if (length > max) return { rule: "too_long", detail: `${name} is ${length} characters long; the limit is ${max}` };
  const lone = LONE_SURROGATE.exec(text);
  if (lone) {
    const unit = (lone[0].charCodeAt(0) ?? 0).toString(16).toUpperCase();
    return { rule: "lone_surrogate", detail: `${name} holds a lone surrogate (U+${unit}) at index ${lone.index}: send well-formed UTF-16 or UTF-8` };
  }
  const control = CONTROL.exec(text);
  if (control) {
    const unit = (control[0].charCodeAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
    return {
      rule: "control_character",
      detail: `${name} holds the control character U+${unit} at index ${control.index}; only tab, line feed and carriage return are taken`,
    };
  }
  return undefined;
}
