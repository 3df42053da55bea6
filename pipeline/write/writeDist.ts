import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DIST_FILES, DIST_FORMAT, type Manifest } from "../../runtime/core/data/format.ts";

export type DistContent = Record<Exclude<keyof typeof DIST_FILES, "manifest">, string>;

/** SHA-256 in hex. */
export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * Writes every file and then the manifest into a fresh directory beside `outDir` and swaps it in,
 * so a failed build never leaves a half-written `dist/` behind. Returns the manifest.
 */
export async function writeDist(outDir: string, content: DistContent, manifest: Omit<Manifest, "format" | "files" | "data_hash">): Promise<Manifest> {
  const staging = `${outDir}.tmp-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  const files: Manifest["files"] = {};
  const names = (Object.keys(content) as (keyof DistContent)[]).sort();
  // The writes run on the thread pool while the next file is encoded and hashed.
  const writes: Promise<void>[] = [];
  for (const key of names) {
    const name = DIST_FILES[key];
    const bytes = Buffer.from(content[key], "utf8");
    writes.push(writeFile(join(staging, name), bytes));
    files[name] = { bytes: bytes.length, sha256: sha256(bytes) };
  }
  await Promise.all(writes);
  const dataHash = sha256(Object.entries(files).map(([name, f]) => `${name}:${f.sha256}`).join("\n"));
  const full: Manifest = { format: DIST_FORMAT, ...manifest, data_hash: dataHash, files };
  await writeFile(join(staging, DIST_FILES.manifest), `${JSON.stringify(full, null, 2)}\n`);
  // Keep what other steps put in sub-folders of dist/ (the bundle, the compiled binary).
  if (existsSync(outDir)) {
    for (const entry of await readdir(outDir, { withFileTypes: true })) {
      if (entry.isDirectory()) await rename(join(outDir, entry.name), join(staging, entry.name));
    }
  }
  await rm(outDir, { recursive: true, force: true });
  await rename(staging, outDir);
  return full;
}
