/** Reads `dist/` from disk for `createApp` (node:fs, which Node, Bun and Deno all provide). */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RUNTIME_FILES } from "../format/dist.ts";
import type { DistFiles } from "../core/data/load.ts";

/**
 * The dist files, keyed by file name, each read from disk on first access (the search indexes are
 * not needed until the first full-text search). A missing file fails at once, with the path and
 * the fix.
 */
export function loadDistFiles(dir: string): DistFiles {
  const files: Record<string, string> = {};
  for (const name of RUNTIME_FILES) {
    const path = join(dir, name);
    if (!existsSync(path)) throw new Error(`dist: cannot read ${path} (ENOENT); run \`npm run build\` first`);
    let text: string | undefined;
    Object.defineProperty(files, name, {
      enumerable: true,
      get: () => (text ??= readFileSync(path, "utf8")),
    });
  }
  return files;
}
