/**
 * What `npm pack` puts in the package: the compiled runtime with its types, the data the runtime
 * reads, the data's terms and the Unicode licence — and nothing else (no sources, tests, compiled
 * binary, Unihan zip or build tools) — within a size budget; publint and Are the Types Wrong find
 * nothing to fix.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { publint } from "publint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIME_FILES } from "../../runtime/format/dist.ts";
import { ROOT } from "../helpers/app.ts";
import { type Packed, pack } from "./packed.ts";

const run = promisify(execFile);

/** An SPDX expression as spdx-expression-parse (npm's own parser) reads it. */
type SpdxNode = { license: string; plus?: true; exception?: string } | { conjunction: "and" | "or"; left: SpdxNode; right: SpdxNode };
const parseSpdx = createRequire(import.meta.url)("spdx-expression-parse") as (expression: string) => SpdxNode;

/** The licences an expression requires all of; throws on an `OR` (a choice the package does not offer). */
function requiredLicences(node: SpdxNode): string[] {
  if ("license" in node) return [node.license];
  if (node.conjunction !== "and") throw new Error("the licence expression offers a choice (OR)");
  return [...requiredLicences(node.left), ...requiredLicences(node.right)];
}

/**
 * The budget (docs/embedding.md states the sizes): the tarball and the unpacked package, in bytes.
 * The tarball's is the product's ceiling, 3 MB, which the issue on words set for the package with
 * them (2.92 MB: words.txt is 0.88 MB of it, the details' first words 0.09 MB); the unpacked one a
 * guard a little above today's 12.85 MB.
 */
export const BUDGET = { tarball: 3_000_000, unpacked: 14_000_000 };

const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  private?: boolean;
  license?: string;
  exports: Record<string, string | { types: string; default: string }>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

let packed: Packed;
let paths: string[];
beforeAll(async () => {
  packed = await pack();
  paths = packed.report.files.map((f) => f.path);
}, 240_000);
afterAll(() => packed?.remove());

describe("npm pack", () => {
  it(`stays within the budget: tarball ≤ ${BUDGET.tarball} bytes, unpacked ≤ ${BUDGET.unpacked} bytes`, () => {
    console.log(`package: tarball ${packed.report.size} bytes, unpacked ${packed.report.unpackedSize} bytes, ${paths.length} files`);
    expect(packed.report.size).toBeLessThanOrEqual(BUDGET.tarball);
    expect(packed.report.unpackedSize).toBeLessThanOrEqual(BUDGET.unpacked);
  });

  it("holds only the package's manifest, README and code licence, compiled JavaScript with its types, the served data and the licences", () => {
    const unexpected = paths.filter(
      (path) => !/^(package\.json|README\.md|LICENSE|licenses\/[^/]+|lib\/(runtime|web)\/.+\.(js|d\.ts)|lib\/types\/.+\.d\.ts|lib\/dist\/[^/]+)$/.test(path),
    );
    expect(unexpected).toEqual([]);
    // No TypeScript source (only declarations), no test, no binary, no zip, no pipeline.
    expect(paths.filter((path) => /(?<!\.d)\.ts$|(^|\/)test\/|\.zip$|\/bin\/|pipeline\//.test(path))).toEqual([]);
  });

  it("carries exactly the dist files the runtime reads (not characters.jsonl, not the binary)", () => {
    const data = paths.filter((path) => path.startsWith("lib/dist/")).map((path) => path.slice("lib/dist/".length));
    expect(data.sort()).toEqual([...RUNTIME_FILES].sort());
  });

  it("carries the code's MIT licence, the idiom data's terms, the Unicode licence, the hanja dictionary's notice and the school levels' CC BY-SA licence and attribution, and stays private", () => {
    expect(paths).toEqual(
      expect.arrayContaining([
        "LICENSE",
        "licenses/TERMS.md",
        "licenses/UNICODE-LICENSE.txt",
        "licenses/LIBHANGUL-HANJA-LICENSE.txt",
        "licenses/SCHOOL-LEVELS-CC-BY-SA-4.0.txt",
        "licenses/SCHOOL-LEVELS.md",
      ]),
    );
    expect(readFileSync(join(ROOT, "licenses/SCHOOL-LEVELS-CC-BY-SA-4.0.txt"), "utf8")).toMatch(
      /^Creative Commons Attribution-ShareAlike 4\.0 International\n[^]*Creative Commons may be contacted at creativecommons\.org\.\n$/,
    );
    expect(readFileSync(join(ROOT, "licenses/SCHOOL-LEVELS.md"), "utf8")).toContain("https://github.com/jjm4000/okpyeon");
    expect(readFileSync(join(ROOT, "licenses/LIBHANGUL-HANJA-LICENSE.txt"), "utf8")).toMatch(
      /^Copyright \(c\) 2005,2006 Choe Hwanjin\nAll rights reserved\.\n[^]*POSSIBILITY OF SUCH DAMAGE\.\n$/,
    );
    expect(readFileSync(join(ROOT, "LICENSE"), "utf8")).toMatch(/^MIT License\n\nCopyright \(c\) 2026 Hanja API project contributors\n/);
    expect(manifest.private).toBe(true);
  });

  it("has every export's JavaScript and types inside it", () => {
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (subpath.includes("*")) continue;
      const files = typeof target === "string" ? [target] : [target.types, target.default];
      for (const file of files) expect(paths, `${subpath} → ${file}`).toContain(file.replace(/^\.\//, ""));
    }
    expect(Object.keys(manifest.exports)).toEqual(expect.arrayContaining([".", "./node", "./stores", "./page"]));
  });

  it("installs nothing else: the libraries it uses are bundled, their licences shipped; the Node SQLite driver and the Redis client are optional peers", () => {
    expect(manifest.dependencies ?? {}).toEqual({});
    const notices = readFileSync(join(ROOT, "licenses/THIRD-PARTY.md"), "utf8");
    for (const bundled of ["minisearch", "lru-cache", "fflate", "@noble/hashes", "ipaddr.js", "itty-router"])
      expect(notices).toMatch(new RegExp(`^## ${bundled.replace(".", "\\.")} \\d`, "m"));
    expect(paths).toContain("licenses/THIRD-PARTY.md");
    expect(manifest.peerDependencies).toEqual({ "@redis/client": expect.any(String), "better-sqlite3": expect.any(String) });
    expect(manifest.peerDependenciesMeta?.["better-sqlite3"]?.optional).toBe(true);
    expect(manifest.peerDependenciesMeta?.["@redis/client"]?.optional).toBe(true);
  });

  it("says in its licence field, an SPDX expression, the code's licences apart from the content's terms and the data's licences", () => {
    const licences = requiredLicences(parseSpdx(manifest.license ?? ""));
    // The code: the project's (LICENSE), and each library bundled into lib/ (licenses/THIRD-PARTY.md).
    expect(licences[0]).toBe("MIT");
    const bundled = [...readFileSync(join(ROOT, "licenses/THIRD-PARTY.md"), "utf8").matchAll(/^## \S+ \S+ \((.+)\)$/gm)].map((m) => m[1] as string);
    expect(bundled.length).toBeGreaterThan(3);
    for (const licence of bundled) expect(licences, licence).toContain(licence);
    // The content: the project's own terms (not an open licence), a LicenseRef naming the file the package carries.
    expect(licences).toContain("LicenseRef-Hanja-Content-Terms");
    expect(paths).toContain("licenses/TERMS.md");
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toMatch(/`LicenseRef-Hanja-Content-Terms`[^\n]*`licenses\/TERMS\.md`/);
    // The data's: Unihan's Unicode License V3 and the hanja dictionary's BSD 3-clause.
    expect(licences).toEqual(expect.arrayContaining(["Unicode-3.0", "BSD-3-Clause"]));
    expect(new Set(licences).size).toBe(licences.length);
    // Not an expression: refused by the same parser.
    expect(() => parseSpdx("MIT + content terms")).toThrow();
  });

  it("passes publint (strict, suggestions included) on the tarball", async () => {
    const bytes = readFileSync(packed.tarball);
    const { messages } = await publint({
      pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
      strict: true,
      level: "suggestion",
    });
    expect(messages).toEqual([]);
  });

  it("passes Are the Types Wrong on the tarball (ESM only: node16 from ESM and bundlers resolve every export with types)", async () => {
    const attw = join(ROOT, "node_modules/@arethetypeswrong/cli/dist/index.js");
    const result = await run(process.execPath, [attw, packed.tarball, "--profile", "esm-only", "--format", "json"], { maxBuffer: 16 << 20 }).catch(
      (error: { stdout: string; code: number }) => error,
    );
    const report = JSON.parse(result.stdout) as { analysis: { problems: unknown[]; entrypoints: Record<string, unknown> } };
    expect(report.analysis.problems.filter((p) => !/node10|cjs/i.test(JSON.stringify(p)))).toEqual([]);
    expect(Object.keys(report.analysis.entrypoints)).toEqual(expect.arrayContaining([".", "./node", "./stores", "./page"]));
    expect("code" in result ? result.code : 0).toBe(0);
  });
});
