import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The code a build's output depends on: the pipeline (without its data folder, whose inputs are
 * hashed one by one) and the one runtime module it imports, `runtime/format/` (the dist/ format,
 * the records, the Hangul rules). The runtime's reader of dist/ is not in it: changing how the
 * runtime loads the files does not make a built dist/ stale.
 */
const CODE_FOLDERS = ["pipeline", "runtime/format"];
const DATA_FOLDER = "pipeline/data";

/**
 * SHA-256 over the pipeline's code (file names and contents, in name order), recorded in the
 * manifest so that a dist/ built by other code is known to be stale whatever the files' times.
 */
export function pipelineCodeHash(root = ROOT): string {
  const hash = createHash("sha256");
  const skipped = join(root, DATA_FOLDER);
  for (const file of CODE_FOLDERS.flatMap((folder) => filesUnder(join(root, folder), skipped)).sort()) {
    hash.update(relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex");
}

function filesUnder(dir: string, skipped: string): string[] {
  if (dir === skipped) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path, skipped) : [path];
  });
}
