/**
 * KanjiVG's Japanese forms (CC BY-SA 3.0, kept apart from the Arphic PL stroke data and from the
 * project's code and content): the last fallback of the strokes, after animCJK's Korean forms and
 * Make Me a Hanzi's Chinese ones.
 *
 * `pipeline/data/kanjivg/kanjivg-strokes.jsonl` is an extract of KanjiVG's plain `kanji/<code
 * point>.svg` files (never a variant such as `-Kaisho`) at a pinned commit: for each of the
 * dataset's characters that neither other source draws, the `d` of each stroke path in stroke
 * order, as published, with the file's name and SHA-256. `pin.json` pins the extract by SHA-256;
 * `npm run pin:kanjivg` writes both.
 *
 * KanjiVG draws each stroke's centre line (no filled outline) in a 109-unit square, y downwards.
 * The build converts it into Make Me a Hanzi's frame, the other sources' (1024 units, y upwards,
 * the glyph between y = −124 and 900), as points along the line (a polyline within about 2 units
 * of it): a stroke's `median`, with `outline` null.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { InputError } from "../load/types.ts";
import { sha256 } from "../write/writeDist.ts";
import type { CharacterStrokes, StrokeSource } from "./strokesPin.ts";

export const KANJIVG: StrokeSource = {
  name: "KanjiVG",
  form: "ja",
  url: "https://kanjivg.tagaini.net",
  license: "CC-BY-SA-3.0",
  attribution:
    "Stroke order of the Japanese forms: KanjiVG (https://kanjivg.tagaini.net, © Ulrich Apel), under the Creative Commons Attribution-ShareAlike 3.0 licence (https://creativecommons.org/licenses/by-sa/3.0/). Changed: each stroke's centre line sampled as points in a 1024-unit frame, y upwards.",
};

/** The folder holding the extract, KanjiVG's licence text, the README and `pin.json`. */
export const KANJIVG_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../data/kanjivg");
export const KANJIVG_PIN_FILE = "pin.json";
export const KANJIVG_FILE = "kanjivg-strokes.jsonl";

/** `pin.json`. */
export interface KanjiVgPin {
  repository: string;
  commit: string;
  /** Which of KanjiVG's files the extract takes. */
  path: string;
  /** The extract, its SHA-256 and how many characters it holds. */
  file: string;
  sha256: string;
  characters: number;
  license: string;
  /** Which characters the extract holds. */
  selection: string;
}

/** One line of the extract. */
export interface KanjiVgEntry {
  character: string;
  /** The source file (`kanji/05024.svg`) and its SHA-256. */
  file: string;
  sha256: string;
  /** Each stroke's centre line, an SVG path in KanjiVG's 109-unit frame, in stroke order. */
  strokes: string[];
}

/** KanjiVG's plain files in a `git ls-tree <commit> kanji/` listing, by character: `kanji/<5 hex digits>.svg` only, never a variant (`-Kaisho`, …). */
export function plainKanjiFiles(listing: string): Map<string, { path: string; blob: string }> {
  const files = new Map<string, { path: string; blob: string }>();
  for (const row of listing.split("\n")) {
    const match = /^\d+ blob ([0-9a-f]+)\t(kanji\/([0-9a-f]{5})\.svg)$/.exec(row);
    if (match !== null) files.set(String.fromCodePoint(Number.parseInt(match[3] as string, 16)), { path: match[2] as string, blob: match[1] as string });
  }
  return files;
}

/** The extract's line of a character from its KanjiVG file: the stroke paths (`kvg:<hex>-s<n>`) in the order of n, which must run 1…count. */
export function kanjiVgEntry(character: string, file: string, svg: string): KanjiVgEntry {
  const hex = (character.codePointAt(0) ?? 0).toString(16).padStart(5, "0");
  const byNumber = new Map<number, string>();
  for (const match of svg.matchAll(/<path\b[^>]*>/g)) {
    const id = /\bid="kvg:([0-9a-f]+)-s(\d+)"/.exec(match[0]);
    const d = /\sd="([^"]*)"/.exec(match[0]);
    if (id === null || d === null || id[1] !== hex) continue;
    byNumber.set(Number(id[2]), d[1] as string);
  }
  const strokes = [...byNumber.keys()].sort((a, b) => a - b).map((n) => byNumber.get(n) as string);
  if (strokes.length === 0 || [...byNumber.keys()].some((n) => n < 1 || n > strokes.length)) {
    throw new InputError(`${file}: its stroke paths (kvg:${hex}-s1…) are missing or not numbered 1 to ${strokes.length}`);
  }
  for (const d of strokes) samplePath(d, file);
  return { character, file, sha256: sha256(svg), strokes };
}

/** Reads and checks `pin.json`. */
export function readKanjiVgPin(dir = KANJIVG_DIR): KanjiVgPin {
  const path = join(dir, KANJIVG_PIN_FILE);
  if (!existsSync(path)) throw new InputError(`${path}: missing; it pins KanjiVG's extract the build uses (npm run pin:kanjivg writes it)`);
  const pin = JSON.parse(readFileSync(path, "utf8")) as Partial<KanjiVgPin>;
  if (typeof pin.file !== "string" || !/^[0-9a-f]{64}$/.test(pin.sha256 ?? "") || !/^[0-9a-f]{40}$/.test(pin.commit ?? "")) {
    throw new InputError(`${path}: needs "file", a hex "sha256" and the 40-hex "commit"`);
  }
  return pin as KanjiVgPin;
}

/** The extract's entries, checked line by line. */
export function parseKanjiVg(text: string, file: string): Map<string, KanjiVgEntry> {
  const entries = new Map<string, KanjiVgEntry>();
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    const where = `${file}:${i + 1}`;
    const entry = JSON.parse(line) as Partial<KanjiVgEntry>;
    if (typeof entry.character !== "string" || [...entry.character].length !== 1) throw new InputError(`${where}: "character" is not one character`);
    if (!Array.isArray(entry.strokes) || entry.strokes.length === 0 || !entry.strokes.every((s) => typeof s === "string")) {
      throw new InputError(`${where}: "strokes" is not a list of SVG paths`);
    }
    for (const d of entry.strokes) samplePath(d, where);
    entries.set(entry.character, entry as KanjiVgEntry);
  });
  return entries;
}

/**
 * KanjiVG's strokes of the given characters, verified against the pin, each stroke's centre line
 * as a median in Make Me a Hanzi's frame and no outline. Returns them by character, the extract's
 * hash for the manifest and a line for the build's summary.
 */
export function readKanjiVg(characters: readonly string[], dir = KANJIVG_DIR) {
  const pin = readKanjiVgPin(dir);
  const path = join(dir, pin.file);
  if (!existsSync(path)) throw new InputError(`${path}: missing; ${KANJIVG_PIN_FILE} pins it`);
  const bytes = readFileSync(path);
  const hash = sha256(bytes);
  if (hash !== pin.sha256) throw new InputError(`${path}: SHA-256 ${hash} is not the pinned ${pin.sha256}; run npm run pin:kanjivg`);
  const entries = parseKanjiVg(new TextDecoder("utf-8", { fatal: true }).decode(bytes), pin.file);
  if (entries.size !== pin.characters) throw new InputError(`${path}: ${entries.size} characters, the pin says ${pin.characters}`);
  const strokes = new Map<string, CharacterStrokes>();
  for (const character of characters) {
    const entry = entries.get(character);
    if (entry === undefined) continue;
    strokes.set(character, { source: KANJIVG, strokes: null, medians: entry.strokes.map((d) => samplePath(d, entry.file)) });
  }
  const summary = `${pin.file}: ${entries.size} Japanese forms (KanjiVG ${pin.commit.slice(0, 7)}), ${strokes.size} used`;
  return { strokes, hash, summary };
}

/** KanjiVG's frame (109 units, y downwards) into Make Me a Hanzi's (1024 units, y upwards, top at 900). */
const SCALE = 1024 / 109;
const TOP = 900;
/** How far a median may stray from KanjiVG's line, in its units (about 2 of the 1024). */
const TOLERANCE = 0.25;
/** Points per curve before the line is simplified. */
const CURVE_STEPS = 16;

type Point = [number, number];

/**
 * The points of an SVG path's centre line (KanjiVG uses M, C, S and their relative forms; L, H, V
 * and Z are read too): as few as keep the polyline through them within `TOLERANCE` of the line,
 * its ends included, converted into Make Me a Hanzi's frame and rounded. Any other command, or a path not starting with M, is refused naming `where`.
 */
export function samplePath(d: string, where: string): Point[] {
  const tokens = d.match(/[A-Za-z]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g) ?? [];
  const line: Point[] = [];
  let at: Point = [0, 0];
  let start: Point = [0, 0];
  let control: Point | null = null;
  let command = "";
  let i = 0;
  const number = (): number => {
    const value = Number(tokens[i++]);
    if (!Number.isFinite(value)) throw new InputError(`${where}: path "${d.slice(0, 40)}…" has a command where a number belongs`);
    return value;
  };
  const point = (relative: boolean): Point => {
    const x = number();
    const y = number();
    return relative ? [at[0] + x, at[1] + y] : [x, y];
  };
  const curve = (c1: Point, c2: Point, end: Point) => {
    for (let step = 1; step <= CURVE_STEPS; step++) {
      const t = step / CURVE_STEPS;
      const u = 1 - t;
      const x = u * u * u * at[0] + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0] + t * t * t * end[0];
      const y = u * u * u * at[1] + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1] + t * t * t * end[1];
      line.push([x, y]);
    }
    control = c2;
    at = end;
  };
  while (i < tokens.length) {
    const token = tokens[i] as string;
    if (/[A-Za-z]/.test(token)) {
      command = token;
      i++;
      if (command === "Z" || command === "z") {
        line.push(start);
        at = start;
        control = null;
        continue;
      }
    } else if (command === "") {
      break;
    }
    if (line.length === 0 && command !== "M" && command !== "m") break;
    const relative = command === command.toLowerCase();
    switch (command.toUpperCase()) {
      case "M":
        at = point(relative);
        start = at;
        line.push(at);
        control = null;
        command = relative ? "l" : "L"; // further pairs are lines
        break;
      case "L":
        at = point(relative);
        line.push(at);
        control = null;
        break;
      case "H":
        at = [relative ? at[0] + number() : number(), at[1]];
        line.push(at);
        control = null;
        break;
      case "V":
        at = [at[0], relative ? at[1] + number() : number()];
        line.push(at);
        control = null;
        break;
      case "C": {
        const c1 = point(relative);
        const c2 = point(relative);
        curve(c1, c2, point(relative));
        break;
      }
      case "S": {
        const previous = control as Point | null;
        const c1: Point = previous === null ? at : [2 * at[0] - previous[0], 2 * at[1] - previous[1]];
        const c2 = point(relative);
        curve(c1, c2, point(relative));
        break;
      }
      default:
        throw new InputError(`${where}: path "${d.slice(0, 40)}…" uses ${command}, which the build does not read`);
    }
  }
  if (line.length === 0 || !/^\s*[Mm]/.test(d)) throw new InputError(`${where}: path "${d.slice(0, 40)}" does not start with M`);
  return simplified(line).map(([x, y]) => [Math.round(x * SCALE), Math.round(TOP - y * SCALE)]);
}

/** The line with the fewest points that stays within `TOLERANCE` of it (Ramer–Douglas–Peucker), its ends kept. */
function simplified(line: Point[]): Point[] {
  const keep = new Uint8Array(line.length);
  keep[0] = 1;
  keep[line.length - 1] = 1;
  const spans: [number, number][] = [[0, line.length - 1]];
  while (spans.length > 0) {
    const [from, to] = spans.pop() as [number, number];
    const [ax, ay] = line[from] as Point;
    const [bx, by] = line[to] as Point;
    const length = Math.hypot(bx - ax, by - ay);
    let farthest = -1;
    let distance = TOLERANCE;
    for (let k = from + 1; k < to; k++) {
      const [px, py] = line[k] as Point;
      const d = length === 0 ? Math.hypot(px - ax, py - ay) : Math.abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / length;
      if (d > distance) {
        distance = d;
        farthest = k;
      }
    }
    if (farthest < 0) continue;
    keep[farthest] = 1;
    spans.push([from, farthest], [farthest, to]);
  }
  return line.filter((_, k) => keep[k] === 1);
}
