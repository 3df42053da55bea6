/**
 * `npm run build:package` (and `npm pack`'s prepack): makes what the installed package is — the
 * runtime as ESM JavaScript with `.d.ts` types in `lib/`, the data the runtime reads in
 * `lib/dist/` (the rest of `dist/`, such as the compiled binary and characters.jsonl, stays out),
 * and the terms of the data in `licenses/` (the project's terms, the Unicode licence, the notice of
 * libhangul's hanja dictionary, the CC BY-SA 4.0 licence and attribution of the school levels). dist/ is rebuilt first when stale.
 *
 * esbuild bundles each export (`.`, `./node`, `./stores`, `./page`) into one module, shared code and each
 * lazily imported store driver into chunks, with the few small libraries the runtime uses inside
 * (their licences go to `licenses/`): a host loads a handful of files instead of some seventy in
 * seven packages, which halves the time to import the package, and installing it fetches nothing
 * else. Only the optional store drivers stay imports: better-sqlite3 (an optional peer dependency)
 * and bun:sqlite. tsc writes
 * the declarations beside them, at the paths of the sources (`lib/runtime/core/index.d.ts`, …);
 * every JavaScript file sits two folders below `lib/`, as the sources sit below the checkout, so
 * the bundled data is `../../dist/` from either.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { build } from "esbuild";
import { dictionaryNotice } from "../pipeline/parse/hunum.ts";
import { RUNTIME_FILES } from "../runtime/format/dist.ts";
import { DIST, ROOT, ensureDist } from "./ensureDist.ts";

/** Where the compiled package goes (package.json `files`). */
export const LIB = join(ROOT, "lib");
/** The data's terms, the Unicode licence and the hanja dictionary's notice, shipped with the data. */
export const LICENSES = join(ROOT, "licenses");

/** The package's exports, as sources. */
const ENTRIES = ["runtime/core/index.ts", "runtime/entry/nodeApi.ts", "runtime/stores/index.ts", "runtime/page/index.ts"];

/** Compiles the package and copies its data and licences in. */
export async function buildPackage(): Promise<void> {
  await ensureDist({ quiet: true });
  rmSync(LIB, { recursive: true, force: true });
  rmSync(LICENSES, { recursive: true, force: true });
  execFileSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(ROOT, "tsconfig.package.json")], { stdio: "inherit" });
  const { metafile } = await build({
    metafile: true,
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: LIB,
    outbase: ".",
    chunkNames: "runtime/chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    // The core runs on any Web-standard runtime (a worker too): each library's browser build, not its
    // Node one (lru-cache's Node and generic builds import node: modules).
    platform: "neutral",
    mainFields: ["browser", "module", "main"],
    conditions: ["browser"],
    target: "es2022",
    // The JavaScript is for machines (the declarations beside it keep every comment): without its
    // indentation, its syntax shortened and its local names too, the tarball stays within its size
    // budget (see RESULTS.md, "Words as a learner meets them"; local names: 3,003,039 → 2,990,677
    // bytes). Functions and classes keep their names (`keepNames`), so stack traces still read.
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: true,
    keepNames: true,
    // Only the optional store drivers stay imports (the hosts that choose them install them); bun:sqlite exists only on Bun.
    external: ["node:*", "bun:sqlite", "better-sqlite3", "@redis/client"],
    logLevel: "warning",
  });
  mkdirSync(join(LIB, "dist"), { recursive: true });
  for (const name of RUNTIME_FILES) copyFileSync(join(DIST, name), join(LIB, "dist", name));
  mkdirSync(LICENSES);
  copyFileSync(join(ROOT, "pipeline/data/TERMS.md"), join(LICENSES, "TERMS.md"));
  copyFileSync(join(ROOT, "pipeline/data/unihan/LICENSE"), join(LICENSES, "UNICODE-LICENSE.txt"));
  // The BSD notice the dictionary asks a redistribution to reproduce: `hunum` comes from it.
  writeFileSync(join(LICENSES, "LIBHANGUL-HANJA-LICENSE.txt"), dictionaryNotice(readFileSync(join(ROOT, "pipeline/data/libhangul/hanja.txt"), "utf8")));
  // `school_level` is okpyeon's (CC BY-SA 4.0): the licence's text, and its attribution with where it came from.
  copyFileSync(join(ROOT, "pipeline/data/okpyeon/LICENSE"), join(LICENSES, "SCHOOL-LEVELS-CC-BY-SA-4.0.txt"));
  copyFileSync(join(ROOT, "pipeline/data/okpyeon/README.md"), join(LICENSES, "SCHOOL-LEVELS.md"));
  writeFileSync(join(LICENSES, "THIRD-PARTY.md"), thirdPartyNotices(Object.keys(metafile.inputs)));
  vendorTypes();
}

/**
 * The declarations name the types of bundled packages (MiniSearch in `LoadedData`), which a host
 * does not install: each such package's declaration file (one self-contained file) is copied to
 * `lib/types/<name>.d.ts` and the imports point there.
 */
function vendorTypes(): void {
  const declarations = readdirSync(LIB, { recursive: true, encoding: "utf8" }).filter((path) => path.endsWith(".d.ts"));
  for (const path of declarations) {
    const file = join(LIB, path);
    const text = readFileSync(file, "utf8");
    const rewritten = text.replace(/(from |import\()"((?:@[\w.-]+\/)?[\w.-]+)"/g, (_whole, keyword: string, name: string) => {
      const vendored = join(LIB, "types", `${name}.d.ts`);
      if (!existsSync(vendored)) copyTypes(name, vendored);
      const target = relative(dirname(file), vendored).replace(/\.d\.ts$/, ".js");
      return `${keyword}"${target.startsWith(".") ? target : `./${target}`}"`;
    });
    if (rewritten !== text) writeFileSync(file, rewritten);
  }
}

function copyTypes(name: string, to: string): void {
  const dir = join(ROOT, "node_modules", name);
  const { types } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { types?: string };
  const text = types ? readFileSync(join(dir, types), "utf8") : "";
  if (!types || /\bfrom "|import\("/.test(text))
    throw new Error(`the package's types import ${name}, whose declarations are not one self-contained file to ship in lib/types/`);
  mkdirSync(dirname(to), { recursive: true });
  writeFileSync(to, text);
}

/** The licence of every npm package bundled into lib/, in full, by package. */
function thirdPartyNotices(inputs: readonly string[]): string {
  const names = [...new Set(inputs.map((path) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1]).filter((name) => name !== undefined))].sort();
  const sections = names.map((name) => {
    const dir = join(ROOT, "node_modules", name);
    const file = readdirSync(dir).find((entry) => /^licen[sc]e/i.test(entry));
    if (!file) throw new Error(`${name} is bundled into the package but ships no LICENSE file to copy into licenses/`);
    const { version, license } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string; license: string };
    return `## ${name} ${version} (${license})\n\n${readFileSync(join(dir, file), "utf8").trim()}\n`;
  });
  return `# Third-party code in lib/\n\nThe package's JavaScript includes these npm packages, bundled by esbuild.\n\n${sections.join("\n")}`;
}

await buildPackage();
console.error(`package built: ${LIB} (code, types, data), ${LICENSES}`);
