/**
 * The runtime formats numbers with `count()` (runtime/core/util/count.ts), never with
 * `toLocaleString` or `Intl`: their first call loads the runtime's locale data, and a module that
 * calls one at import (the reader's parameter docs did) adds about 10 ms to importing the package.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Code lines (not comments) of a source that format with the locale data. */
function localeCalls(text: string, name: string): string[] {
  return text
    .split("\n")
    .map((line, i) => [line, i + 1] as const)
    .filter(([line]) => !/^\s*(\*|\/\/|\/\*)/.test(line) && /\.toLocaleString\(|\bIntl\./.test(line))
    .map(([line, n]) => `${name}:${n}: ${line.trim()}`);
}

describe("the runtime's numbers", () => {
  it("are formatted without the locale data", () => {
    expect(sources(join(ROOT, "runtime")).flatMap((file) => localeCalls(readFileSync(file, "utf8"), relative(ROOT, file)))).toEqual([]);
  });

  it("a call is found where there is one, not in a comment", () => {
    const text = `/** not \`n.toLocaleString()\` */\nconst limit = READ_GET_MAX.toLocaleString("en");\n// Intl.NumberFormat\n`;
    expect(localeCalls(text, "read.ts")).toEqual(['read.ts:2: const limit = READ_GET_MAX.toLocaleString("en");']);
  });
});
