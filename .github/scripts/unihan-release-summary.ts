/**
 * The data summary of a new Unihan release, written by the "New Unihan release" workflow
 * (.github/workflows/unihan-release.yml) as the body of its pull request:
 *
 *   npx tsx .github/scripts/unihan-release-summary.ts --dist <new dist> [--baseline <dist>] [--out <file.md>]
 *
 * It reads the new build's manifest and records, compares them with a baseline build (the pinned
 * release's `dist/`), repeats the count differences the build printed (the same `verifyTotals`),
 * and checks that the runtime serves the new data (`GET /hanja/v1/meta`).
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createApp } from "hanja-api";
import { loadDistFiles } from "hanja-api/node";
import { verifyTotals } from "../../pipeline/validate/totals.ts";
import type { DataCounts, Manifest } from "../../runtime/core/data/format.ts";
import type { HanjaRecord } from "../../runtime/core/data/records.ts";

/** How many characters each list in the summary names before "and N more". */
const EXAMPLES = 20;
const COUNT_LABELS: Record<keyof DataCounts, string> = {
  characters: "characters",
  education_hanja: "education hanja",
  name_hanja: "name hanja",
  starters: "starters",
  idioms: "idioms",
};

/** One built `dist/`: its manifest and records. */
interface Build {
  manifest: Manifest;
  records: HanjaRecord[];
}

/** A mistake in how the script was called: printed as a message, not a stack. */
class UsageError extends Error {}

async function readBuild(dir: string, option: "--dist" | "--baseline"): Promise<Build> {
  const read = async (file: string) => {
    try {
      return await readFile(resolve(dir, file), "utf8");
    } catch (error) {
      const why = (error as { code?: string }).code === "ENOENT" ? "no such file" : (error as Error).message;
      throw new UsageError(`${option} ${dir}: cannot read ${file} (${why}); it must be a folder written by npm run build (dist/ is built by npm test or npm run build)`);
    }
  };
  const manifest = JSON.parse(await read("manifest.json")) as Manifest;
  const lines = (await read("characters.jsonl")).trimEnd().split("\n");
  return { manifest, records: lines.filter(Boolean).map((line) => JSON.parse(line) as HanjaRecord) };
}

/** The Markdown summary of the build in `dist`, compared with `baseline` when given. */
export async function releaseSummary(options: { dist: string; baseline?: string }): Promise<string> {
  const next = await readBuild(options.dist, "--dist");
  const base = options.baseline ? await readBuild(options.baseline, "--baseline") : undefined;
  const { version, origin, sha256 } = next.manifest.unihan;
  const lines = [
    `# Unihan ${version}`,
    "",
    `A build of the data from Unihan ${version} (\`${origin}\`${sha256 ? `, SHA-256 \`${sha256}\`` : ""}), made by the` +
      ` "New Unihan release" workflow. \`dist/\` is generated and git-ignored, so this file is the only change.`,
    "",
    "## Counts",
    "",
    ...countsTable(next.manifest, base?.manifest),
    "",
    "## Differences the build reported",
    "",
    ...reportedDifferences(next.records, version),
    "",
  ];
  if (base) lines.push(`## Characters compared with Unihan ${base.manifest.unihan.version}`, "", ...recordChanges(base.records, next.records), "");
  lines.push("## Served", "", await servedCheck(options.dist), "", ...adoptionNote(version), "");
  return lines.join("\n");
}

function countsTable(next: Manifest, base: Manifest | undefined): string[] {
  const keys = Object.keys(COUNT_LABELS) as (keyof DataCounts)[];
  const n = (value: number) => value.toLocaleString("en");
  if (!base) return [`| | Unihan ${next.unihan.version} |`, "|---|--:|", ...keys.map((k) => `| ${COUNT_LABELS[k]} | ${n(next.counts[k])} |`)];
  return [
    `| | Unihan ${base.unihan.version} (baseline) | Unihan ${next.unihan.version} | change |`,
    "|---|--:|--:|--:|",
    ...keys.map((k) => {
      const change = next.counts[k] - base.counts[k];
      return `| ${COUNT_LABELS[k]} | ${n(base.counts[k])} | ${n(next.counts[k])} | ${change > 0 ? "+" : ""}${n(change)} |`;
    }),
  ];
}

/** The warnings `npm run build` printed for this data (the same function computes them). */
function reportedDifferences(records: readonly HanjaRecord[], version: string): string[] {
  let warnings: string[];
  try {
    warnings = verifyTotals(records, version);
  } catch (error) {
    return [`- **error**: ${(error as Error).message}`];
  }
  if (warnings.length === 0) return ["None: the totals equal those published for Unihan 17.0.0."];
  return ["Warnings, not errors (only a 17.0.0 input must give the published totals):", "", ...warnings.map((w) => `- ${w}`)];
}

/** Added, removed and changed characters between two builds (`source` always changes and is left out). */
function recordChanges(before: readonly HanjaRecord[], after: readonly HanjaRecord[]): string[] {
  const old = new Map(before.map((r) => [r.character, r]));
  const now = new Map(after.map((r) => [r.character, r]));
  const added = after.filter((r) => !old.has(r.character));
  const removed = before.filter((r) => !now.has(r.character));
  const fieldCounts = new Map<string, number>();
  const changed: { record: HanjaRecord; fields: string[] }[] = [];
  for (const record of after) {
    const previous = old.get(record.character);
    if (!previous) continue;
    const fields = (Object.keys(record) as (keyof HanjaRecord)[]).filter((k) => k !== "source" && JSON.stringify(record[k]) !== JSON.stringify(previous[k]));
    if (fields.length === 0) continue;
    changed.push({ record, fields });
    for (const field of fields) fieldCounts.set(field, (fieldCounts.get(field) ?? 0) + 1);
  }
  const name = (r: HanjaRecord) => `${r.character} ${r.codepoint}`;
  const list = <T>(items: readonly T[], show: (item: T) => string) =>
    items.length === 0 ? "none" : `${items.slice(0, EXAMPLES).map(show).join(", ")}${items.length > EXAMPLES ? `, and ${items.length - EXAMPLES} more` : ""}`;
  const byField = [...fieldCounts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return [
    `- added (${added.length}): ${list(added, name)}`,
    `- removed (${removed.length}): ${list(removed, name)}`,
    `- changed (${changed.length}): ${list(changed, (c) => `${name(c.record)} (${c.fields.join(", ")})`)}`,
    ...(byField.length > 0 ? [`- changed fields: ${byField.map(([field, count]) => `\`${field}\` ${count}`).join(", ")}`] : []),
  ];
}

/** The runtime loads the new build and reports its version. */
async function servedCheck(dist: string): Promise<string> {
  const app = createApp({ dist: loadDistFiles(dist) });
  try {
    const response = await app.fetch(new Request("http://localhost/hanja/v1/meta"));
    const meta = (await response.json()) as { data?: { unihan_version?: string; source?: string } };
    return `\`GET /hanja/v1/meta\` on the new build: ${response.status}, \`unihan_version\` ${meta.data?.unihan_version}, \`source\` "${meta.data?.source}".`;
  } finally {
    await app.close();
  }
}

function adoptionNote(version: string): string[] {
  return [
    "## Adopting it",
    "",
    `The default build, the tests' spot values and the README still pin Unihan 17.0.0; the test suite ran on that release.` +
      ` To adopt ${version} on this branch: change \`PINNED_VERSION\` (pipeline/load/resolveUnihan.ts) and the published totals the build` +
      ` checks (pipeline/validate/totals.ts), update the tests' spot values and the README, and give CI a copy of the release at` +
      ` \`../shared/unihan/Unihan-${version}.zip\`. To try the data first: \`DIST_DIR=.cache/dist-${version} npm start\`.`,
  ];
}

const USAGE = "usage: npx tsx .github/scripts/unihan-release-summary.ts --dist <new dist> [--baseline <dist>] [--out <file.md>]";

async function main(): Promise<void> {
  let values: { dist?: string; baseline?: string; out?: string };
  try {
    ({ values } = parseArgs({ options: { dist: { type: "string" }, baseline: { type: "string" }, out: { type: "string" } } }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  if (!values.dist) throw new UsageError(`--dist <folder of the new build> is required\n${USAGE}`);
  const markdown = await releaseSummary({ dist: values.dist, baseline: values.baseline });
  if (!values.out) return void process.stdout.write(markdown);
  await mkdir(dirname(values.out), { recursive: true });
  await writeFile(values.out, markdown);
  console.log(`unihan-release-summary: wrote ${values.out}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  await main().catch((error: unknown) => {
    if (!(error instanceof UsageError)) throw error;
    console.error(`unihan-release-summary: ${error.message}`);
    process.exit(2);
  });
}
