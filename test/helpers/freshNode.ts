/** Runs a module's text in a fresh Node (the project's sources importable, through tsx) and returns the JSON its last line prints. */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "../..");

/** `script` run as an ES module from the project's root, with `nodeArgs` before it on Node's command line. */
export function inFreshNode<T>(script: string, nodeArgs: string[] = []): T {
  const run = spawnSync(process.execPath, [...nodeArgs, "--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
  const last = run.stdout.trim().split("\n").at(-1);
  if (!last) throw new Error(`the script printed nothing (status ${run.status}): ${run.stderr.slice(0, 2000)}`);
  return JSON.parse(last) as T;
}
