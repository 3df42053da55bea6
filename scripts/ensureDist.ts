import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildDist } from "../pipeline/build.ts";
import { localCopiesBeside } from "../pipeline/load/resolveUnihan.ts";
import { DIST_FILES, DIST_FORMAT } from "../runtime/core/data/format.ts";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const DIST = join(ROOT, "dist");
/** The real Unihan 17.0.0 release kept beside the project (tests and CI). */
export const SHARED_UNIHAN = join(ROOT, "../shared/unihan/Unihan-17.0.0.zip");

/**
 * True when dist/ is missing, of another format, or older than any input it was built from
 * (the project's data files and the pipeline's own code).
 */
export function distIsStale(dist = DIST): boolean {
  const manifest = join(dist, DIST_FILES.manifest);
  if (!existsSync(manifest)) return true;
  try {
    if ((JSON.parse(readFileSync(manifest, "utf8")) as { format?: number }).format !== DIST_FORMAT) return true;
  } catch {
    return true;
  }
  const built = statSync(manifest).mtimeMs;
  return newest(join(ROOT, "pipeline")) > built || newest(join(ROOT, "runtime/core/data")) > built;
}

function newest(dir: string): number {
  let time = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    time = Math.max(time, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return time;
}

/** Builds dist/ when it is stale (see `distIsStale`), with the same input resolution as `npm run build`. */
export async function ensureDist(options: { quiet?: boolean } = {}): Promise<void> {
  if (!distIsStale()) return;
  const log = options.quiet ? () => {} : (line: string) => console.log(line);
  if (options.quiet) console.log("dist/ is missing or stale: building it …");
  await buildDist({
    unihan: process.env.UNIHAN_ZIP || undefined,
    dataDir: join(ROOT, "pipeline/data"),
    outDir: DIST,
    cacheDir: join(ROOT, ".cache"),
    localCopies: localCopiesBeside(ROOT),
    sourceDateEpoch: process.env.SOURCE_DATE_EPOCH ? Number(process.env.SOURCE_DATE_EPOCH) : undefined,
    log,
  });
}

// `tsx scripts/ensureDist.ts`: build when stale (used by start:bun and start:deno).
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) await ensureDist();
