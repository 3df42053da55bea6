/**
 * The pinned English glosses of hanja words: okpyeon's (github.com/jjm4000/okpyeon) `words.json`,
 * from English Wiktionary, data under CC BY-SA 4.0. Only the glossed entries are kept, in
 * `pipeline/data/okpyeon/words-en.tsv`: a header, then one line per entry, `hanja`, `hangul` and
 * its glosses separated by tabs, in code point order of the hanja then the file's order.
 * `words-en.pin.json` beside it records the commit and path it was taken from, the source file's
 * SHA-256, the extract's SHA-256 and counts; `npm run pin:school-levels -- <hanja.json> --words
 * <words.json> --commit <sha>` writes both, and the build refuses an extract that is not the pin's.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../load/types.ts";
import { sha256 } from "../write/writeDist.ts";
import { SCHOOL_LEVELS_DIR } from "./schoolLevelsPin.ts";
import { compareCodePoints } from "../../runtime/format/words.ts";

export const WORD_GLOSSES_FILE = "words-en.tsv";
export const WORD_GLOSSES_PIN_FILE = "words-en.pin.json";
const HEADER = "hanja\thangul\tglosses";

/** One glossed entry: a word in hanja, its reading and its English glosses, in the source's order. */
export interface GlossedWord {
  hanja: string;
  hangul: string;
  glosses: string[];
}

/** `words-en.pin.json`. */
export interface WordGlossesPin {
  file: string;
  sha256: string;
  source: { repository: string; commit: string; path: string; sha256: string; url: string; license: string };
  counts: { entries: number; words: number };
}

/** The extract of okpyeon's `words.json` text: its entries with at least one gloss. */
export function extractWordGlosses(wordsJson: string): string {
  const { words } = JSON.parse(wordsJson) as { words: Record<string, { hangul: string; glosses: string[] }[]> };
  const lines: string[] = [];
  for (const hanja of Object.keys(words).sort(compareCodePoints)) {
    for (const { hangul, glosses } of words[hanja] ?? []) {
      const kept = glosses.map((g) => g.trim()).filter((g) => g !== "");
      if (kept.length === 0) continue;
      if (/[\t\n\r]/.test(hanja + hangul + kept.join(""))) throw new InputError(`words.json: ${hanja} ${hangul} has a tab or a line break`);
      lines.push([hanja, hangul, ...kept].join("\t"));
    }
  }
  return `${HEADER}\n${lines.join("\n")}\n`;
}

/** The entries of an extract, each line checked (hanja, a reading, at least one gloss). */
export function parseWordGlosses(text: string, file = WORD_GLOSSES_FILE): GlossedWord[] {
  const [header, ...lines] = text.replace(/\n$/, "").split("\n");
  if (header !== HEADER) throw new InputError(`${file}:1: header must be ${JSON.stringify(HEADER)}`);
  const problems: string[] = [];
  const entries: GlossedWord[] = [];
  lines.forEach((line, i) => {
    const [hanja = "", hangul = "", ...glosses] = line.split("\t");
    if (!/^\p{Script=Han}{2,}$/u.test(hanja) || !/^[\uAC00-\uD7A3]+$/.test(hangul) || glosses.length === 0 || glosses.some((g) => g === "")) {
      problems.push(
        `${file}:${i + 2}: expected hanja (two or more), a Hangul reading and one or more glosses, tab-separated: ${JSON.stringify(line.slice(0, 80))}`,
      );
    } else entries.push({ hanja, hangul, glosses });
  });
  if (problems.length > 0) throw new InputError(problems.slice(0, 20).join("\n"));
  return entries;
}

/** Reads and verifies the pinned extract (SHA-256 and counts); returns its entries, hash and a summary line. */
export function readWordGlosses(dir = SCHOOL_LEVELS_DIR): { entries: GlossedWord[]; hash: string; summary: string } {
  const pinPath = join(dir, WORD_GLOSSES_PIN_FILE);
  if (!existsSync(pinPath)) throw new InputError(`${pinPath}: missing; it pins the words' English glosses the build uses`);
  const pin = JSON.parse(readFileSync(pinPath, "utf8")) as WordGlossesPin;
  const path = join(dir, pin.file);
  if (!existsSync(path)) throw new InputError(`${path}: missing; ${WORD_GLOSSES_PIN_FILE} pins it`);
  const bytes = readFileSync(path);
  const hash = sha256(bytes);
  if (hash !== pin.sha256) throw new InputError(`${path}: SHA-256 ${hash} is not the pinned ${pin.sha256}`);
  const entries = parseWordGlosses(new TextDecoder("utf-8", { fatal: true }).decode(bytes), pin.file);
  const words = new Set(entries.map((e) => e.hanja)).size;
  if (entries.length !== pin.counts.entries || words !== pin.counts.words) {
    throw new InputError(`${path}: ${entries.length} entries of ${words} words, the pin says ${pin.counts.entries} of ${pin.counts.words}`);
  }
  return { entries, hash, summary: `${pin.file}: ${entries.length} glossed entries of ${words} words` };
}

/** The pin of an extract made from `source` (okpyeon's words.json bytes) at `commit`. */
export function wordGlossesPin(source: Uint8Array, extract: string, commit: string): WordGlossesPin {
  const repository = "https://github.com/jjm4000/okpyeon";
  const path = "extension/data/words.json";
  const entries = parseWordGlosses(extract);
  return {
    file: WORD_GLOSSES_FILE,
    sha256: sha256(new TextEncoder().encode(extract)),
    source: { repository, commit, path, sha256: sha256(source), url: `${repository}/blob/${commit}/${path}`, license: "CC-BY-SA-4.0" },
    counts: { entries: entries.length, words: new Set(entries.map((e) => e.hanja)).size },
  };
}
