/**
 * The sources of the stroke data (`dist/strokes.jsonl`, Arphic Public License): the pipeline picks
 * a character's strokes from them, the runtime serves each body with its source's name, address,
 * licence and attribution.
 */

/** The glyph form a character's strokes draw: Korean, Japanese or Chinese. */
export type StrokeForm = "ko" | "ja" | "zh";

/** `tables.json`'s `strokeForm`: one letter per record, the form of its strokes or `-` for none. */
export const STROKE_FORM_CODES: Readonly<Record<StrokeForm | "none", string>> = { ko: "k", ja: "j", zh: "z", none: "-" };

/** The form a letter of `strokeForm` stands for; null for none. */
export function strokeFormOf(code: string | undefined): StrokeForm | null {
  return code === "k" ? "ko" : code === "j" ? "ja" : code === "z" ? "zh" : null;
}

/** Where a character's strokes come from (the `source` of `GET /hanja/{character}/strokes`). */
export interface StrokeSource {
  /** Short name, as served. */
  name: "animCJK" | "hanzi-writer-data";
  form: StrokeForm;
  /** The source's address. */
  url: string;
  /** SPDX identifier of the licence. */
  license: string;
  /** The attribution to keep with the data. */
  attribution: string;
}

export const ANIMCJK: StrokeSource = {
  name: "animCJK",
  form: "ko",
  url: "https://github.com/parsimonhi/animCJK",
  license: "Arphic-1999",
  attribution:
    "Stroke order of the Korean forms: animCJK (https://github.com/parsimonhi/animCJK, graphicsKo.txt, © 2016-2026 FM&SH), derived from Make Me a Hanzi (https://github.com/skishore/makemeahanzi) and the Arphic PL KaitiM GB and Big5 fonts (© 1999 Arphic Technology Co., Ltd.), under the Arphic Public License.",
};

export const MAKE_ME_A_HANZI: StrokeSource = {
  name: "hanzi-writer-data",
  form: "zh",
  url: "https://github.com/chanind/hanzi-writer-data",
  license: "Arphic-1999",
  attribution:
    "Stroke order of the Chinese forms: hanzi-writer-data (https://github.com/chanind/hanzi-writer-data), the data of Make Me a Hanzi (https://github.com/skishore/makemeahanzi), derived from the Arphic PL KaitiM GB and Big5 fonts (© 1999 Arphic Technology Co., Ltd.), under the Arphic Public License.",
};

/** The sources by name. */
export const STROKE_SOURCES: Readonly<Record<StrokeSource["name"], StrokeSource>> = { animCJK: ANIMCJK, "hanzi-writer-data": MAKE_ME_A_HANZI };

/** A line of `dist/strokes.jsonl`: the served body with its source named only. */
export interface StrokesLine {
  character: string;
  form: StrokeForm;
  strokes: { outline: string; median: [number, number][] }[];
  source: StrokeSource["name"];
}

/** The body of `GET /hanja/{character}/strokes` from a line of `dist/strokes.jsonl`: the source named in full. */
export function strokesBody(line: string): string {
  const parsed = JSON.parse(line) as StrokesLine;
  const { name, url, license, attribution } = STROKE_SOURCES[parsed.source];
  return JSON.stringify({ ...parsed, source: { name, url, license, attribution } });
}
