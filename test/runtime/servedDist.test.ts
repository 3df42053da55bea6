/**
 * What the start scripts do before serving (`ensureServedDist`): with DIST_DIR set they serve that
 * folder as it is and never check or build the project's dist/ (an operator trying a new release
 * with `DIST_DIR=.cache/dist-$VERSION npm start` must not wait for, or fail on, a build of the
 * pinned release); without it, a missing dist/ is built.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { ensureServedDist } from "../../scripts/ensureDist.ts";

const work = mkdtempSync(join(tmpdir(), "hanja-served-dist-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("ensureServedDist", () => {
  // A dist/ that is missing, and a Unihan zip that does not exist: any build attempt fails naming it.
  const missingZip = join(work, "no-such-Unihan.zip");

  test("with DIST_DIR set, a missing project dist/ is neither built nor checked", async () => {
    const dist = join(work, "dist-a");
    await expect(ensureServedDist({ dist, env: { DIST_DIR: join(work, "elsewhere"), UNIHAN_ZIP: missingZip }, quiet: true })).resolves.toBeUndefined();
    expect(existsSync(dist)).toBe(false);
  });

  test("without DIST_DIR, a missing dist/ is built (here: fails naming the zip it was told to read)", async () => {
    const dist = join(work, "dist-b");
    await expect(ensureServedDist({ dist, env: { UNIHAN_ZIP: missingZip }, quiet: true })).rejects.toThrow(missingZip);
  });

  test("an empty DIST_DIR counts as unset", async () => {
    const dist = join(work, "dist-c");
    await expect(ensureServedDist({ dist, env: { DIST_DIR: "", UNIHAN_ZIP: missingZip }, quiet: true })).rejects.toThrow(missingZip);
  });
});
