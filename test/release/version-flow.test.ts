/**
 * A new Unihan release flows through without code changes: the small 16.0.0 fixture, relabelled
 * `# Unicode Version 18.0.0`, builds (count differences as warnings, not errors) and its version
 * reaches the manifest, every record's `source`, `/meta` and the list envelopes of an app over
 * that dist. The release workflow parses, and each command it runs is the one README.md documents.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import unzipper from "unzipper";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type App, createApp } from "hanja-api";
import { loadDistFiles } from "hanja-api/node";
import { releaseSummary } from "../../.github/scripts/unihan-release-summary.ts";
import { type BuildSummary, buildDist } from "../../pipeline/build.ts";
import { InputError } from "../../pipeline/load/types.ts";
import type { HanjaRecord } from "../../runtime/core/data/records.ts";
import { ROOT, SMALL_ZIP, errorOf, smallDataDir, tempDir, zipBytes } from "../pipeline/helpers.ts";

const EPOCH = 1_700_000_000;
const NEXT = "18.0.0";
const SOURCE = `Unicode Unihan ${NEXT}`;
const WORKFLOW = join(ROOT, ".github/workflows/unihan-release.yml");

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
  return buildDist({ unihan, dataDir, outDir, cacheDir: join(outDir, "..", "cache"), localCopies: [], sourceDateEpoch: EPOCH, log });
}

async function jsonLines<T>(path: string): Promise<T[]> {
  return (await readFile(path, "utf8")).trimEnd().split("\n").map((line) => JSON.parse(line) as T);
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
    const warnings = [
      `unihan ${NEXT}: characters: 297 (Unihan 17.0.0 has 8525)`,
      `unihan ${NEXT}: education_hanja: 94 (Unihan 17.0.0 has 1800)`,
      `unihan ${NEXT}: name_hanja: 184 (Unihan 17.0.0 has 6367)`,
    ];
    expect(summary.warnings).toEqual(warnings);
    for (const warning of warnings) expect(log).toContain(`warning   ${warning}`);
    expect(log.find((line) => line.startsWith("load"))).toContain(`Unihan ${NEXT} (by header)`);
    expect(log.find((line) => line.startsWith("validate"))).toContain("totals differ");
    expect(log.find((line) => line.startsWith("write"))).toBeDefined();
  });

  it("fails instead when the same data claims to be 17.0.0, whose totals are published", async () => {
    const claimed17 = await relabelledFixture("17.0.0");
    const error = await errorOf(() => build(claimed17.path, dataDir, join(outDir, "..", "..", "as17", "dist")));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toContain("the 17.0.0 input does not give the published totals");
  });

  it("records the version, read from the headers, and the input's hash in the manifest", async () => {
    const manifest = JSON.parse(await readFile(join(outDir, "manifest.json"), "utf8")) as BuildSummary["manifest"];
    expect(manifest).toEqual(summary.manifest);
    expect(manifest.unihan).toEqual({ version: NEXT, detected_by: "header", origin: basename(zip.path), sha256: createHash("sha256").update(zip.bytes).digest("hex") });
    expect(manifest.counts).toEqual({ characters: 297, education_hanja: 94, name_hanja: 184, starters: 12, idioms: 17 });
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
    expect(stdout).toMatch(new RegExp(`done {6}Unihan ${NEXT.replace(/\./g, "\\.")}: 297 characters .*; 3 warning\\(s\\)`));
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

  it("writes the release summary the workflow opens its pull request with", async () => {
    const markdown = await releaseSummary({ dist: outDir, baseline: baselineDir });
    expect(markdown).toMatch(new RegExp(`^# Unihan ${NEXT}\\n`));
    expect(markdown).toContain("| | Unihan 16.0.0 (baseline) | Unihan 18.0.0 | change |");
    expect(markdown).toContain("| characters | 297 | 297 | 0 |");
    for (const warning of summary.warnings) expect(markdown).toContain(`- ${warning}`);
    expect(markdown).toContain("- added (0): none");
    expect(markdown).toContain("- changed (0): none");
    expect(markdown).toContain(`\`GET /hanja/v1/meta\` on the new build: 200, \`unihan_version\` ${NEXT}, \`source\` "${SOURCE}".`);
  });

  it("the summary script answers a mistake in its call with a message and exit status 2, not a stack", async () => {
    const script = join(ROOT, ".github/scripts/unihan-release-summary.ts");
    const run = (...args: string[]) =>
      promisify(execFile)(process.execPath, ["--import", "tsx", script, ...args], { cwd: ROOT }).then(
        () => ({ code: 0, stderr: "" }),
        (error: { code: number; stderr: string }) => error,
      );
    const missing = join(outDir, "..", "no-such-dist");
    for (const [args, message] of [
      [["--dist", outDir, "--baseline", missing], `unihan-release-summary: --baseline ${missing}: cannot read manifest.json (no such file); it must be a folder written by npm run build`],
      [["--dist", missing], `unihan-release-summary: --dist ${missing}: cannot read manifest.json (no such file)`],
      [["--dist", outDir, "--basline", baselineDir], "unihan-release-summary: Unknown option '--basline'"],
      [[], "unihan-release-summary: --dist <folder of the new build> is required"],
    ] as const) {
      const result = await run(...args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it("names added, removed and changed characters against the baseline", async () => {
    // A baseline that lacks the first record, has an extra one and reads 水 differently.
    const doctored = join(baselineDir, "..", "..", "doctored");
    await cp(baselineDir, doctored, { recursive: true });
    const records = await jsonLines<HanjaRecord>(join(baselineDir, "characters.jsonl"));
    const [first, ...rest] = records;
    const edited = rest.map((r) => (r.character === "水" ? { ...r, readings: ["물"], readings_raw: "물:0" } : r));
    edited.push({ ...(first as HanjaRecord), character: "\u{30000}", codepoint: "U+30000" });
    await writeFile(join(doctored, "characters.jsonl"), `${edited.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const markdown = await releaseSummary({ dist: outDir, baseline: doctored });
    expect(markdown).toContain(`- added (1): ${first?.character} ${first?.codepoint}`);
    expect(markdown).toContain("- removed (1): \u{30000} U+30000");
    expect(markdown).toContain("- changed (1): 水 U+6C34 (readings_raw, readings)");
    expect(markdown).toContain("- changed fields: `readings` 1, `readings_raw` 1");
  });
});

/** The `run:` commands of the workflow, in order. */
interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}

describe("the release workflow (.github/workflows/unihan-release.yml)", () => {
  let workflow: { on: Record<string, any>; env?: unknown; jobs: Record<string, { env?: Record<string, string>; steps: Step[] }> };
  let steps: Step[];
  let runs: string[];
  let readme: string;

  beforeAll(async () => {
    workflow = parse(await readFile(WORKFLOW, "utf8"));
    const jobs = Object.values(workflow.jobs);
    expect(jobs).toHaveLength(1);
    steps = jobs[0]?.steps ?? [];
    runs = steps.flatMap((s) => (s.run ? [s.run.trim()] : []));
    readme = await readFile(join(ROOT, "README.md"), "utf8");
  });

  it("is dispatched by hand with a required version and an optional url", () => {
    const inputs = workflow.on.workflow_dispatch.inputs;
    expect(inputs.version).toMatchObject({ required: true, type: "string" });
    expect(inputs.url).toMatchObject({ required: false, type: "string" });
    expect(Object.keys(workflow.on)).toEqual(["workflow_dispatch"]);
  });

  it("checks out, sets up Node 20, installs, fetches, builds, tests, summarises, opens a pull request", () => {
    const uses = steps.flatMap((s) => (s.uses ? [s.uses] : []));
    expect(uses[0]).toMatch(/^actions\/checkout@v\d+$/);
    expect(uses[1]).toMatch(/^actions\/setup-node@v\d+$/);
    expect(steps[1]?.with?.["node-version"]).toBe(20);
    expect(uses.at(-1)).toMatch(/^peter-evans\/create-pull-request@v\d+$/);
    expect(steps.at(-1)?.uses).toBe(uses.at(-1));
    expect(runs).toHaveLength(5);
    expect(runs[0]).toBe("npm ci");
    expect(runs[1]).toContain("curl");
    expect(runs[1]).toContain("https://www.unicode.org/Public/$VERSION/ucd/Unihan.zip");
    expect(runs[1]).toContain("${UNIHAN_URL:-");
    expect(runs[2]).toMatch(/^UNIHAN_ZIP="\.cache\/Unihan-\$VERSION\.zip" npm run build /);
    expect(runs[3]).toBe("npm test");
    expect(runs[4]).toContain("unihan-release-summary.ts");
  });

  it("passes the inputs as environment variables and never UNIHAN_ZIP to the tests", () => {
    const env = Object.values(workflow.jobs)[0]?.env ?? {};
    expect(env).toEqual({ VERSION: "${{ inputs.version }}", UNIHAN_URL: "${{ inputs.url }}" });
    expect(workflow.env).toBeUndefined();
    for (const run of runs) expect(run).not.toContain("${{");
    for (const step of steps) expect((step as { env?: Record<string, string> }).env?.UNIHAN_ZIP).toBeUndefined();
  });

  it("opens the pull request with the summary the summary step writes", () => {
    const pr = steps.at(-1)?.with ?? {};
    const written = /--out "([^"]+)"/.exec(runs[4] ?? "")?.[1]?.replace("$VERSION", "${{ inputs.version }}");
    expect(written).toBe(".github/unihan-releases/${{ inputs.version }}.md");
    expect(pr["body-path"]).toBe(written);
    expect(pr["add-paths"]).toBe(written);
  });

  it("runs exactly the commands README.md documents, in the same order", () => {
    const start = readme.indexOf("## Updating to a new Unihan release");
    expect(start).toBeGreaterThan(-1);
    const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
    const documented = block.split("\n").map((line) => line.trim()).filter((line) => line && !/^VERSION=/.test(line));
    expect(documented).toEqual(runs);
    for (const run of runs) expect(readme).toContain(run);
  });
});
