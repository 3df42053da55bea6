/**
 * `npx tsx scripts/openapi-diff.ts [revision]` (default `main`): what `/openapi.json` and `/docs`
 * of this checkout say differently from those of `revision`, key order ignored, as one line per
 * JSON pointer that differs (`~ /admin/openapi/paths/…/description`, `+` only here, `-` only
 * there; `/docs` compared by its SHA-256); nothing printed and exit code 0 when they are the same.
 * Both are served by apps over this checkout's dist/ in a few configurations: the defaults, every
 * interface mounted (admin and metrics tokens), custom bases, a mount path. The revision is
 * checked out in a temporary worktree that borrows this checkout's node_modules.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./ensureDist.ts";

/** A module printing the documents of the checkout it sits in: the public entry points only, so that any revision runs it. */
const PRINT = `
import { createHash } from "node:crypto";
import { createApp } from "./runtime/core/app.ts";
import { loadDistFiles } from "./runtime/entry/loadDist.ts";
const tokens = { adminToken: "a".repeat(32), metricsToken: "m".repeat(32) };
const configurations = {
  defaults: {},
  mounted: tokens,
  bases: { ...tokens, hanjaBase: "/api/chars", quizBase: "/api/quiz/v2" },
  // The host strips its mount path before the app sees a request.
  mountPath: { mountPath: "/lexicon" },
};
const dist = loadDistFiles(${JSON.stringify(join(ROOT, "dist"))});
const out = {};
for (const [label, options] of Object.entries(configurations)) {
  const app = createApp({ dist, onError: () => {}, ...options });
  const get = (path) => app.fetch(new Request("http://localhost" + path), { clientAddress: "127.0.0.1" });
  const openapi = await get("/openapi.json");
  const docs = await get("/docs");
  out[label] = { status: [openapi.status, docs.status], openapi: await openapi.json(), docs: createHash("sha256").update(await docs.text()).digest("hex") };
  await app.close();
}
process.stdout.write(JSON.stringify(out));
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
