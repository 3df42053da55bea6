/**
 * Text taken as sent (the reader's `text`): not trimmed nor normalised, so every rule is about
 * what cannot be text at all. Refused: nothing, more than the limit, a lone surrogate, a control
 * character other than tab and line breaks. Everything else (every script, compatibility and
 * astral ideographs, combining marks, emoji) is taken.
 */
import { codePointLength } from "../util/codePointLength.ts";

/** Why a text is refused: the rule it breaks, said so that a client can fix it. */
export type TextProblem = { rule: "required" | "too_long" | "lone_surrogate" | "control_character"; detail: string };

/** The first rule the value of parameter `name` breaks for a limit of `max` characters (code points), or undefined when it may be taken. */
export function verbatimTextProblem(name: string, text: string | undefined, max: number): TextProblem | undefined {
  if (text === undefined || text === "") return { rule: "required", detail: `${name} is required: give the text` };
  // A code point is one or two UTF-16 units: most texts need no count.
  const length = text.length <= max ? text.length : codePointLength(text);
  if (length > max) return { rule: "too_long", detail: `${name} is ${length} characters long; the limit is ${max}` };
  // One pass over the code units for both rules (two patterns took two); a lone surrogate is named
  // before a control character wherever each is.
  let control = -1;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdfff) {
      // A high surrogate followed by a low one is one character; any other surrogate is alone.
      const next = unit <= 0xdbff && i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return { rule: "lone_surrogate", detail: `${name} holds a lone surrogate (U+${hex(unit)}) at index ${i}: send well-formed UTF-16 or UTF-8` };
    } else if (control === -1 && isControl(unit)) control = i;
  }
  if (control === -1) return undefined;
  return {
    rule: "control_character",
    detail: `${name} holds the control character U+${hex(text.charCodeAt(control)).padStart(4, "0")} at index ${control}; only tab, line feed and carriage return are taken`,
  };
}

/** A control character (Unicode's Cc: U+0000–U+001F and U+007F–U+009F) other than tab, line feed and carriage return. */
function isControl(unit: number): boolean {
  return unit < 0x20 ? unit !== 0x09 && unit !== 0x0a && unit !== 0x0d : unit >= 0x7f && unit <= 0x9f;
}

const hex = (unit: number) => unit.toString(16).toUpperCase();
