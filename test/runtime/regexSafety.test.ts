/**
 * Every regular expression of the runtime, checked by a ReDoS analyser (recheck): a pattern whose
 * matching time can grow faster than the input (a request's path or query, a header, a store's
 * answer) would let one request stall the server. The patterns are found by parsing the sources
 * with the TypeScript compiler, so a new one is checked without an edit here: every regex literal,
 * and every `new RegExp(…)`, whose value is read from the module while it is imported.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { check } from "recheck";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { loadData } from "../../runtime/core/data/load.ts";
import { describedOperations } from "../../runtime/core/operations/interfaces.ts";
import { compilePath } from "../../runtime/core/operations/router.ts";
import { ROOT, distFiles } from "../helpers/app.ts";

/** A pattern as written: where, its source and flags (undefined for a `new RegExp` not yet evaluated). */
interface Found {
  at: string;
  source?: string;
  flags?: string;
}

/**
 * Patterns recheck does not call safe that are linear for the input they can meet, each with the
 * proof. Keyed by file and source. Empty today: add one only with the reason it cannot blow up.
 */
const PROVEN_LINEAR: Record<string, string> = {};

const files = readdirSync(join(ROOT, "runtime"), { recursive: true, encoding: "utf8" })
  .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
  .map((name) => join(ROOT, "runtime", name));

/** The regex literals and `new RegExp` calls of one source file. */
function patternsOf(file: string): { literals: Found[]; constructed: { at: string; topLevel: boolean }[] } {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const literals: Found[] = [];
  const constructed: { at: string; topLevel: boolean }[] = [];
  const where = (node: ts.Node) => `${relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const text = node.getText();
      const end = text.lastIndexOf("/");
      literals.push({ at: where(node), source: text.slice(1, end), flags: text.slice(end + 1) });
    } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === "RegExp") {
      // Only a module-level constant is built when the module is imported, where this test reads it.
      const statement = node.parent?.parent?.parent;
      const topLevel = ts.isVariableDeclaration(node.parent) && statement !== undefined && ts.isVariableStatement(statement) && statement.parent === source;
      constructed.push({ at: where(node), topLevel });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { literals, constructed };
}

/** The `new RegExp` values a module builds while it is imported, with the file whose code built them (from the stack). */
async function constructedBy(file: string): Promise<Found[]> {
  const seen: Found[] = [];
  const original = globalThis.RegExp;
  globalThis.RegExp = new Proxy(original, {
    construct(target, args: [string | RegExp, string?]) {
      const made = Reflect.construct(target, args) as RegExp;
      const stack = new Error().stack ?? "";
      if (stack.includes(file)) seen.push({ at: relative(ROOT, file), source: made.source, flags: made.flags });
      return made;
    },
  });
  try {
    await import(`${pathToFileURL(file).href}?regex-check`);
  } finally {
    globalThis.RegExp = original;
  }
  return seen;
}

/**
 * The router builds one pattern per mounted operation, from paths the code declares and the bases
 * the operator configures, never from a request: those are checked as the router compiles them, for
 * every operation with the default bases and with nested custom ones.
 */
const ROUTER = join(ROOT, "runtime/core/operations/router.ts");

/** The router's patterns for every operation (admin on), under the default bases and under custom ones. */
function routePatterns(): Found[] {
  const data = loadData(distFiles());
  const bases = [
    { hanjaBase: "/hanja/v1", quizBase: "/quiz/v1", adminEnabled: true },
    { hanjaBase: "/api/chars.v2", quizBase: "/api/quiz-b", mountPath: "/mounted", adminEnabled: true },
  ];
  return bases.flatMap((b) =>
    describedOperations(data, b).map(({ path }) => {
      const made = compilePath(path);
      return { at: `${relative(ROOT, ROUTER)} ${path}`, source: made.source, flags: made.flags };
    }),
  );
}

const literals = files.flatMap((file) => patternsOf(file).literals);
const built = files.flatMap((file) => patternsOf(file).constructed.map((site) => ({ file, ...site }))).filter((site) => site.file !== ROUTER);

describe("the runtime's regular expressions", () => {
  it("are found: the literals and constructed patterns of the sources", () => {
    expect(literals.length).toBeGreaterThan(30);
    expect(literals).toContainEqual(expect.objectContaining({ source: "^[\\s\\p{P}]$", flags: "u" }));
    expect(built.length).toBeGreaterThan(3);
    expect(routePatterns()).toContainEqual(expect.objectContaining({ source: "^\\/hanja\\/v1\\/hanja(\\/(?<character>[^//]+?))\\/*$" }));
  });

  it("builds every `new RegExp` once, at module level, where it can be checked", () => {
    expect(built.filter((site) => !site.topLevel).map((site) => site.at)).toEqual([]);
  });

  it("tells a super-linear pattern from a linear one", async () => {
    expect((await check("^[\\s\\p{P}]+|[\\s\\p{P}]+$", "gu")).status).toBe("vulnerable");
    expect((await check("^(a+)+$", "")).status).toBe("vulnerable");
    expect((await check("^[\\s\\p{P}]$", "u")).status).toBe("safe");
  });

  it("are each safe by recheck, or proven linear for the input they meet", { timeout: 120_000 }, async () => {
    const constructed: Found[] = [];
    for (const file of new Set(built.map((site) => site.file))) {
      const values = await constructedBy(file);
      const sites = built.filter((site) => site.file === file).length;
      expect(values.length, `${relative(ROOT, file)} builds ${sites} patterns on import`).toBeGreaterThanOrEqual(sites);
      constructed.push(...values);
    }
    const unsafe: string[] = [];
    for (const { at, source = "", flags = "" } of [...literals, ...constructed, ...routePatterns()]) {
      const { status } = await check(source, flags);
      if (status !== "safe" && PROVEN_LINEAR[`${at.split(":")[0]} /${source}/`] === undefined) unsafe.push(`${at} /${source}/${flags}: ${status}`);
    }
    expect(unsafe).toEqual([]);
  });
});
