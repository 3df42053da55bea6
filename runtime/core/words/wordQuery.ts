/** What `GET /words` asks of the words (docs/rules.md "Words"): its parameters checked, and the items it lists. */
import type { LoadedData } from "../data/load.ts";
import { wordItem } from "../../format/records.ts";
import { invalidParameter } from "../http/errors.ts";
import type { WordIndex } from "./wordIndex.ts";

/** A words query: a word or part of one (`q`), a character's words (`char`), or every word. */
export type WordQuery = { by: "q" | "char"; value: string } | { by: "all" };

const HAN = /^\p{Script=Han}+$/u;
const HANGUL_SYLLABLES = /^[\uAC00-\uD7A3]+$/;

/**
 * The query of `q` and `char` as parsed (trimmed, `char` one character at most): not both; `q`
 * all Han characters or all Hangul syllables, else a `400` naming it. Neither: every word.
 */
export function wordQuery(q: string, char: string): WordQuery {
  if (q !== "" && char !== "") throw invalidParameter("char", "give q or char, not both");
  if (char !== "") return { by: "char", value: char };
  if (q === "") return { by: "all" };
  if (!HAN.test(q) && !HANGUL_SYLLABLES.test(q)) {
    throw invalidParameter("q", `q must be Han characters (水道) or Hangul syllables (수도), not both and nothing else; got ${JSON.stringify(q)}`);
  }
  return { by: "q", value: q };
}

/** The listed positions of the words a query asks for. */
export function runWordQuery(words: WordIndex, query: WordQuery): number[] {
  if (query.by === "all") return Array.from({ length: words.count }, (_, position) => position);
  return query.by === "char" ? words.ofCharacter(query.value) : words.search(query.value);
}

/**
 * The JSON item of the word at a listed position, an idiom written the same linked by its idx (the
 * idioms are read on the first page of words that needs them).
 */
export function wordsItem(data: LoadedData): (position: number) => string {
  let idiomIdx: Map<string, number> | undefined;
  return (position) => {
    idiomIdx ??= new Map(data.idioms.idioms.map((idiom) => [idiom.hanja, idiom.idx]));
    const word = data.words.word(position);
    return JSON.stringify(wordItem(word, idiomIdx.get(word.hanja)));
  };
}
