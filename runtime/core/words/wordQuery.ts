/**
 * What `GET /words` asks of the words (docs/rules.md "Words"): the query run, and the items it
 * lists. Its parameters are checked into a `WordQuery` beside their specs (`routes/hanjaParams.ts`).
 */
import type { LoadedData } from "../data/load.ts";
import { wordItem } from "../../format/records.ts";
import type { WordIndex } from "./wordIndex.ts";

/** A words query: a word or part of one (`q`), a character's words (`char`), or every word. */
export type WordQuery = { by: "q" | "char"; value: string } | { by: "all" };

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
    const glosses = data.wordGlosses;
    return JSON.stringify(wordItem(word, idiomIdx.get(word.hanja), glosses === undefined ? undefined : (glosses.get(word.hanja) ?? null)));
  };
}
