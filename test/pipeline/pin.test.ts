/**
 * The pinned release lives in the repository: pipeline/data/unihan/ holds the zip, its licence and
 * provenance, and pin.json, which is exactly what the zip gives (computed, never typed). Nothing
 * outside the release script reaches for a copy beside the checkout or for the Unicode site.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { computePin, pinText } from "../../pipeline/pin/computePin.ts";
import { PIN_DIR, PIN_FILE, pinnedZip } from "../../pipeline/pin/pin.ts";
import { PIN } from "../helpers/pin.ts";
import { ROOT } from "./helpers.ts";

describe("pipeline/data/unihan", () => {
  test("holds the pinned zip, the Unicode licence and the provenance beside pin.json", () => {
    for (const file of [PIN.file, "LICENSE", "README.md", PIN_FILE]) expect(existsSync(join(PIN_DIR, file)), file).toBe(true);
    expect(readFileSync(join(PIN_DIR, "LICENSE"), "utf8")).toContain("UNICODE LICENSE V3");
  });

  test("pin.json is what its zip gives: version from the headers, SHA-256, counts and spot records", async () => {
    const computed = await computePin(readFileSync(pinnedZip(PIN)), PIN.file, PIN.origin);
    expect(computed).toEqual(PIN);
    // Byte for byte as `npm run pin` writes it, so a moved pin diffs cleanly.
    expect(readFileSync(join(PIN_DIR, PIN_FILE), "utf8")).toBe(pinText(computed));
  });
});

describe("no code reaches outside the repository for Unihan", () => {
  // Built from pieces so that this file does not match itself.
  const SHARED = new RegExp(["\\.\\.", "shared"].join("/"));
  const UNICODE_SITE = new RegExp(`unicode${"\\."}org(?!/license\\.txt)`);
  const ALLOWED = new Set(["scripts/unihan-release.ts"]);

  test("only the release script names the Unicode site (beyond the licence URL), and nothing names a folder beside the checkout", () => {
    const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" })
      .split("\n")
      .filter((f) => /\.(ts|mts|mjs|js|json|ya?ml|sh)$/.test(f) || f === ".ci/run")
      .filter((f) => !f.endsWith("package-lock.json") && existsSync(join(ROOT, f)));
    expect(files.length).toBeGreaterThan(100);
    const offending = files.filter((f) => {
      const text = readFileSync(join(ROOT, f), "utf8");
      return SHARED.test(text) || (!ALLOWED.has(f) && UNICODE_SITE.test(text));
    });
    expect(offending).toEqual([]);
  });
});
