/**
 * What a kind of quota store declares about itself (one `kind.ts` per driver folder, listed in
 * `registry.ts`). Configuration, `--help`, start-up, `npm run start:deno`'s Deno permissions and
 * the `keys` CLI are all derived from these declarations. Declarations import no driver: `open`
 * loads it when the kind is chosen, so choosing one kind never loads another's code.
 */
import type { QuotaStore } from "../core/quota/store.ts";

/** One environment variable a kind reads. */
export interface StoreVariable<O extends string = string> {
  /** The variable, e.g. `QUOTA_DB`. The server's configuration carries its value as camelCase (`quotaDb`). */
  name: string;
  /** The option of `open` it sets (`path`). */
  option: O;
  /** The value when unset or empty; none: the option is left out. */
  default?: string;
  /** `--help` text after the name; later lines of it are indented by the help's layout. */
  help: string;
  /**
   * A secret (a password or a URL holding one): never printed, not in `--help`'s defaults, not in
   * configuration errors, not in start-up messages or logs.
   */
  secret?: boolean;
  /** What a valid value is when `value` is not one (`must be a redis:// URL`), else undefined. */
  check?: (value: string) => string | undefined;
  /** The `keys` CLI option that sets it (`db` for `--db <path>`), with its value's name. */
  flag?: { name: string; value: string };
}

/** What a kind needs from the runtime beyond the program's own files (Deno's permissions follow from it). */
export interface StoreNeeds {
  /** Folders or files it only reads. */
  read: string[];
  /** Folders or files it reads and writes (created when missing). */
  write: string[];
  /** Hosts it connects to, `host:port`. */
  net: string[];
  /** Environment variables its driver reads, beyond the kind's own (a client library's switches). */
  env?: string[];
}

/** How a caller uses the store it opens. */
export interface OpenUse {
  /** The store must already exist (the CLI): a missing one is a `StoreNotFoundError`, not a new empty store. */
  existing?: boolean;
  /** Only reads (the CLI's `list` and `show`): a store that may not be written is fine. */
  readOnly?: boolean;
  /**
   * A tool that may wait on another program's lock (the CLI, up to 5 s), not a server, which must
   * answer interface A meanwhile and so waits only briefly (then StoreUnavailableError).
   */
  patient?: boolean;
  /** A one-off command (the CLI): a store that cannot be reached now is an error, not one to wait for. */
  oneOff?: boolean;
}

/** One kind of quota store. `O` names its `open` options. */
export interface StoreKind<O extends string = string> {
  /** The value of `QUOTA_STORE` that picks it. */
  name: string;
  /** One line for `--help` and the docs: what it is for. */
  summary: string;
  /** The variables it reads; the first is the one start-up names when the store cannot be opened. */
  variables: readonly StoreVariable<O>[];
  /**
   * Whether another process (the `keys` CLI, a second server) can reach the keys and counters a
   * server keeps in it. The CLI refuses a kind that is not shared.
   */
  shared: boolean;
  /**
   * The bound on each operation, in milliseconds, when operations answer with a promise: the
   * service answers `503` for an operation that has not settled by then (`boundedStore`). The
   * store keeps the bound itself first; see the failure contract on `QuotaStore`. Omitted for a
   * kind whose operations answer synchronously (nothing waits on a promise).
   */
  timeoutMs?: number;
  /** What it needs from the runtime for these options. */
  needs(options: Partial<Record<O, string>>): StoreNeeds;
  /** Where the store is, for messages: never a secret. */
  where(options: Partial<Record<O, string>>): string;
  /** Opens it. Fails with a message naming what is wrong (never a secret). */
  open(options: Partial<Record<O, string>>, use?: OpenUse): Promise<QuotaStore>;
}

/** Raised by `open` with `existing` when there is no store yet; the CLI says which option to set. */
export class StoreNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreNotFoundError";
  }
}

/** The folder a file path is in, as written (`./.data/quota.sqlite` → `./.data`, `quota.sqlite` → `.`). */
export function folderOf(path: string): string {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  if (cut === -1) return ".";
  return cut === 0 ? path.slice(0, 1) : path.slice(0, cut);
}
