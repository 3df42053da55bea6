import { createHash } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DIST_FILES, DIST_FORMAT, type Manifest } from "../../runtime/format/dist.ts";
import { InputError } from "../load/types.ts";

/** The text of every dist/ file; a file still being made elsewhere (a search index) is a promise of it. */
export type DistContent = Record<Exclude<keyof typeof DIST_FILES, "manifest">, string | Promise<string>>;

/** SHA-256 in hex. */
export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** The failure to write the output folder, naming it and the option that chose it. */
function cannotWrite(outDir: string, reason: string): InputError {
  return new InputError(`cannot write the output folder ${outDir} (--out): ${reason}`);
}

/**
 * Checks, before a build starts, that `outDir` may receive its output: absent, or a folder whose
 * files are all the build's own (the build replaces them; sub-folders are kept). Anything else
 * there would be deleted by the swap, so the build refuses to start (`--out .` in a project, say).
 */
export function checkOutDir(outDir: string): void {
  if (!existsSync(outDir)) return;
  if (!statSync(outDir).isDirectory()) throw cannotWrite(outDir, "it is a file");
  const own = new Set<string>(Object.values(DIST_FILES));
  const foreign = readdirSync(outDir, { withFileTypes: true })
    .filter((entry) => !entry.isDirectory() && !own.has(entry.name))
    .map((entry) => entry.name)
    .sort();
  if (foreign.length > 0) {
    const shown = foreign.slice(0, 5).join(", ") + (foreign.length > 5 ? `, … (${foreign.length} files)` : "");
    throw new InputError(
      `the output folder ${outDir} (--out) holds files the build did not write, which replacing it would delete: ${shown}; give a new or empty folder, or an earlier build's`,
    );
  }
}

/**
 * Writes every file and then the manifest into a fresh directory beside `outDir` and swaps it in,
 * so a failed build never leaves a half-written `dist/` behind. Files whose text is ready are
 * written first; the manifest lists them in name order whatever order they came in. Returns the manifest.
 */
export async function writeDist(outDir: string, content: DistContent, manifest: Omit<Manifest, "format" | "files" | "data_hash">): Promise<Manifest> {
  // Awaited below; if the folder cannot be made they never are, and their failure (the build
  // stopping the index worker) must not end the process before the real cause is reported.
  for (const text of Object.values(content)) if (typeof text !== "string") text.catch(() => {});
  const staging = `${outDir}.tmp-${process.pid}`;
  try {
    await rm(staging, { recursive: true, force: true });
    await mkdir(staging, { recursive: true });
  } catch (error) {
    throw cannotWrite(outDir, (error as Error).message);
  }
  const names = (Object.keys(content) as (keyof DistContent)[]).sort();
  // The writes run on the thread pool while the next file is encoded and hashed.
  const write = async (key: keyof DistContent): Promise<[string, Manifest["files"][string]]> => {
    const name = DIST_FILES[key];
    const bytes = Buffer.from(await content[key], "utf8");
    const written = writeFile(join(staging, name), bytes);
    const file = { bytes: bytes.length, sha256: sha256(bytes) };
    await written;
    return [name, file];
  };
  // All settle before a failure (say, of a search index) removes the staging folder.
  const results = await Promise.allSettled(names.map(write));
  const failed = results.find((result) => result.status === "rejected");
  if (failed) {
    await rm(staging, { recursive: true, force: true });
    throw failed.reason;
  }
  const files: Manifest["files"] = Object.fromEntries(results.map((result) => (result as PromiseFulfilledResult<[string, Manifest["files"][string]]>).value));
  const dataHash = sha256(
    Object.entries(files)
      .map(([name, f]) => `${name}:${f.sha256}`)
      .join("\n"),
  );
  const full: Manifest = { format: DIST_FORMAT, ...manifest, data_hash: dataHash, files };
  try {
    await writeFile(join(staging, DIST_FILES.manifest), `${JSON.stringify(full, null, 2)}\n`);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw cannotWrite(outDir, (error as Error).message);
  }
  try {
    // Keep what other steps put in sub-folders of dist/ (the bundle, the compiled binary).
    if (existsSync(outDir)) {
      for (const entry of await readdir(outDir, { withFileTypes: true })) {
        if (entry.isDirectory()) await rename(join(outDir, entry.name), join(staging, entry.name));
      }
    }
    await rm(outDir, { recursive: true, force: true });
    await rename(staging, outDir);
  } catch (error) {
    // Sub-folders may already have moved: nothing is deleted, the operator finishes the swap.
    throw new InputError(
      `cannot replace ${outDir} with the new build: ${(error as Error).message}; the new build, with any sub-folders moved so far, is in ${staging}`,
    );
  }
  return full;
}
