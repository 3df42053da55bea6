/**
 * `npx tsx scripts/openapi-diff.ts [revision]` (default `main`): what the `/openapi.json` of this
 * checkout says differently from the one of `revision`, key order ignored, as one line per JSON
 * pointer that differs (`~ /paths/…/description`, `+` only here, `-` only there); nothing printed
 * and exit code 0 when the two are the same document. Both documents are those of an app with
 * every interface mounted (an admin and a metrics token set), over this checkout's dist/. The
 * revision is checked out in a temporary worktree that borrows this checkout's node_modules.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./ensureDist.ts";

/** A module printing the document of the checkout it sits in: the public entry points only, so that any revision runs it. */
const PRINT = `
import { createApp } from "./runtime/core/app.ts";
import { loadDistFiles } from "./runtime/entry/loadDist.ts";
const app = createApp({ dist: loadDistFiles(${JSON.stringify(join(ROOT, "dist"))}), adminToken: "a".repeat(32), metricsToken: "m".repeat(32) });
const response = await app.fetch(new Request("http://localhost/openapi.json"), { clientAddress: "127.0.0.1" });
process.stdout.write(await response.text());
await app.close();
`;

function documentAt(checkout: string): unknown {
  const file = join(checkout, "openapi-diff-print.ts");
  writeFileSync(file, PRINT);
  try {
    const tsx = join(ROOT, "node_modules/tsx/dist/cli.mjs");
    return JSON.parse(execFileSync(process.execPath, [tsx, file], { cwd: checkout, encoding: "utf8", maxBuffer: 64 << 20 }));
  } finally {
    rmSync(file);
  }
}

/** The JSON pointers at which `a` and `b` differ, objects compared by key whatever their order. */
export function differences(a: unknown, b: unknown, at = ""): string[] {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (Array.isArray(a) && Array.isArray(b)) {
    const out: string[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length) out.push(`+ ${at}/${i}`);
      else if (i >= b.length) out.push(`- ${at}/${i}`);
      else out.push(...differences(a[i], b[i], `${at}/${i}`));
    }
    return out;
  }
  if (isObject(a) && isObject(b)) {
    const out: string[] = [];
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const pointer = `${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      if (!(key in b)) out.push(`- ${pointer}`);
      else if (!(key in a)) out.push(`+ ${pointer}`);
      else out.push(...differences(a[key], b[key], pointer));
    }
    return out;
  }
  return Object.is(a, b) ? [] : [`~ ${at}`];
}

if (import.meta.main ?? process.argv[1]?.endsWith("openapi-diff.ts")) {
  const revision = process.argv[2] ?? "main";
  const worktree = mkdtempSync(join(tmpdir(), "openapi-diff-"));
  execFileSync("git", ["worktree", "add", "--detach", "--quiet", worktree, revision], { cwd: ROOT });
  try {
    symlinkSync(join(ROOT, "node_modules"), join(worktree, "node_modules"));
    const found = differences(documentAt(worktree), documentAt(ROOT));
    for (const line of found) console.log(line);
    console.error(`${found.length} difference(s) between ${revision} and this checkout`);
  } finally {
    execFileSync("git", ["worktree", "remove", "--force", worktree], { cwd: ROOT });
  }
}
