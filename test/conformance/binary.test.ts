/** The HTTP conformance suite on the `bun build --compile` binary, run from an empty folder. */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LICENSE_TEXTS, buildBinary } from "../../scripts/build-binary.ts";
import { ROOT } from "../../scripts/ensureDist.ts";
import { spawnServer } from "../helpers/server.ts";
import { compiledBinary, environment, runToExit } from "./servers.ts";
import { send } from "./client.ts";
import { conformanceSuite } from "./suite.ts";
import { CHARACTERS } from "../helpers/pin.ts";

conformanceSuite("compiled binary", compiledBinary);

describe("compiled binary: DIST_DIR", () => {
  const dir = mkdtempSync(join(tmpdir(), "hanja-binary-dist-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is read when set, like on every other runtime: a folder without data stops start-up naming it", { timeout: 120_000 }, async () => {
    const binary = await buildBinary(join(dir, "hanja-api"));
    const result = await runToExit(binary, [], environment({ QUOTA_STORE: "memory", DIST_DIR: join(dir, "no-such-dist") }), dir);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/^hanja-api: invalid configuration: DIST_DIR: .*no-such-dist/m);
  });

  it("serves the data of DIST_DIR when it holds some", { timeout: 120_000 }, async () => {
    const server = await compiledBinary({ QUOTA_STORE: "memory", DIST_DIR: join(ROOT, "dist") });
    try {
      const meta = await send(server.url, "/hanja/v1/meta");
      expect(meta.status).toBe(200);
      expect(meta.body.counts.characters).toBe(CHARACTERS);
    } finally {
      await server.stop();
    }
  });
});

describe("compiled binary: a file copied anywhere", () => {
  const dir = mkdtempSync(join(tmpdir(), "hanja-binary-anywhere-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("--help describes its built-in data and its database in the user's data folder; it keeps that database whatever folder it runs from", {
    timeout: 120_000,
  }, async () => {
    const binary = await buildBinary(join(dir, "hanja-api"));
    const home = join(dir, "home");
    const cwd = mkdtempSync(join(dir, "cwd-"));
    const env: Record<string, string | undefined> = { ...environment({}), HOME: home, XDG_DATA_HOME: "" };
    delete env["QUOTA_DB"];
    const help = await runToExit(binary, ["--help"], env, cwd);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("its data built in");
    expect(help.stdout).toMatch(/DIST_DIR +folder of other built data to serve instead of the data built\n +into this executable/);
    expect(help.stdout).toMatch(new RegExp(`QUOTA_DB +SQLite file \\(default ${home}/\\.local/share/hanja-api/quota\\.sqlite`));
    expect(help.stdout).not.toContain("dist/");

    const server = await spawnServer({ command: binary, args: [], cwd, env });
    try {
      expect(server.stderr()).toContain(`"quota_db":"${home}/.local/share/hanja-api/quota.sqlite"`);
      expect((await send(server.url, "/quiz/v1/idiom/1")).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(existsSync(join(home, ".local/share/hanja-api/quota.sqlite"))).toBe(true);
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe("compiled binary: the licences it carries", () => {
  const dir = mkdtempSync(join(tmpdir(), "hanja-binary-licenses-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("--licenses prints the content terms and, in full, the licence of the code and of each data it carries (the strokes' Arphic PL and CC BY-SA 3.0 among them); --help names it", {
    timeout: 120_000,
  }, async () => {
    const binary = await buildBinary(join(dir, "hanja-api"));
    const printed = await runToExit(binary, ["--licenses"], environment({}), dir);
    expect(printed.code, printed.stderr).toBe(0);
    const headings = printed.stdout.split("\n").filter((line) => line.startsWith("==> "));
    expect(headings).toEqual([
      "==> The content terms, with libhangul's notice and the attributions (also GET /hanja/v1/terms) <==",
      ...LICENSE_TEXTS.map(({ covers }) => `==> ${covers} <==`),
    ]);
    expect(headings.join("\n")).toMatch(/Arphic Public License[\s\S]*Attribution-ShareAlike 3\.0[\s\S]*Attribution-ShareAlike 4\.0/);
    for (const { path } of LICENSE_TEXTS) expect(printed.stdout).toContain(readFileSync(join(ROOT, path), "utf8").trimEnd());
    expect(printed.stdout).toContain(readFileSync(join(ROOT, "dist/terms.md"), "utf8").trimEnd());
    const help = await runToExit(binary, ["--help"], environment({}), dir);
    expect(help.stdout).toContain("--licenses prints the licences of the code and data built in");
    // Another argument beside it is still refused.
    const extra = await runToExit(binary, ["--licenses", "x"], environment({}), dir);
    expect(extra.code).toBe(2);
  });
});
