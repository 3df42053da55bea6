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

export interface EnsureDistOptions {
  /** Print only that a build starts, not its progress. */
  quiet?: boolean;
  /** The dist/ to check and build; default the project's. */
  dist?: string;
  /** Where UNIHAN_ZIP and SOURCE_DATE_EPOCH are read; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** Builds dist/ when it is stale (see `distIsStale`), with the same input resolution as `npm run build`. */
export async function ensureDist(options: EnsureDistOptions = {}): Promise<void> {
  const dist = options.dist ?? DIST;
  const env = options.env ?? process.env;
  if (!distIsStale(dist)) return;
  const log = options.quiet ? () => {} : (line: string) => console.log(line);
  if (options.quiet) console.log("dist/ is missing or stale: building it …");
  await buildDist({
    unihan: env.UNIHAN_ZIP || undefined,
    dataDir: join(ROOT, "pipeline/data"),
    outDir: dist,
    cacheDir: join(ROOT, ".cache"),
    localCopies: localCopiesBeside(ROOT),
    sourceDateEpoch: env.SOURCE_DATE_EPOCH ? Number(env.SOURCE_DATE_EPOCH) : undefined,
    log,
  });
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
