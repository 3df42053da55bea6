/**
 * The package as a user gets it: `npm pack` (which runs the prepack build) into a temporary
 * folder, and a fresh project there with the tarball installed by npm, beside whatever the test's
 * hosts need. Installs prefer npm's cache, so a machine that has run `npm ci` needs no network.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "../helpers/app.ts";

const run = promisify(execFile);

/** What `npm pack --json` says of the tarball. */
export interface PackReport {
  filename: string;
  /** Bytes of the tarball. */
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

/** A packed tarball in its own temporary folder. */
export interface Packed {
  dir: string;
  tarball: string;
  report: PackReport;
  remove(): void;
}

/**
 * Packs the project (prepack builds lib/ first); the tarball lands in a new temporary folder.
 * Test files run in parallel and prepack rebuilds lib/ in place, so one pack runs at a time.
 */
export async function pack(): Promise<Packed> {
  const dir = mkdtempSync(join(tmpdir(), "hanja-pack-"));
  const stdout = await exclusively(
    async () => (await run("npm", ["pack", "--json", "--pack-destination", dir], { cwd: ROOT, maxBuffer: 16 << 20, timeout: 180_000 })).stdout,
  );
  // A stale dist/ makes prepack print its build on stdout before npm's JSON.
  const [report] = JSON.parse(stdout.slice(stdout.indexOf("[\n"))) as PackReport[];
  if (!report) throw new Error(`npm pack printed no report:\n${stdout}`);
  return { dir, tarball: join(dir, report.filename), report, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A lock shared by the test processes: a folder only one of them can create (left behind by a killed run for at most 5 minutes). */
async function exclusively<T>(work: () => Promise<T>): Promise<T> {
  const lock = join(ROOT, "node_modules/.cache/hanja-pack.lock");
  mkdirSync(dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 300_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** A fresh npm project with the tarball and `extra` packages installed. */
export async function freshProject(tarball: string, extra: readonly string[] = []): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "hanja-consumer-"));
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "consumer", private: true, type: "module" }, null, 2)}\n`);
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--save-exact", tarball, ...extra], {
    cwd: dir,
    maxBuffer: 16 << 20,
    timeout: 240_000,
  });
  return dir;
}

/** The exact version the project pins for `name` (a dev dependency the hosts need too). */
export async function pinned(name: string): Promise<string> {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
  const version = pkg.devDependencies[name];
  if (!version) throw new Error(`package.json pins no ${name}`);
  return `${name}@${version}`;
}
