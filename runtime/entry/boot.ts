/**
 * What every server entry point does before it listens: `--help`, configuration, `dist/`, the
 * quota store, the app, the access log. Runs on Node, Bun and Deno (node: built-ins only).
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type App, createApp } from "../core/app.ts";
import { AppOptionError } from "../core/appOptions.ts";
import { DIST_FILES } from "../format/dist.ts";
import { page } from "../page/index.ts";
import type { DistFiles } from "../core/data/load.ts";
import { openStore, optionsFrom, storeKind } from "../stores/registry.ts";
import { type AccessLog, createAccessLog } from "./accessLog.ts";
import { nodeCompressors } from "./compressors.ts";
import type { Listening } from "./listening.ts";
import { loadDistFiles } from "./loadDist.ts";
import { CONFIG_HELP, ConfigError, type ServerConfig, appOptionsFrom, binaryConfigHelp, binaryQuotaDb, readConfig } from "./config.ts";
import { variableOf } from "./settings.ts";

export interface Booted {
  app: App;
  config: ServerConfig;
  log: AccessLog;
}

export interface BootOptions {
  /** The runtime's name for messages (`node`, `bun`, `deno`, `binary`). */
  runtime: string;
  env: Record<string, string | undefined>;
  argv: readonly string[];
  /** Data already in memory (the compiled binary), served unless `DIST_DIR` is set; otherwise read from `DIST_DIR` or the nearest dist/. */
  dist?: DistFiles | undefined;
  /** The licence texts the compiled binary carries, which `--licenses` prints. */
  licenses?: readonly LicenseText[] | undefined;
}

/** One licence text the binary carries, and what it covers. */
export interface LicenseText {
  covers: string;
  text: string;
}

/** Prints `--help` and exits, or returns the app ready to serve; a bad setting exits with status 2. */
export async function boot(options: BootOptions): Promise<Booted> {
  if (options.argv.includes("--help") || options.argv.includes("-h")) {
    const binary = options.runtime === "binary";
    const help = binary ? binaryConfigHelp(options.env) : CONFIG_HELP;
    const what = binary ? "the Hanja and idiom API server, its data built in (copy this one file anywhere)" : "the Hanja and idiom API server";
    const usage = binary
      ? "serve with the environment below; no arguments (--licenses prints the licences of the code and data built in)"
      : "serve with the environment below; no arguments";
    console.log(`hanja-api (${options.runtime}): ${what}.\n\nUsage: ${usage}.\n\n${help}`);
    process.exit(0);
  }
  if (options.argv.length === 1 && options.argv[0] === "--licenses") {
    if (options.licenses === undefined) {
      console.error('hanja-api: --licenses is the compiled binary\'s; here the licences are files of the checkout (README.md "Licences", docs/data.md)');
      process.exit(2);
    }
    console.log(options.licenses.map(({ covers, text }) => `==> ${covers} <==\n\n${text.trimEnd()}\n`).join("\n"));
    process.exit(0);
  }
  // Settings come from the environment only: an argument (`--port 3000`) would otherwise be
  // ignored without a word and the server start on another port than the one asked for.
  if (options.argv.length > 0) {
    console.error(
      `hanja-api: unexpected argument ${JSON.stringify(options.argv[0])}: the server takes its settings from the environment (PORT=3000, HOST=…); --help lists them`,
    );
    process.exit(2);
  }
  let config: ServerConfig;
  try {
    config = readConfig(options.env, options.runtime === "binary" ? { quotaDb: binaryQuotaDb(options.env) } : {});
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`hanja-api: invalid configuration: ${error.message}`);
    process.exit(2);
  }
  // DIST_DIR, when set, is read on every runtime, the compiled binary included (it then serves
  // that data instead of the data built into it).
  const distVariable = config.distDir !== undefined ? "DIST_DIR" : undefined;
  const dist =
    config.distDir === undefined && options.dist !== undefined
      ? options.dist
      : await startupStep(distVariable, () => loadDistFiles(config.distDir ?? findDist(dirname(fileURLToPath(import.meta.url)))));
  const kind = storeKind(config.quotaStore);
  const storeOptions = optionsFrom(kind, config);
  const store = await startupStep(kind.variables[0]?.name, async () => {
    try {
      return await openStore(kind, storeOptions);
    } catch (error) {
      throw new Error(`cannot open ${kind.where(storeOptions)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  const log = createAccessLog(config.accessLog);
  const app = await startupStep(appErrorVariable(distVariable), () =>
    createApp({
      ...appOptionsFrom(config),
      dist,
      store,
      storeKind: config.quotaStore,
      memoryUsage: () => process.memoryUsage(),
      log: config.accessLog ? log.write : undefined,
      compressors: nodeCompressors,
      page,
      onError: (error, requestId) => console.error(JSON.stringify({ level: "error", request_id: requestId, error: String((error as Error)?.stack ?? error) })),
    }),
  );
  return { app, config, log };
}

/**
 * Runs one start-up step; when it fails, start-up stops with exit status 2 and one line naming
 * the variable behind the step (DIST_DIR, QUOTA_DB) when there is one, instead of a stack trace.
 */
async function startupStep<T>(variable: string | ((error: unknown) => [string | undefined, string]) | undefined, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const thrown = error instanceof Error ? error.message : String(error);
    const [named, message] = typeof variable === "function" ? variable(error) : [variable, thrown];
    console.error(named ? `hanja-api: invalid configuration: ${named}: ${message}` : `hanja-api: ${message}`);
    process.exit(2);
  }
}

/**
 * Which variable a createApp error is about, and what to say: the variable behind the option an
 * `AppOptionError` names (hanjaBase is HANJA_BASE) with its detail, else the data (DIST_DIR when set).
 */
function appErrorVariable(distVariable: string | undefined): (error: unknown) => [string | undefined, string] {
  return (error) => {
    const variable = error instanceof AppOptionError ? variableOf(error.option) : undefined;
    if (variable !== undefined && error instanceof AppOptionError) return [variable, error.detail];
    return [distVariable, error instanceof Error ? error.message : String(error)];
  };
}

/** The nearest `dist/` with a manifest, looking up from `start` (source tree or bundle folder). */
export function findDist(start: string): string {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (visible(join(dir, DIST_FILES.manifest))) return dir;
    if (visible(join(dir, "dist", DIST_FILES.manifest))) return join(dir, "dist");
    if (dirname(dir) === dir) return join(process.cwd(), "dist");
  }
}

/** `existsSync`, but false where the runtime forbids the look-up (Deno throws without `--allow-read` there). */
function visible(path: string): boolean {
  try {
    return existsSync(path);
  } catch {
    return false;
  }
}

/**
 * How long the server goes on serving after a signal before it stops accepting. Requests that
 * reached the machine just before the signal may not be read yet: their connections wait in the
 * listen queue, or their bytes in a socket, while the event loop was busy. Stopping at once would
 * close those connections unanswered (Deno.serve drops every connection with no request read yet,
 * node:http resets the queued ones); in this moment they are read and become in-flight requests.
 */
export const DRAIN_MS = 100;

/**
 * Installs SIGINT/SIGTERM handlers that drain, stop accepting, finish in-flight requests, then close
 * the store. Connections still open `config.shutdownTimeoutMs` after the signal (a client that
 * never finishes sending its request, or a download that does not end) are closed then, so that a
 * supervisor's stop is never held up by a client.
 */
export function onShutdown(listening: Listening, booted: Booted): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(JSON.stringify({ level: "info", msg: `${signal}: finishing in-flight requests` }));
    listening.drain();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), booted.config.shutdownTimeoutMs)));
    const stopped = new Promise((resolve) => setTimeout(resolve, DRAIN_MS)).then(() => listening.stop());
    // A failure of stop() after the time ran out has nothing left to change.
    stopped.catch(() => {});
    Promise.race([stopped, timedOut])
      .then((outcome) => {
        clearTimeout(timer);
        if (outcome !== "timeout") return;
        const seconds = booted.config.shutdownTimeoutMs / 1000;
        console.error(JSON.stringify({ level: "warn", msg: `${signal}: connections still open after ${seconds} s (SHUTDOWN_TIMEOUT) are closed` }));
        listening.abort();
      })
      .then(() => booted.app.close())
      .then(() => booted.log.flush())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
  };
  process.on("SIGINT", () => handler("SIGINT"));
  process.on("SIGTERM", () => handler("SIGTERM"));
}
