/**
 * The rules an application's fields follow (docs/rules.md "Interface B"), written once: `POST /subscribe`
 * answers a breach with a 400 naming each field, `keys import` refuses the line naming it, so no
 * way into a store takes what the other refuses.
 */
import { codePointLength } from "../util/codePointLength.ts";
import type { Applicant } from "./store.ts";

// A pragmatic address check (WHATWG's input type=email rule): local@domain with dotted labels.
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
const PHONE = /^[0-9 +\-()]{1,20}$/;
/**
 * What no field may hold: control characters (C0, DEL, C1), lone surrogates, and the bidirectional
 * overrides and isolates, which would make a name display as something else in the operator's list.
 */
const FORBIDDEN = /[\p{Cc}\p{Cs}\u202a-\u202e\u2066-\u2069]/u;

/** A field that breaks a rule: its name and what is wrong, in words for the applicant or operator. */
export interface FieldProblem {
  param: string;
  detail: string;
}

/**
 * The applicant's fields of `body`, trimmed and checked: the applicant when every field follows the
 * rules, else every breach (the first field first), so a form can mark them all.
 */
export function checkApplicant(body: Record<string, unknown>): { applicant: Applicant } | { problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const bad = (param: string, detail: string): null => {
    problems.push({ param, detail });
    return null;
  };
  const text = (field: string, required: boolean, max: number): string | null => {
    const value = body[field];
    if (value === undefined || value === null) return required ? bad(field, `${field} is required`) : null;
    if (typeof value !== "string") return bad(field, `${field} must be a string`);
    const trimmed = value.trim();
    if (trimmed === "") return required ? bad(field, `${field} must not be blank`) : null;
    if (FORBIDDEN.test(trimmed)) return bad(field, `${field} must not contain control characters, bidirectional overrides or unpaired surrogates`);
    if (codePointLength(trimmed) > max) return bad(field, `${field} may be at most ${max} characters`);
    return trimmed;
  };
  const name = text("name", true, 100);
  if (name !== null && !/[\p{L}\p{N}]/u.test(name)) bad("name", "name must contain a letter or digit");
  const email = text("email", true, 254);
  if (email !== null) {
    // RFC 5321 §4.5.3.1.1 and RFC 5322's dot-atom: a local part of at most 64, no empty dot-separated part.
    const local = email.slice(0, email.lastIndexOf("@"));
    if (!EMAIL.test(email)) bad("email", "email is not a valid e-mail address");
    else if (local.length > 64 || local.startsWith(".") || local.endsWith(".") || local.includes("..")) {
      bad("email", "email is not a valid e-mail address (the part before @ has at most 64 characters, without leading, trailing or double dots)");
    }
  }
  const phone = text("phone", false, 20);
  if (phone !== null && !PHONE.test(phone)) bad("phone", "phone may contain only digits, spaces and + - ( )");
  const depositor = text("depositor", false, 50);
  if (problems.length > 0 || name === null || email === null) return { problems };
  return { applicant: { name, email, phone, depositor } };
}
