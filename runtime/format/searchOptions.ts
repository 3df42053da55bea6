/**
 * The search indexes' MiniSearch options, shared by the pipeline (which builds the indexes) and the
 * runtime (which loads and queries them). Apart from the rest of the `dist/` format (`dist.ts`) so
 * that a module needing the format's constants, the page's script among them, does not carry
 * MiniSearch.
 */
import MiniSearch, { type Options, type SearchOptions } from "minisearch";

/** Field documents fed to the character index. */
export interface CharacterDoc {
  id: number;
  definition_en: string;
  /** The first sense of the definition (up to the first `,` or `;`): what the character mainly means. */
  sense: string;
  meaning_ko: string;
}

/** MiniSearch options of the character index (English definitions and Korean glosses). */
export const CHARACTER_INDEX: Options<CharacterDoc> = {
  fields: ["definition_en", "sense", "meaning_ko"],
  storeFields: [],
};

const tokenize = MiniSearch.getDefault("tokenize") as (text: string) => string[];

/**
 * Query options for English / other text on `GET /hanja`: every word must match, as a word or a
 * word prefix. A match in the first sense counts three times (`water` ranks 水 "water, liquid…"
 * above "water-chestnut"). A repeated word counts once, and a word of one ASCII letter or digit
 * matches whole words only: as a prefix it would match a large part of the index (`a`: every
 * word in a), and a query of forty of them cost hundreds of times an ordinary query's CPU (see
 * RESULTS.md, "Worst-case text queries"; test/http/hanja-search.test.ts).
 */
export const CHARACTER_QUERY: SearchOptions = {
  prefix: (term) => term.length > 1 || term > "\u007f",
  tokenize: (text) => [...new Map(tokenize(text).map((token) => [token.toLowerCase(), token])).values()],
  combineWith: "AND",
  boost: { definition_en: 1, sense: 3, meaning_ko: 1 },
};

/**
 * Light typo tolerance, used only when the exact query finds nothing (so `king` never drifts to
 * `sing`): one edit in words of four letters or more (`wter` → water).
 */
export const CHARACTER_TYPO_QUERY: SearchOptions = {
  ...CHARACTER_QUERY,
  fuzzy: (term) => (term.length >= 4 ? 1 : false),
};

/** Relevance multiplier for education hanja: learners look for the common character first. */
export const EDUCATION_BOOST = 1.5;

export interface IdiomDoc {
  id: number;
  meaning: string;
  /** The English meaning, or empty where the build had none. */
  meaning_en: string;
}

/** MiniSearch options of the idiom meaning index: the Korean and the English meaning. */
export const IDIOM_INDEX: Options<IdiomDoc> = {
  fields: ["meaning", "meaning_en"],
  storeFields: [],
};

/** Query options for idiom meanings: every word must match, as a word prefix (Korean particles follow the stem). */
export const IDIOM_QUERY: SearchOptions = {
  prefix: true,
  combineWith: "AND",
};
