/** The package's public entry: the portable core and its types. */
export { type App, type AppOptions, type AccessLogEntry, type ServeInfo, createApp } from "./app.ts";
export type { DistFiles, LoadedData } from "./data/load.ts";
export { DIST_FILES, DIST_FORMAT } from "./data/format.ts";
