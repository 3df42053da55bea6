/**
 * How alike two idiom meanings read: the Dice coefficient of their character-bigram sets, each
 * bigram weighted by its inverse document frequency over all meanings (IDF-weighted bigram Dice).
 * No language model is available offline; shared two-syllable pieces of words are what a reader
 * notices first, and weighting them by rarity keeps the glue every meaning has ("하는", "없이",
 * "사람") from making unrelated meanings look close.
 */

/** Endings nearly every meaning has; they say nothing about what it means. */
const STOCK_ENDING = /(?:을|를)?\s*이르(?:는|던)\s*말$|(?:이?라는|하는|는)\s*말$|모양$/u;
const NOT_TEXT = /[\s\p{P}\p{S}]/gu;

/** The text compared: without the stock ending, spaces and punctuation. */
export function comparableText(meaning: string): string {
  return meaning.trim().replace(STOCK_ENDING, "").replace(NOT_TEXT, "");
}

/** The distinct character bigrams of a text (code points, so astral characters count once). */
export function bigrams(text: string): Set<string> {
  const chars = [...text];
  const out = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) out.add(`${chars[i]}${chars[i + 1]}`);
  return out;
}

/** A scorer over one list of meanings: `score(i, j)` in [0, 1], 1 for the same bigrams. */
export interface MeaningSimilarity {
  score(i: number, j: number): number;
  /** The bigrams two meanings share, most telling first (for a reviewer reading a flagged pair). */
  shared(i: number, j: number): string[];
}

/** Builds the IDF-weighted bigram Dice over `meanings` (the weights depend on the whole list). */
export function meaningSimilarity(meanings: readonly string[]): MeaningSimilarity {
  const sets = meanings.map((m) => bigrams(comparableText(m)));
  const documents = new Map<string, number>();
  for (const set of sets) for (const gram of set) documents.set(gram, (documents.get(gram) ?? 0) + 1);
  const n = sets.length;
  const weight = (gram: string) => Math.log((n + 1) / ((documents.get(gram) ?? 0) + 0.5));
  const mass = sets.map((set) => [...set].reduce((sum, gram) => sum + weight(gram), 0));
  return {
    score(i, j) {
      const a = sets[i];
      const b = sets[j];
      if (!a || !b) return 0;
      const [small, large] = a.size <= b.size ? [a, b] : [b, a];
      let common = 0;
      for (const gram of small) if (large.has(gram)) common += weight(gram);
      const total = (mass[i] ?? 0) + (mass[j] ?? 0);
      return total === 0 ? 0 : (2 * common) / total;
    },
    shared(i, j) {
      const b = sets[j] ?? new Set<string>();
      return [...(sets[i] ?? [])].filter((gram) => b.has(gram)).sort((x, y) => weight(y) - weight(x));
    },
  };
}

/**
 * Every pair's score at once, as a symmetric n×n matrix (row-major; the diagonal is 1). The same
 * scores as `score`, summed over an inverted index (bigram → the texts holding it), so only pairs
 * that share a bigram cost anything.
 */
export function scoreMatrix(meanings: readonly string[]): { n: number; scores: Float32Array; similarity: MeaningSimilarity } {
  const similarity = meaningSimilarity(meanings);
  const n = meanings.length;
  const postings = new Map<string, number[]>();
  const sets = meanings.map((m) => bigrams(comparableText(m)));
  sets.forEach((set, i) => {
    for (const gram of set) {
      const list = postings.get(gram);
      if (list) list.push(i);
      else postings.set(gram, [i]);
    }
  });
  const mass = new Float64Array(n);
  const common = new Float64Array(n * n);
  for (const list of postings.values()) {
    const weight = Math.log((n + 1) / (list.length + 0.5));
    for (let x = 0; x < list.length; x++) {
      const i = list[x] as number;
      mass[i] = (mass[i] ?? 0) + weight;
      for (let y = x + 1; y < list.length; y++) {
        const at = i * n + (list[y] as number);
        common[at] = (common[at] ?? 0) + weight;
      }
    }
  }
  const scores = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    scores[i * n + i] = 1;
    for (let j = i + 1; j < n; j++) {
      const total = (mass[i] ?? 0) + (mass[j] ?? 0);
      const score = total === 0 ? 0 : (2 * (common[i * n + j] ?? 0)) / total;
      scores[i * n + j] = score;
      scores[j * n + i] = score;
    }
  }
  return { n, scores, similarity };
}
