import { readKanjiVgPin } from "../pipeline/pin/kanjivgPin.ts";
import { readStrokesPin } from "../pipeline/pin/strokesPin.ts";
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildDist } from "../pipeline/buildDist.ts";
import { readDictionaryPin } from "../pipeline/pin/dictionaryPin.ts";
import { PIN_DIR, readPin } from "../pipeline/pin/pin.ts";
import { HUNUM_FILES } from "../pipeline/parse/hunum.ts";
import { WORD_FILES } from "../pipeline/parse/learnerWords.ts";
import { SCHOOL_LEVEL_FILES } from "../pipeline/parse/schoolLevels.ts";
import { SCHOOL_LEVELS_DIR, readSchoolLevelsPin } from "../pipeline/pin/schoolLevelsPin.ts";
import { WORD_GLOSSES_PIN_FILE } from "../pipeline/pin/wordGlossesPin.ts";
import { LIST_FILES } from "../pipeline/validate/idiomLists.ts";
import { pipelineCodeHash } from "../pipeline/write/codeHash.ts";
import { sha256 } from "../pipeline/write/writeDist.ts";
import { DIST_FILES, DIST_FORMAT, type Manifest } from "../runtime/format/dist.ts";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const DIST = join(ROOT, "dist");
const DATA = join(ROOT, "pipeline/data");

/**
 * Why dist/ must be built again, or `[]` when it was built from the current inputs. Judged by
 * content, never by file times (a clone resets them): the manifest's format and input hashes —
 * the Unihan zip (the pinned one, or `UNIHAN_ZIP`), idioms.csv and the lists beside it, the 훈음 overlay, starter.csv,
 * TERMS.md, the hanja dictionary (by its pin's hash: the build refuses a file that is not the pinned
 * one) and the pipeline's code — against the current ones.
 */
export function staleReasons(dist = DIST, env: NodeJS.ProcessEnv = process.env): string[] {
  const path = join(dist, DIST_FILES.manifest);
  if (!existsSync(path)) return [`${path} does not exist`];
  let manifest: Partial<Manifest>;
  try {
    manifest = JSON.parse(readFileSync(path, "utf8")) as Partial<Manifest>;
  } catch {
    return [`${path} cannot be read`];
  }
  if (manifest.format !== DIST_FORMAT) return [`it has format ${String(manifest.format)}, this code reads format ${DIST_FORMAT}`];
  const reasons: string[] = [];
  const unihan = currentUnihan(env);
  const built = manifest.unihan;
  if (built?.sha256 !== unihan.sha256 || (unihan.sha256 === null && built?.origin !== unihan.origin)) {
    reasons.push(`it was built from Unihan ${built?.version ?? "?"} (${built?.origin ?? "?"}), not from ${unihan.label}`);
  }
  const inputs = manifest.inputs ?? {};
  for (const name of ["idioms.csv", "starter.csv", "TERMS.md"]) {
    if (inputs[name] !== sha256(readFileSync(join(DATA, name)))) reasons.push(`pipeline/data/${name} changed`);
  }
  // The lists beside idioms.csv, the 훈음 overlay and the word lists are optional: a list added, changed or removed.
  for (const name of [...Object.values(LIST_FILES), ...Object.values(HUNUM_FILES), ...Object.values(WORD_FILES), ...Object.values(SCHOOL_LEVEL_FILES)]) {
    const path = join(DATA, name);
    if (inputs[name] !== (existsSync(path) ? sha256(readFileSync(path)) : undefined)) reasons.push(`pipeline/data/${name} changed`);
  }
  if (inputs["libhangul/hanja.txt"] !== readDictionaryPin().sha256) reasons.push("the pinned hanja dictionary changed");
  if (inputs["okpyeon/school-levels.csv"] !== readSchoolLevelsPin().sha256) reasons.push("the pinned school levels changed");
  const glossPin = JSON.parse(readFileSync(join(SCHOOL_LEVELS_DIR, WORD_GLOSSES_PIN_FILE), "utf8")) as { sha256: string };
  if (inputs["okpyeon/words-en.tsv"] !== glossPin.sha256) reasons.push("the pinned English glosses of the words changed");
  const strokesPin = readStrokesPin();
  if (
    inputs["strokes/animcjk-graphicsKo.txt"] !== strokesPin.animcjk.sha256 ||
    inputs["strokes/hanzi-writer-data"] !== strokesPin.hanzi_writer_data.files.sha256
  ) {
    reasons.push("the pinned stroke data changed");
  }
  if (inputs["kanjivg/kanjivg-strokes.jsonl"] !== readKanjiVgPin().sha256) reasons.push("the pinned KanjiVG strokes changed");
  if (inputs.pipeline !== pipelineCodeHash()) reasons.push("the pipeline's code changed");
  return reasons;
}

/** The Unihan input a build would read now, and what identifies it in a manifest. */
function currentUnihan(env: NodeJS.ProcessEnv): { sha256: string | null; origin: string; label: string } {
  const asked = env.UNIHAN_ZIP;
  if (!asked) {
    const pin = readPin(PIN_DIR);
    return { sha256: pin.sha256, origin: pin.file, label: `the pinned Unihan ${pin.version} (${pin.file})` };
  }
  if (/^https?:\/\//i.test(asked)) return { sha256: null, origin: asked, label: `UNIHAN_ZIP=${asked}` };
  if (existsSync(asked) && statSync(asked).isFile()) return { sha256: sha256(readFileSync(asked)), origin: basename(asked), label: `UNIHAN_ZIP=${asked}` };
  return { sha256: null, origin: basename(asked), label: `UNIHAN_ZIP=${asked}` };
}

export interface EnsureDistOptions {
  /** Print only that a build starts, not its progress. */
  quiet?: boolean;
  /** The dist/ to check and build; default the project's. */
  dist?: string;
  /** Where UNIHAN_ZIP and SOURCE_DATE_EPOCH are read; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Builds dist/ when it was not built from the current inputs (see `staleReasons`), saying why,
 * with the same input resolution as `npm run build`. Returns the reasons (`[]`: nothing built).
 */
export async function ensureDist(options: EnsureDistOptions = {}): Promise<string[]> {
  const dist = options.dist ?? DIST;
  const env = options.env ?? process.env;
  const reasons = staleReasons(dist, env);
  if (reasons.length === 0) return reasons;
  console.log(`building dist/: ${reasons.join("; ")}`);
  await buildDist({
    unihan: env.UNIHAN_ZIP || undefined,
    dataDir: DATA,
    outDir: dist,
    sourceDateEpoch: env.SOURCE_DATE_EPOCH ? Number(env.SOURCE_DATE_EPOCH) : undefined,
    log: options.quiet ? () => {} : (line: string) => console.log(line),
  });
  return reasons;
}

/**
 * What `npm start` (and `start:bun`, `start:deno`) do before serving: with `DIST_DIR` set, that
 * folder is served as it is — the server names a missing file or another format at start — and the
 * project's dist/ is neither checked nor built; without it, dist/ is built when stale.
 */
export async function ensureServedDist(options: EnsureDistOptions = {}): Promise<void> {
  if ((options.env ?? process.env).DIST_DIR) return;
  await ensureDist(options);
}

// `tsx scripts/ensureDist.ts`: what start:bun and start:deno run before serving.
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) await ensureServedDist();
