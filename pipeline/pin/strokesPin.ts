/**
 * The pinned stroke order data (Arphic Public License, kept apart from the project's code and
 * content): each stroke's outline and median, in writing order, from two sources.
 *
 * - animCJK's `graphicsKo.txt` (github.com/parsimonhi/animCJK): the Korean forms and orders,
 *   kept whole as published in `pipeline/data/strokes/` (pinned by commit and SHA-256); first.
 * - `hanzi-writer-data` on npm (Make Me a Hanzi's Chinese forms), an exact devDependency: the
 *   files of the characters animCJK lacks are read from node_modules, and the build refuses an
 *   installed version, or character files, whose hash is not the pin's.
 *
 * `pin.json` records both; `npm run pin:strokes` writes it. Both sources share Make Me a Hanzi's
 * frame: a 1024-unit square, y upwards, the glyph between y = −124 and 900 (hanzi-writer draws either as is).
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { InputError } from "../load/types.ts";
import { sha256 } from "../write/writeDist.ts";
import type { StrokeForm } from "../../runtime/format/strokeSources.ts";

/** Where a character's strokes come from (the `source` of `GET /hanja/{character}/strokes`). */
export interface StrokeSource {
  name: "animCJK" | "hanzi-writer-data" | "KanjiVG";
  form: StrokeForm;
  url: string;
  /** SPDX identifier of the licence. */
  license: string;
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

/** The folder holding animCJK's file, the licence texts, the README and `pin.json`. */
export const STROKES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../data/strokes");
export const STROKES_PIN_FILE = "pin.json";
export const HANZI_WRITER_DATA = "hanzi-writer-data";

/** `pin.json`. */
export interface StrokesPin {
  animcjk: { repository: string; commit: string; path: string; file: string; sha256: string; characters: number; license: string };
  hanzi_writer_data: {
    package: string;
    version: string;
    /** SHA-256 of the npm tarball, and npm's integrity of it (the lock file checks the latter on install). */
    tarball_sha256: string;
    integrity: string;
    license: string;
    /** The installed package's character files (`<character>.json`): how many, and the SHA-256 of `name<TAB>SHA-256 of the file<LF>` over them in name order. */
    files: { count: number; sha256: string };
  };
}

/** One character's strokes, in writing order: each stroke's outline (an SVG path; null for KanjiVG's centre lines) and median (points). */
export interface CharacterStrokes {
  source: StrokeSource;
  strokes: string[] | null;
  medians: [number, number][][];
}

/** Reads and checks `pin.json`. */
export function readStrokesPin(dir = STROKES_DIR): StrokesPin {
  const path = join(dir, STROKES_PIN_FILE);
  if (!existsSync(path)) throw new InputError(`${path}: missing; it pins the stroke order data the build uses (npm run pin:strokes writes it)`);
  const pin = JSON.parse(readFileSync(path, "utf8")) as Partial<StrokesPin>;
  if (!/^[0-9a-f]{64}$/.test(pin.animcjk?.sha256 ?? "") || typeof pin.animcjk?.file !== "string") {
    throw new InputError(`${path}: "animcjk" needs "file" and a hex "sha256"`);
  }
  if (typeof pin.hanzi_writer_data?.version !== "string" || !/^[0-9a-f]{64}$/.test(pin.hanzi_writer_data.files?.sha256 ?? "")) {
    throw new InputError(`${path}: "hanzi_writer_data" needs "version" and "files" with a hex "sha256"`);
  }
  return pin as StrokesPin;
}

/** The strokes of one source line or file, checked: as many medians as outlines, each outline a path, each median points. */
export function parseStrokes(text: string, where: string): { strokes: string[]; medians: [number, number][][] } {
  const { strokes, medians } = JSON.parse(text) as { strokes?: unknown; medians?: unknown };
  const paths = Array.isArray(strokes) && strokes.length > 0 && strokes.every((s) => typeof s === "string" && /^M/.test(s.trim()));
  const points =
    Array.isArray(medians) &&
    Array.isArray(strokes) &&
    medians.length === strokes.length &&
    medians.every((m) => Array.isArray(m) && m.length > 0 && m.every((p) => Array.isArray(p) && p.length === 2 && p.every(Number.isFinite)));
  if (!paths || !points) throw new InputError(`${where}: needs "strokes" (SVG paths) and as many "medians" (lists of [x, y])`);
  return { strokes: strokes as string[], medians: medians as [number, number][][] };
}

/** animCJK's `graphicsKo.txt`: one JSON object per line, `character`, `strokes`, `medians`. */
export function parseAnimCjk(text: string, file: string): Map<string, CharacterStrokes> {
  const byCharacter = new Map<string, CharacterStrokes>();
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    const { character } = JSON.parse(line) as { character?: unknown };
    if (typeof character !== "string" || [...character].length !== 1) throw new InputError(`${file}:${i + 1}: "character" is not one character`);
    byCharacter.set(character, { source: ANIMCJK, ...parseStrokes(line, `${file}:${i + 1}`) });
  });
  return byCharacter;
}

/** The folder of the installed hanzi-writer-data, and its version. */
export function hanziWriterData(): { dir: string; version: string } {
  const require = createRequire(import.meta.url);
  let manifest: string;
  try {
    manifest = require.resolve(`${HANZI_WRITER_DATA}/package.json`);
  } catch {
    throw new InputError(`${HANZI_WRITER_DATA} is not installed: it is a devDependency of the build (npm ci installs it)`);
  }
  const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string };
  return { dir: dirname(manifest), version };
}

/** The character files of the installed hanzi-writer-data (`<character>.json`), in name order, and their hash (`StrokesPin`). */
export function packageFiles(dir: string): { names: string[]; count: number; sha256: string } {
  const names = readdirSync(dir)
    .filter((name) => name.endsWith(".json") && name !== "package.json")
    .sort();
  return { names, count: names.length, sha256: sha256(names.map((name) => `${name}\t${sha256(readFileSync(join(dir, name)))}\n`).join("")) };
}

/**
 * The strokes of the given characters (code point order), verified against the pin: animCJK's
 * Korean form where it has the character, else hanzi-writer-data's Chinese one. Returns them by
 * character, the hashes for the manifest and a line for the build's summary.
 */
export function readStrokes(characters: readonly string[], dir = STROKES_DIR, hanzi = hanziWriterData()) {
  const pin = readStrokesPin(dir);
  const path = join(dir, pin.animcjk.file);
  if (!existsSync(path)) throw new InputError(`${path}: missing; ${STROKES_PIN_FILE} pins it`);
  const bytes = readFileSync(path);
  const hash = sha256(bytes);
  if (hash !== pin.animcjk.sha256) throw new InputError(`${path}: SHA-256 ${hash} is not the pinned ${pin.animcjk.sha256}; run npm run pin:strokes`);
  const korean = parseAnimCjk(new TextDecoder("utf-8", { fatal: true }).decode(bytes), pin.animcjk.file);
  if (korean.size !== pin.animcjk.characters) throw new InputError(`${path}: ${korean.size} characters, the pin says ${pin.animcjk.characters}`);
  if (hanzi.version !== pin.hanzi_writer_data.version) {
    throw new InputError(`${HANZI_WRITER_DATA} ${hanzi.version} is installed, the pin says ${pin.hanzi_writer_data.version}: run npm ci`);
  }
  const installed = packageFiles(hanzi.dir);
  if (installed.count !== pin.hanzi_writer_data.files.count || installed.sha256 !== pin.hanzi_writer_data.files.sha256) {
    throw new InputError(
      `${HANZI_WRITER_DATA} in ${hanzi.dir}: its ${installed.count} character files hash to ${installed.sha256}, the pin says ${pin.hanzi_writer_data.files.count} files, ${pin.hanzi_writer_data.files.sha256}; run npm ci`,
    );
  }
  const strokes = new Map<string, CharacterStrokes>();
  let used = 0;
  for (const character of characters) {
    const ko = korean.get(character);
    if (ko !== undefined) {
      strokes.set(character, ko);
      continue;
    }
    const file = join(hanzi.dir, `${character}.json`);
    if (!existsSync(file)) continue;
    used++;
    strokes.set(character, { source: MAKE_ME_A_HANZI, ...parseStrokes(readFileSync(file, "utf8"), file) });
  }
  const summary = `${pin.animcjk.file}: ${korean.size} Korean forms (animCJK ${pin.animcjk.commit.slice(0, 7)}); ${HANZI_WRITER_DATA} ${hanzi.version}: ${used} characters`;
  return { strokes, hashes: { animcjk: hash, hanziWriterData: installed.sha256 }, summary };
}

/** How many characters have strokes of each form, and none: of all, and of the education hanja. */
export interface StrokeCoverage {
  all: Record<StrokeForm | "none", number>;
  education_hanja: Record<StrokeForm | "none", number>;
}

export function strokeCoverage(
  records: readonly { character: string; education_hanja: boolean }[],
  strokes: ReadonlyMap<string, CharacterStrokes>,
): StrokeCoverage {
  const zero = () => ({ ko: 0, ja: 0, zh: 0, none: 0 });
  const coverage = { all: zero(), education_hanja: zero() };
  for (const record of records) {
    const form = strokes.get(record.character)?.source.form ?? "none";
    coverage.all[form]++;
    if (record.education_hanja) coverage.education_hanja[form]++;
  }
  return coverage;
}

/** The `dist/strokes.jsonl` line of a character: the body `GET /hanja/{character}/strokes` serves as it is. */
export function strokesLine(character: string, { source, strokes, medians }: CharacterStrokes): string {
  const { name, url, license, attribution } = source;
  return JSON.stringify({
    character,
    form: source.form,
    strokes: medians.map((median, i) => ({ outline: strokes?.[i] ?? null, median })),
    source: { name, url, license, attribution },
  });
}
