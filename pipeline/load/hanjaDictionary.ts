/**
 * libhangul's hanja dictionary (`hanja.txt`): one entry a line, `reading:hanja:gloss`, in the order
 * the dictionary gives (for one character, its readings in that order: 樂 낙, 락, 악, 요). Lines
 * starting with `#` are comments and empty lines are passed over. The gloss is the 훈음 of a single
 * character (`물 수, 고를 수`), a note on a word (`지명`), or empty.
 */
import { readSourceFile } from "./csvTable.ts";
import { InputError } from "./types.ts";

/** One entry of the dictionary, with its 1-based line. */
export interface DictionaryEntry {
  /** The reading in Hangul (`수`, `수각`). */
  reading: string;
  /** The word as written: Han characters, sometimes with Hangul (`水`, `水閣`, `水閣집`). */
  hanja: string;
  /** The gloss: 훈음 for a single character, a note or nothing for a word. */
  gloss: string;
  line: number;
}

/**
 * Why an entry of the right shape is left out of the data: a reading that is not Hangul, a word
 * with characters that are neither Han nor Hangul (control, private-use and space characters
 * appear in a few lines of the published file), or a reading whose length is not the word's (so
 * no reading of each character can be taken from it: `구천` for `龜川洞`).
 */
export type LeftOutReason = "reading_not_hangul" | "word_not_han_or_hangul" | "uneven_reading";

/** An entry left out, and why. */
export interface LeftOut {
  line: number;
  value: string;
  reason: LeftOutReason;
}

/** The dictionary as read: its entries in file order, what was left out, and the line counts. */
export interface HanjaDictionary {
  entries: DictionaryEntry[];
  leftOut: LeftOut[];
  /** Lines in the file (a final newline ends the last line; it does not start another). */
  lines: number;
  comments: number;
  blanks: number;
}

const HANGUL = /^\p{Script=Hangul}+$/u;
const HAN_OR_HANGUL = /^[\p{Script=Han}\p{Script=Hangul}]+$/u;

/** Reads and parses the dictionary at `path` (see `parseHanjaDictionary`); returns its bytes (for the pin's hash) and text too. */
export async function readHanjaDictionary(path: string, file: string): Promise<{ bytes: Uint8Array; text: string; dictionary: HanjaDictionary }> {
  const { bytes, text } = await readSourceFile(path);
  return { bytes, text, dictionary: parseHanjaDictionary(file, text) };
}

/**
 * Parses the dictionary's text, checking every line's shape: a comment, an empty line, or three
 * fields separated by `:` of which the reading and the word are not empty. A line of any other
 * shape fails with the file, the line and its text. An entry of the right shape whose characters
 * cannot be used (see `LeftOutReason`) is left out and reported.
 */
export function parseHanjaDictionary(file: string, text: string): HanjaDictionary {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const dictionary: HanjaDictionary = { entries: [], leftOut: [], lines: lines.length, comments: 0, blanks: 0 };
  for (let i = 0; i < lines.length; i++) {
    const value = (lines[i] as string).replace(/\r$/, "");
    const line = i + 1;
    if (value.startsWith("#")) dictionary.comments++;
    else if (value === "") dictionary.blanks++;
    else {
      const fields = value.split(":");
      const [reading, hanja, gloss] = fields as [string, string, string];
      if (fields.length !== 3 || reading === "" || hanja === "") {
        throw new InputError(`${file}:${line}: expected reading:hanja:gloss (the reading and the word not empty), got ${JSON.stringify(value)}`);
      }
      const reason = leftOutReason(reading, hanja);
      if (reason === null) dictionary.entries.push({ reading, hanja, gloss, line });
      else dictionary.leftOut.push({ line, value, reason });
    }
  }
  return dictionary;
}

function leftOutReason(reading: string, hanja: string): LeftOutReason | null {
  if (!HANGUL.test(reading)) return "reading_not_hangul";
  if (!HAN_OR_HANGUL.test(hanja)) return "word_not_han_or_hangul";
  if ([...reading].length !== [...hanja].length) return "uneven_reading";
  return null;
}
