/**
 * `npm run bundle`: esbuild bundles the server into one ESM file, dist/runtime/hanja-api.mjs, that
 * runs unchanged on Node, Bun and Deno. The SQLite drivers stay external: each runtime loads its
 * own lazily (bun:sqlite, node:sqlite, better-sqlite3).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { ROOT, ensureDist } from "./ensureDist.ts";

export const BUNDLE = join(ROOT, "dist/runtime/hanja-api.mjs");

/** Builds the bundle (of the server, or of another program over the runtime) and returns its path. */
export async function bundle(outfile = BUNDLE, entry = join(ROOT, "runtime/entry/server.ts")): Promise<string> {
  mkdirSync(join(outfile, ".."), { recursive: true });
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: ["node20", "es2022"],
    external: ["better-sqlite3", "bun:sqlite", "node:sqlite"],
    // Some bundled CommonJS code calls require(); give the ESM file one.
    banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
    legalComments: "linked",
    logLevel: "warning",
  });
  return outfile;
}

if (process.argv[1]?.endsWith("bundle.ts")) {
  // The bundle serves the dist/ beside it: bring that up to date first.
  await ensureDist();
  console.log(`bundled ${await bundle()}`);
}
