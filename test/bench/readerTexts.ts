/** The texts the reader's benchmark and probes read: the phrase set, and texts made of its phrases in a seeded order. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./lib.ts";

/** The phrases and their standard readings (`phrase,reading,checked`; no phrase holds a comma). */
export function readerPhrases(): { phrase: string; reading: string }[] {
  const lines = readFileSync(join(ROOT, "test/content/reader-phrases.csv"), "utf8").trim().split("\n").slice(1);
  return lines.map((line) => {
    const [phrase, reading] = line.split(",");
    return { phrase: phrase as string, reading: reading as string };
  });
}

/** Phrases of the set in a seeded order: the same sequence in every run. */
export function phrasePicker(seed = 1): () => string {
  const phrases = readerPhrases().map(({ phrase }) => phrase);
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return phrases[Math.floor((state / 2 ** 31) * phrases.length)] as string;
  };
}

/** `n` different texts of `size` characters (code points): `tag-i ` and phrases, cut at `size`. */
export function readerTexts(pick: () => string, tag: string, n: number, size: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    let text = `${tag}-${i} `;
    while ([...text].length < size) text += `${pick()} `;
    return [...text].slice(0, size).join("");
  });
}

/** The `GET /read` targets of texts. */
export const readTargets = (texts: readonly string[]) => texts.map((text) => `/hanja/v1/read?text=${encodeURIComponent(text)}`);

/** The `GET /read` requests of texts as `app.handle` takes them in process (a plain request, its only header `host`). */
export const readRequests = (texts: readonly string[]) => {
  const headers = { get: (name: string) => (name === "host" ? "localhost" : null) };
  return readTargets(texts).map((target) => ({ method: "GET", url: `http://localhost${target}`, headers }));
};
