/** Reads `dist/` from disk for `createApp` (node:fs, which Node, Bun and Deno all provide). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RUNTIME_FILES } from "../core/data/format.ts";
import type { DistFiles } from "../core/data/load.ts";

/** The text of every dist file, keyed by file name; a missing file fails with the path and the fix. */
export function loadDistFiles(dir: string): DistFiles {
  const files: Record<string, string> = {};
  for (const name of RUNTIME_FILES) {
    try {
      files[name] = readFileSync(join(dir, name), "utf8");
    } catch (error) {
      throw new Error(`dist: cannot read ${join(dir, name)} (${(error as NodeJS.ErrnoException).code ?? error}); run \`npm run build\` first`);
    }
  }
  return files;
}
