import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type ZipRead, computePin, pinText } from "./computePin.ts";
import { PIN_DIR, PIN_FILE, type UnihanPin, readPin } from "./pin.ts";

/**
 * Makes `bytes` (a Unihan zip) the pinned release in `dir`: writes it as `Unihan-<version>.zip`,
 * removes the zip it replaces, and writes `pin.json` computed from it (from `read` when the caller
 * has already read the zip). Returns the old and new pins.
 */
export async function movePin(bytes: Uint8Array, origin: string, dir = PIN_DIR, read?: ZipRead): Promise<{ before: UnihanPin | null; after: UnihanPin }> {
  const before = existsSync(join(dir, PIN_FILE)) ? readPin(dir) : null;
  const probe = await computePin(bytes, "Unihan.zip", origin, read);
  const file = `Unihan-${probe.version}.zip`;
  const after = { ...probe, file };
  await writeFile(join(dir, file), bytes);
  if (before && before.file !== file) await rm(join(dir, before.file), { force: true });
  await writeFile(join(dir, PIN_FILE), pinText(after));
  return { before, after };
}

/** Recomputes `pin.json` from the zip the pin names (after a change to the field derivations, say). */
export async function repin(dir = PIN_DIR): Promise<UnihanPin> {
  const pin = readPin(dir);
  const after = await computePin(await readFile(join(dir, pin.file)), pin.file, pin.origin);
  await writeFile(join(dir, PIN_FILE), pinText(after));
  return after;
}
