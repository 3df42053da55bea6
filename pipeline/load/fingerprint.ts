import type { UnihanVersion } from "./types.ts";

/** Properties whose presence dates a header-less Unihan (docs/rules.md "Unihan fields"). */
export const FINGERPRINT_PROPERTIES: ReadonlySet<string> = new Set(["kTayNumeric", "kGB7", "kJa"]);

/**
 * Dates header-less Unihan data by the properties it holds: `kTayNumeric` first appears in 17.0;
 * `kGB7` and `kJa` were removed in 17.0. Anything else is not recognised.
 */
export function versionFromFingerprint(seen: ReadonlySet<string>, file: string): UnihanVersion {
  if (seen.has("kTayNumeric")) return { version: "17.0.0", method: "fingerprint" };
  if (seen.has("kGB7") || seen.has("kJa")) return { version: "16.0.0", method: "fingerprint" };
  throw new Error(`unihan: cannot tell the Unihan version of ${file}: none of kTayNumeric, kGB7, kJa present`);
}
