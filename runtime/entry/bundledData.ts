/**
 * The data that ships inside the installed package: its `dist/` folder, beside `lib/` (and, in a
 * checkout, the repository's own `dist/`, beside `runtime/`), found from this module's own URL so
 * it works whatever the host's working directory is.
 */
import { fileURLToPath } from "node:url";
import { type App, createApp } from "../core/app.ts";
import type { AppOptions } from "../core/appOptions.ts";
import type { DistFiles } from "../core/data/load.ts";
import { nodeCompressors } from "./compressors.ts";
import { loadDistFiles } from "./loadDist.ts";
import { page } from "../page/index.ts";

/** The folder of the bundled data: `<package>/dist`. */
export const BUNDLED_DIST_DIR: string = fileURLToPath(new URL("../../dist/", import.meta.url));

/**
 * The bundled data, for `createApp({ dist })`. Each file is read on first use: the first character
 * detail reads the manifest, the tables, the details and the idioms; the search indexes wait for
 * the first full-text search.
 */
export function loadBundledData(): DistFiles {
  return loadDistFiles(BUNDLED_DIST_DIR);
}

/**
 * An app with zero set-up: the bundled data, node:zlib's brotli and gzip, the process's memory for
 * the metrics (when `metricsToken` turns them on), the page for people (`hanja-api/page`), and a
 * memory quota store unless `options` names another. Any `AppOptions` field can be given.
 */
export function createBundledApp(options: Partial<AppOptions> = {}): App {
  return createApp({ dist: loadBundledData(), compressors: nodeCompressors, memoryUsage: () => process.memoryUsage(), page, ...options });
}
