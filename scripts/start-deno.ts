/**
 * `npm run start:deno`: builds dist/ when it is missing or stale (unless DIST_DIR names the data),
 * then serves on Deno with the narrowest permissions this configuration needs (`denoPermissions`).
 * SIGINT and SIGTERM are passed on to the server, which stops gracefully; its exit status is ours.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CONFIG_VARIABLES, type ServerConfig, readConfig } from "../runtime/entry/config.ts";
import { HEAP_GROWING_PERCENT } from "../runtime/entry/oldGeneration.ts";
import { type StoreNeeds, optionsFrom, storeKind } from "../runtime/stores/registry.ts";
import { ROOT, ensureServedDist } from "./ensureDist.ts";

/**
 * Deno's permissions for the server under `env`: read `code` (the folders the program and the
 * project's dist/ are in), `DIST_DIR` and what the quota store kind needs (the SQLite database's
 * folder; nothing for `memory`); write only what the store needs to write; read the configuration
 * variables; listen on `HOST` and reach only the hosts the store needs. An invalid configuration
 * gets no more than `code` to read and an open network: the server stops at start naming the bad
 * variable, before it reads data, opens the store or listens.
 */
export function denoPermissions(env: Record<string, string | undefined>, code: readonly string[] = ["."]): string[] {
  const config = validConfig(env);
  const needs: StoreNeeds = config === undefined ? { read: [], write: [], net: [] } : storeNeeds(config);
  const writes = needs.write.map((path) => normalize(path));
  const reads = [...new Set([...code, ...(config?.distDir ? [config.distDir] : []), ...needs.read.map((path) => normalize(path)), ...writes])];
  return [
    "--no-prompt",
    `--allow-read=${reads.join(",")}`,
    ...(writes.length > 0 ? [`--allow-write=${writes.join(",")}`] : []),
    `--allow-env=${[...CONFIG_VARIABLES, ...(needs.env ?? [])].join(",")}`,
    allowNet(config?.host, needs.net),
  ];
}

/**
 * V8's options for the Deno server, which Deno takes on its command line only (its `node:v8`
 * `setFlagsFromString` changes nothing): as the Node server sets for itself
 * (runtime/entry/oldGeneration.ts, youngGeneration.ts), the old generation is collected once it has
 * grown 20 % past what survived the last collection, and the young generation's semi-spaces stay
 * within 4 MB. Without them V8 lets the old generation grow to four times what survived and the
 * young one to 32 MB, and a client sending distinct targets (remembered answers made and evicted
 * as they age) grew Deno several times past its idle size with the caches within their ceiling;
 * with them it stays within the conformance test's bound (see RESULTS.md, "Memory under distinct
 * targets").
 */
export const DENO_V8_OPTIONS: readonly string[] = [`--v8-flags=--heap-growing-percent=${HEAP_GROWING_PERCENT},--max-semi-space-size=4`];

/** What the configured store kind needs from the runtime. */
function storeNeeds(config: ServerConfig): StoreNeeds {
  const kind = storeKind(config.quotaStore);
  return kind.needs(optionsFrom(kind, config));
}

function validConfig(env: Record<string, string | undefined>): ServerConfig | undefined {
  try {
    return readConfig(env);
  } catch {
    return undefined;
  }
}

/**
 * Listening on `host` alone (an IPv6 address in brackets) and reaching the store's hosts, or the
 * whole network when there is no valid host.
 */
function allowNet(host: string | undefined, reach: readonly string[] = []): string {
  if (host === undefined || !/^[\w.:[\]-]+$/.test(host)) return "--allow-net";
  const listen = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return `--allow-net=${[...new Set([listen, ...reach])].join(",")}`;
}

/** The project's own Deno (a development dependency), else the one on PATH. */
function denoCommand(): string {
  const local = join(ROOT, "node_modules/.bin/deno");
  return existsSync(local) ? local : "deno";
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (!args.includes("--help") && !args.includes("-h")) await ensureServedDist();
  const child = spawn(denoCommand(), ["run", ...DENO_V8_OPTIONS, ...denoPermissions(process.env, [ROOT]), join(ROOT, "runtime/entry/server.ts"), ...args], {
    stdio: "inherit",
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  child.on("error", (error) => {
    console.error(`hanja-api: cannot run deno: ${error.message}`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => process.exit(code ?? (signal === "SIGINT" ? 130 : 143)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) await main();
