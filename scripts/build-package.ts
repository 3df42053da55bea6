/**
 * `npm run build:package` (and `npm pack`'s prepack): makes what the installed package is — the
 * runtime compiled to ESM JavaScript with `.d.ts` types in `lib/`, the data the runtime reads in
 * `lib/dist/` (the rest of `dist/`, such as the compiled binary and characters.jsonl, stays out),
 * and the terms of the data in `licenses/`. dist/ is rebuilt first when stale.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { RUNTIME_FILES } from "../runtime/core/data/format.ts";
import { DIST, ROOT, ensureDist } from "./ensureDist.ts";

/** Where the compiled package goes (package.json `files`). */
export const LIB = join(ROOT, "lib");
/** The data's terms and the Unicode licence, shipped with the data. */
export const LICENSES = join(ROOT, "licenses");

/** Compiles the package and copies its data and licences in. */
export async function buildPackage(): Promise<void> {
  await ensureDist({ quiet: true });
  rmSync(LIB, { recursive: true, force: true });
  rmSync(LICENSES, { recursive: true, force: true });
  execFileSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(ROOT, "tsconfig.package.json")], { stdio: "inherit" });
  mkdirSync(join(LIB, "dist"), { recursive: true });
  for (const name of RUNTIME_FILES) copyFileSync(join(DIST, name), join(LIB, "dist", name));
  mkdirSync(LICENSES);
  copyFileSync(join(ROOT, "pipeline/data/TERMS.md"), join(LICENSES, "TERMS.md"));
  copyFileSync(join(ROOT, "pipeline/data/unihan/LICENSE"), join(LICENSES, "UNICODE-LICENSE.txt"));
}

await buildPackage();
console.error(`package built: ${LIB} (code, types, data), ${LICENSES}`);
