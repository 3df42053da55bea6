/**
 * What the build checks before any work: the output folder it would replace (a file, or a folder
 * holding files that are not the build's, is refused and left as it was), the data folder, and the
 * command line (an unknown option or an out-of-range SOURCE_DATE_EPOCH fails with a message, not a stack).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { DIST_FILES } from "../../runtime/format/dist.ts";
import { buildDist } from "../../pipeline/buildDist.ts";
import { InputError } from "../../pipeline/load/types.ts";
import { checkOutDir } from "../../pipeline/write/writeDist.ts";
import { ROOT, SMALL_ZIP, errorOf, tempDir } from "./helpers.ts";

describe("the output folder", () => {
  it("absent, or holding only an earlier build's files and sub-folders: accepted", async () => {
    const dir = await tempDir();
    expect(() => checkOutDir(join(dir, "new"))).not.toThrow();
    for (const name of Object.values(DIST_FILES)) await writeFile(join(dir, name), "{}");
    await mkdir(join(dir, "runtime"));
    await writeFile(join(dir, "runtime", "hanja-api.mjs"), "");
    expect(() => checkOutDir(dir)).not.toThrow();
  });

  it("a file: refused before the build starts", async () => {
    const dir = await tempDir();
    const file = join(dir, "dist");
    await writeFile(file, "not a folder\n");
    const error = await errorOf(() => buildDist({ unihan: SMALL_ZIP, dataDir: join(ROOT, "pipeline/data"), outDir: file, log: () => {} }));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(`cannot write the output folder ${file} (--out): it is a file`);
    expect(await readFile(file, "utf8")).toBe("not a folder\n");
    expect((await readdir(dir)).sort()).toEqual(["dist"]); // no staging folder left behind
  });

  it("a folder with files the build did not write (--out . in a project): refused, and nothing in it is deleted", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "notes.txt"), "keep me\n");
    await writeFile(join(dir, DIST_FILES.meta), "{}");
    const error = await errorOf(() => buildDist({ unihan: SMALL_ZIP, dataDir: join(ROOT, "pipeline/data"), outDir: dir, log: () => {} }));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(
      `the output folder ${dir} (--out) holds files the build did not write, which replacing it would delete: notes.txt; give a new or empty folder, or an earlier build's`,
    );
    expect(await readFile(join(dir, "notes.txt"), "utf8")).toBe("keep me\n");
    expect((await readdir(dir)).sort()).toEqual([DIST_FILES.meta, "notes.txt"].sort());
  });
});

describe("the data folder", () => {
  it("missing: refused naming it and what it should hold", async () => {
    const dir = await tempDir();
    const missing = join(dir, "no-such-data");
    const error = await errorOf(() => buildDist({ unihan: SMALL_ZIP, dataDir: missing, outDir: join(dir, "dist"), log: () => {} }));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(`the data folder ${missing} (--data) does not exist; it holds idioms.csv, starter.csv and TERMS.md`);
    expect(existsSync(join(dir, "dist"))).toBe(false);
  });
});

describe("npm run build's command line", () => {
  const cli = (args: string[], env: Record<string, string> = {}) =>
    promisify(execFile)(process.execPath, ["--import", "tsx", join(ROOT, "pipeline/cli.ts"), ...args], { cwd: ROOT, env: { ...process.env, ...env } }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  it.each([
    ["an unknown option", ["--bogus"], "build: Unknown option '--bogus'"],
    ["--out without its value", ["--out"], "build: Option '--out <value>' argument missing"],
    ["a stray argument", ["dist"], "build: Unexpected argument 'dist'"],
  ])("%s: exit status 2, the reason and the usage, no stack", async (_, args, reason) => {
    const result = await cli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(reason);
    expect(result.stderr).toContain("Usage: npm run build -- [options]");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("SOURCE_DATE_EPOCH past what a date can hold: fails at once naming it", async () => {
    const result = await cli(["--out", join(await tempDir(), "dist")], { SOURCE_DATE_EPOCH: "99999999999999" });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('build failed: SOURCE_DATE_EPOCH must be whole seconds since 1970 (at most 8640000000000), got "99999999999999"');
  });
});
