/**
 * A new Unihan release flows through without code changes: the small 16.0.0 fixture, relabelled
 * `# Unicode Version 18.0.0`, builds (count differences as warnings, not errors) and its version
 * reaches the manifest, every record's `source`, `/meta` and the list envelopes of an app over
 * that dist. (The release job that moves the pin is tested in unihan-release.test.ts.)
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import unzipper from "unzipper";
import { beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "hanja-api";
import { loadDistFiles } from "hanja-api/node";
import { type BuildSummary, buildDist } from "../../pipeline/buildDist.ts";
import { InputError } from "../../pipeline/load/types.ts";
import { readPin } from "../../pipeline/pin/pin.ts";
import type { HanjaRecord } from "../../runtime/format/records.ts";
import { ROOT, SMALL_ZIP, errorOf, smallDataDir, tempDir, zipBytes } from "../pipeline/helpers.ts";

const EPOCH = 1_700_000_000;
const NEXT = "18.0.0";
const SOURCE = `Unicode Unihan ${NEXT}`;
const PIN = readPin();

/** The small fixture zip with every file's `# Unicode Version 16.0.0` header set to `version`. */
async function relabelledFixture(version: string): Promise<{ path: string; bytes: Buffer }> {
  const directory = await unzipper.Open.file(SMALL_ZIP);
  const files: Record<string, Buffer> = {};
  for (const file of directory.files) {
    const text = (await file.buffer()).toString("utf8");
    const relabelled = text.replace(/^# Unicode Version 16\.0\.0$/m, `# Unicode Version ${version}`);
    expect(relabelled, `${file.path} has a 16.0.0 header`).not.toBe(text);
    files[file.path] = Buffer.from(relabelled, "utf8");
  }
  expect(Object.keys(files)).toHaveLength(8);
  const bytes = await zipBytes(files);
  const path = join(await tempDir("hanja-release-"), `Unihan-${version}.zip`);
  await writeFile(path, bytes);
  return { path, bytes };
}

async function build(unihan: string, dataDir: string, outDir: string, log: (line: string) => void = () => {}): Promise<BuildSummary> {
  return buildDist({ unihan, dataDir, outDir, sourceDateEpoch: EPOCH, log });
}

async function jsonLines<T>(path: string): Promise<T[]> {
  return (await readFile(path, "utf8"))
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as T);
}

describe(`a release labelled ${NEXT} (the small fixture, relabelled)`, () => {
  let zip: { path: string; bytes: Buffer };
  let dataDir: string;
  let outDir: string;
  let baselineDir: string;
  let summary: BuildSummary;
  const log: string[] = [];
  let app: App;

  beforeAll(async () => {
    zip = await relabelledFixture(NEXT);
    dataDir = await smallDataDir();
    const root = await tempDir("hanja-release-");
    outDir = join(root, "next", "dist");
    baselineDir = join(root, "baseline", "dist");
    summary = await build(zip.path, dataDir, outDir, (line) => log.push(line));
    await build(SMALL_ZIP, dataDir, baselineDir);
    app = createApp({ dist: loadDistFiles(outDir), onError: () => {} });
    return () => app.close();
  });

  it("builds, reporting the count differences as warnings, not errors", () => {
    const warnings = summary.warnings;
    expect(warnings.slice(0, 3)).toEqual([
      `unihan ${NEXT}: characters: 297 (Unihan ${PIN.version} has ${PIN.counts.characters})`,
      `unihan ${NEXT}: education_hanja: 94 (Unihan ${PIN.version} has ${PIN.counts.education_hanja})`,
      `unihan ${NEXT}: name_hanja: 184 (Unihan ${PIN.version} has ${PIN.counts.name_hanja})`,
    ]);
    expect(log).toContain(`warning   building Unihan ${NEXT} from ${basename(zip.path)}, as asked; the project pins ${PIN.version}`);
    for (const warning of warnings) expect(log).toContain(`warning   ${warning}`);
    expect(log.find((line) => line.startsWith("load"))).toContain(`Unihan ${NEXT} (by header)`);
    expect(log.find((line) => line.startsWith("validate"))).toContain("totals differ");
    expect(log.find((line) => line.startsWith("write"))).toBeDefined();
  });

  it("fails instead when the same data claims to be the pinned version, whose totals the pin records", async () => {
    const claimed17 = await relabelledFixture(PIN.version);
    const error = await errorOf(() => build(claimed17.path, dataDir, join(outDir, "..", "..", "as17", "dist")));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toContain(
      `the ${PIN.version} input does not give the pinned totals (pin.json): characters: 297 (Unihan ${PIN.version} has ${PIN.counts.characters})`,
    );
  });

  it("records the version, read from the headers, and the input's hash in the manifest", async () => {
    const manifest = JSON.parse(await readFile(join(outDir, "manifest.json"), "utf8")) as BuildSummary["manifest"];
    expect(manifest).toEqual(summary.manifest);
    expect(manifest.unihan).toEqual({
      version: NEXT,
      detected_by: "header",
      origin: basename(zip.path),
      sha256: createHash("sha256").update(zip.bytes).digest("hex"),
    });
    expect(manifest.counts).toEqual({
      characters: 297,
      education_hanja: 94,
      middle_school_hanja: 68,
      high_school_hanja: 23,
      name_hanja: 184,
      starters: 12,
      idioms: 17,
      with_hunum: 192,
    });
  });

  it("puts the version in every record's and every detail's source", async () => {
    const records = await jsonLines<HanjaRecord>(join(outDir, "characters.jsonl"));
    const details = await jsonLines<HanjaRecord>(join(outDir, "details.jsonl"));
    expect(records).toHaveLength(297);
    expect(details).toHaveLength(297);
    for (const record of [...records, ...details]) expect(record.source, record.character).toBe(SOURCE);
    // Nothing else about the records depends on the label: they equal the 16.0.0 build's but for `source`.
    const baseline = await jsonLines<HanjaRecord>(join(baselineDir, "characters.jsonl"));
    expect(records.map((r) => ({ ...r, source: "" }))).toEqual(baseline.map((r) => ({ ...r, source: "" })));
  });

  it(`reports ${NEXT} from GET /hanja/v1/meta of an app over that dist`, async () => {
    const response = await app.fetch(new Request("http://localhost/hanja/v1/meta"));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: Record<string, unknown>; counts: Record<string, number> };
    expect(body.data).toMatchObject({ unihan_version: NEXT, source: SOURCE, unihan_origin: `Unihan-${NEXT}.zip` });
    expect(body.counts).toMatchObject({ characters: 297, idioms: 17 });
  });

  it("carries the version in the character list envelopes' and the detail's source (a page of idioms names the project's own data)", async () => {
    const idioms = (await (await app.fetch(new Request("http://localhost/hanja/v1/idioms"))).json()) as { source: string };
    expect(idioms.source).toBe("Hanja API project original idioms (see idiom terms)");
    for (const path of ["/hanja/v1/hanja", "/hanja/v1/hanja?q=water"]) {
      const response = await app.fetch(new Request(`http://localhost${path}`));
      expect(response.status, path).toBe(200);
      const body = (await response.json()) as { data: unknown[]; source: string };
      expect(body.source, path).toBe(SOURCE);
      expect(body.data.length, path).toBeGreaterThan(0);
    }
    const detail = await app.fetch(new Request("http://localhost/hanja/v1/hanja/%E6%B0%B4"));
    expect(((await detail.json()) as HanjaRecord).source).toBe(SOURCE);
  });

  it("builds the same way through `npm run build` with UNIHAN_ZIP, printing the warnings", async () => {
    const out = join(outDir, "..", "..", "cli", "dist");
    const { stdout } = await promisify(execFile)("npm", ["run", "build", "--", "--data", dataDir, "--out", out], {
      cwd: ROOT,
      env: { ...process.env, UNIHAN_ZIP: zip.path, SOURCE_DATE_EPOCH: String(EPOCH) },
    });
    for (const warning of summary.warnings) expect(stdout).toContain(`warning   ${warning}`);
    expect(stdout).toMatch(new RegExp(`done {6}Unihan ${NEXT.replace(/\./g, "\\.")}: 297 characters .*; ${summary.warnings.length} warning\\(s\\)`));
    // Byte-identical to the in-process build: the same inputs and SOURCE_DATE_EPOCH.
    for (const file of ["characters.jsonl", "details.jsonl", "meta.json"]) {
      expect((await readFile(join(out, file))).equals(await readFile(join(outDir, file))), file).toBe(true);
    }
  });

  it("with --expect-version (as the workflow runs it): builds when the data carries that version, fails naming both when not", async () => {
    const out = join(outDir, "..", "..", "expect", "dist");
    const run = (version: string) =>
      promisify(execFile)("npm", ["run", "build", "--", "--data", dataDir, "--out", out, "--expect-version", version], {
        cwd: ROOT,
        env: { ...process.env, UNIHAN_ZIP: zip.path, SOURCE_DATE_EPOCH: String(EPOCH) },
      });
    expect((await run(NEXT)).stdout).toContain(`Unihan ${NEXT}: 297 characters`);
    // Failing this early, while the index worker is still starting, once let the process end with
    // code 0 and no message: each of three runs must fail, and say why.
    for (let i = 0; i < 3; i++) {
      const failed = (await run("19.0.0").catch((error: unknown) => error)) as { code: number; stderr: string };
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain(`is Unihan ${NEXT} (by header), not the expected 19.0.0: check the version and the URL of the release`);
    }
  });
});
