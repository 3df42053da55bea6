/** Reads `dist/` from disk for `createApp` (node:fs, which Node, Bun and Deno all provide). */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DIST_FILES, OPTIONAL_FILES, RUNTIME_FILES, STROKE_FILES } from "../format/dist.ts";
import type { DistFiles } from "../core/data/load.ts";

/** The files read as bytes, not text: the details and the strokes are served as views into them. */
const BYTE_FILES = new Set<string>([DIST_FILES.details, DIST_FILES.strokes, DIST_FILES.strokesJa]);

/**
 * The dist files, keyed by file name, each read from disk on first access (the search indexes are
 * not needed until the first full-text search). The details are read as bytes, which the core
 * never decodes as a whole; the other files as text. A missing file fails at once, with the path
 * and the fix; an optional one (`OPTIONAL_FILES`: the words' English glosses) is left out when absent,
 * as in the npm package; so is the stroke data (`STROKE_FILES`), read on the first strokes request.
 */
export function loadDistFiles(dir: string): DistFiles {
  const files: Record<string, string | Uint8Array> = {};
  for (const name of [...RUNTIME_FILES, ...OPTIONAL_FILES, ...STROKE_FILES]) {
    const path = join(dir, name);
    if ((OPTIONAL_FILES.includes(name) || STROKE_FILES.includes(name)) && !existsSync(path)) continue;
    if (!existsSync(path)) throw new Error(`dist: cannot read ${path} (ENOENT); run \`npm run build\` first`);
    let file: string | Uint8Array | undefined;
    Object.defineProperty(files, name, {
      enumerable: true,
      get: () => (file ??= BYTE_FILES.has(name) ? readFileSync(path) : readFileSync(path, "utf8")),
    });
  }
  return files;
}
