/**
 * The package's public entry: the portable core and its types (Web APIs only). Two subpaths hold
 * what needs more than Web APIs: `hanja-api/stores` (`openQuotaStore`, SQLite on demand) and
 * `hanja-api/node` (`loadDistFiles`, node:fs, which Node, Bun and Deno all provide).
 */
export { type App, createApp } from "./app.ts";
export { type AppOptions, type AccessLogEntry, AppOptionError } from "./appOptions.ts";
export { type ReadOptions, type ReaderData, readHanja } from "./read/readHanja.ts";
export type { ReadFormat } from "./read/formatReading.ts";
export type { ReadResult, ReadSegment } from "../format/records.ts";
export type { ServeInfo } from "./http/reply.ts";
export type { DistFiles, LoadedData } from "./data/load.ts";
export { DIST_FILES, DIST_FORMAT } from "../format/dist.ts";
export { MemoryQuotaStore } from "./quota/memoryStore.ts";
export {
  type Applicant,
  type ConsumeResult,
  type DailyUsage,
  DuplicateApplicationError,
  type KeyPatch,
  type KeyRecord,
  type KeyStatus,
  type Plan,
  type QuotaStore,
  type StoredKeyStatus,
  StoreUnavailableError,
} from "./quota/store.ts";
export type { Random } from "./util/random.ts";
export type { Compressors } from "./http/encoding.ts";
