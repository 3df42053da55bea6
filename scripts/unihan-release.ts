/**
 * The release job's logic ("New Unihan release" workflow, weekly and on demand):
 *
 *   npx tsx scripts/unihan-release.ts [--version X.Y.Z] [--summary <file.md>]
 *
 * 1. finds the latest published Unicode version (scripts/release/latestVersion.ts), or takes --version;
 * 2. stops quietly (exit 0, outcome `current`) when the pin is that version or newer;
 * 3. stops quietly (outcome `pr-open`) when a pull request from `unihan-release/<version>` is open;
 * 4. otherwise fetches `<Public>/<version>/ucd/Unihan.zip`, checks that it is a Unihan zip whose
 *    headers say that version, makes it the pinned release (the zip and pin.json in
 *    pipeline/data/unihan/, nothing else), and writes the data summary (outcome `updated`).
 * The workflow then runs the whole test suite and opens the pull request. Outcomes go to
 * `$GITHUB_OUTPUT` (outcome, version, branch) when it is set.
 *
 * Environment: UNICODE_PUBLIC_URL (default the Unicode Consortium's Public folder), GITHUB_API_URL,
 * GITHUB_REPOSITORY, GITHUB_TOKEN (the open-PR check is skipped without GITHUB_REPOSITORY).
 */
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { InputError } from "../pipeline/load/types.ts";
import { type ZipRead, zipRecords } from "../pipeline/pin/computePin.ts";
import { movePin } from "../pipeline/pin/movePin.ts";
import { PIN_DIR, readPin } from "../pipeline/pin/pin.ts";
import { ReleaseError, compareVersions, fetchBytes, latestVersion } from "./release/latestVersion.ts";
import { type GitHubTarget, openPullRequest } from "./release/openPullRequest.ts";
import { releaseSummary } from "./release/summary.ts";

/** The Unicode Consortium's published files. */
export const UNICODE_PUBLIC = "https://www.unicode.org/Public";

export interface ReleaseOptions {
  /** The Unicode `Public/` folder (default UNICODE_PUBLIC). */
  publicBase?: string;
  /** Where to look for an open pull request; omitted: not looked for. */
  github?: GitHubTarget | undefined;
  /** The pin folder (default pipeline/data/unihan). */
  pinDir?: string;
  /** A version to adopt instead of the latest published. */
  version?: string | undefined;
  log?: (line: string) => void;
}

export type ReleaseOutcome =
  | { outcome: "current"; version: string }
  | { outcome: "pr-open"; version: string; branch: string; pullRequest: string }
  | { outcome: "updated"; version: string; branch: string; summary: string };

/** Runs steps 1–4 above. */
export async function runRelease(options: ReleaseOptions = {}): Promise<ReleaseOutcome> {
  const publicBase = (options.publicBase ?? UNICODE_PUBLIC).replace(/\/+$/, "");
  const pinDir = options.pinDir ?? PIN_DIR;
  const log = options.log ?? (() => {});
  const pin = readPin(pinDir);
  const version = options.version ?? (await latestVersion(publicBase));
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new ReleaseError(`--version must look like 18.0.0, got ${JSON.stringify(version)}`);
  if (compareVersions(version, pin.version) <= 0) {
    log(`Unihan ${version} is the latest; the pin (${pin.version}) is current: nothing to do`);
    return { outcome: "current", version };
  }
  const branch = `unihan-release/${version}`;
  if (options.github) {
    const open = await openPullRequest(options.github, branch);
    if (open) {
      log(`Unihan ${version}: pull request ${open} from ${branch} is already open: nothing to do`);
      return { outcome: "pr-open", version, branch, pullRequest: open };
    }
  } else {
    log("GITHUB_REPOSITORY is not set: not looking for an open pull request");
  }
  const url = `${publicBase}/${version}/ucd/Unihan.zip`;
  log(`Unihan ${version} is newer than the pin (${pin.version}): fetching ${url}`);
  const bytes = await fetchBytes(url);
  const next = await unihanRelease(bytes, url, version);
  const before = await zipRecords(await readFile(join(pinDir, pin.file)), pin.file);
  const { after } = await movePin(bytes, url, pinDir, next);
  log(`pinned Unihan ${after.version}: ${after.file}, ${after.counts.characters} characters (was ${pin.counts.characters})`);
  return { outcome: "updated", version, branch, summary: releaseSummary({ pin, records: before.records }, { pin: after, records: next.records }) };
}

/** A download read as a Unihan zip, which must be of `version` by its headers. */
async function unihanRelease(bytes: Uint8Array, url: string, version: string): Promise<ZipRead> {
  let read: ZipRead;
  try {
    read = await zipRecords(bytes, url.split("/").pop() ?? "Unihan.zip");
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new ReleaseError(`${url} is not a Unihan zip: ${error.message}`);
  }
  if (read.method !== "header" || read.version !== version) {
    throw new ReleaseError(`${url} is Unihan ${read.version} (by ${read.method}), not ${version}: refusing to pin it`);
  }
  if (read.records.length === 0) throw new ReleaseError(`${url} has no character with kHangul: refusing to pin it`);
  return read;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { version: { type: "string" }, summary: { type: "string" } } });
  const env = process.env;
  const github = env.GITHUB_REPOSITORY
    ? { api: env.GITHUB_API_URL || "https://api.github.com", repository: env.GITHUB_REPOSITORY, token: env.GITHUB_TOKEN }
    : undefined;
  const result = await runRelease({
    publicBase: env.UNICODE_PUBLIC_URL || undefined,
    github,
    version: values.version || undefined,
    log: (line) => console.log(line),
  });
  if (result.outcome === "updated" && values.summary) await writeFile(values.summary, result.summary);
  if (env.GITHUB_OUTPUT) {
    const branch = result.outcome === "current" ? "" : result.branch;
    await appendFile(env.GITHUB_OUTPUT, `outcome=${result.outcome}\nversion=${result.version}\nbranch=${branch}\n`);
  }
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (!(error instanceof ReleaseError) && !(error instanceof InputError)) throw error;
      console.error(`unihan-release: ${error.message}`);
      process.exit(1);
    },
  );
}
