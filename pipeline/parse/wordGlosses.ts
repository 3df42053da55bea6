/**
 * `meaning_en` of the dictionary's words (docs/rules.md "Words"): the English glosses of the pinned
 * extract of okpyeon's words (from English Wiktionary, CC BY-SA 4.0) whose hanja is a dictionary
 * word and whose reading is one of the word's, each sense once, in the source's order, joined by `; `.
 * Written apart from every other file (`dist/words-en.txt`, one `hanja<TAB>meaning_en` line per
 * glossed word in code point order), so the share-alike data stays separate.
 */
import type { GlossedWord } from "../pin/wordGlossesPin.ts";
import { type Word, compareCodePoints } from "../../runtime/format/words.ts";

export interface WordGlossCounts {
  /** Dictionary words given a gloss. */
  glossed: number;
  /** Entries of the source whose hanja is no dictionary word, or whose reading is none of the word's. */
  unmatched: number;
  /** Glosses of matched entries left out as cut in the source (unbalanced brackets or quotes). */
  dropped: number;
}

/** The text of `dist/words-en.txt` for `words`, and its counts. */
export function wordGlossesText(words: readonly Word[], entries: readonly GlossedWord[]): { text: string; counts: WordGlossCounts } {
  const readings = new Map<string, Set<string>>();
  for (const { hanja, readings: r } of words) {
    let set = readings.get(hanja);
    if (set === undefined) readings.set(hanja, (set = new Set()));
    for (const reading of r) set.add(reading);
  }
  const glosses = new Map<string, string[]>();
  let unmatched = 0;
  let dropped = 0;
  for (const { hanja, hangul, glosses: own } of entries) {
    if (readings.get(hanja)?.has(hangul) !== true) {
      unmatched++;
      continue;
    }
    const list = glosses.get(hanja) ?? [];
    // A gloss may itself list senses (`one person; someone`): each sense once. A gloss cut in the
    // source's extraction (unbalanced brackets or quotes: `“history”) (South Korea`) is left out.
    for (const gloss of own) {
      if (!balanced(gloss)) {
        dropped++;
        continue;
      }
      for (const sense of senses(gloss)) if (!list.includes(sense)) list.push(sense);
    }
    glosses.set(hanja, list);
  }
  const lines = [...glosses.keys()].sort(compareCodePoints).map((hanja) => `${hanja}\t${(glosses.get(hanja) ?? []).join("; ")}`);
  return { text: lines.length === 0 ? "" : `${lines.join("\n")}\n`, counts: { glossed: lines.length, unmatched, dropped } };
}

/** Whether a gloss's parentheses nest and close, and its curly quotes pair. */
function balanced(gloss: string): boolean {
  let depth = 0;
  for (const c of gloss) {
    if (c === "(") depth++;
    else if (c === ")" && --depth < 0) return false;
  }
  return depth === 0 && gloss.split("“").length === gloss.split("”").length;
}

/** The senses of a gloss: its parts separated by `; ` outside parentheses, trimmed, none empty. */
function senses(gloss: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < gloss.length; i++) {
    const c = gloss[i];
    if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === ";" && gloss[i + 1] === " " && depth === 0) {
      parts.push(gloss.slice(start, i));
      start = i + 2;
    }
  }
  parts.push(gloss.slice(start));
  return parts.map((part) => part.trim()).filter((part) => part !== "");
}
