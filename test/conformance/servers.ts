/**
 * The server programs the conformance suite runs, one launcher per way of shipping the API: the
 * source entry on Node, Bun and Deno, the esbuild bundle on each, and the compiled binary. Each
 * launcher spawns a real process with the suite's environment and nothing else of the operator's
 * configuration, and cleans up what it built when the server stops.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { buildBinary } from "../../scripts/build-binary.ts";
import { bundle } from "../../scripts/bundle.ts";
import { DENO_V8_OPTIONS, denoPermissions } from "../../scripts/start-deno.ts";
import { CONFIG_VARIABLES } from "../../runtime/entry/config.ts";
import { ROOT } from "../helpers/app.ts";
import { type RunningServer, type ServerCommand, spawnServer } from "../helpers/server.ts";

/** The server a launcher started: its base URL, and a graceful stop resolving with the exit code. */
export interface ConformanceServer {
  url: string;
  pid?: number;
  stop(): Promise<number | null>;
}

/**
 * Starts one server with `env` (at least `QUOTA_DB`, whose directory is the only place it may
 * write) on top of `PORT=0`, `HOST=127.0.0.1`, `ACCESS_LOG=0`, `QUOTA_STORE=sqlite`.
 */
export type StartServer = (
  env: Record<string, string>,
  options?: LaunchOptions,
) => Promise<ConformanceServer & Pick<RunningServer, "kill" | "exit" | "stderr" | "stdout">>;

/** How a launcher runs its server beyond the environment: whether stdout (the access log) is kept. */
export type LaunchOptions = Pick<ServerCommand, "keepStdout">;

export const BUN = join(ROOT, "node_modules/.bin/bun");
export const DENO = join(ROOT, "node_modules/.bin/deno");

/** A server's environment: `env` over the defaults, and no server variable leaking in from the environment running the tests. */
export function environment(env: Record<string, string>): Record<string, string | undefined> {
  const inherited: Record<string, string | undefined> = { ...process.env };
  for (const name of CONFIG_VARIABLES) delete inherited[name];
  return { ...inherited, PORT: "0", HOST: "127.0.0.1", ACCESS_LOG: "0", QUOTA_STORE: "sqlite", ...env };
}

function dbDir(env: Record<string, string>): string {
  const db = env["QUOTA_DB"];
  if (db === undefined) throw new Error("conformance servers need QUOTA_DB");
  return dirname(db);
}

/**
 * The command serving from source on `runtime`, as the npm scripts run it once dist/ is built:
 * `node --import tsx runtime/entry/server.ts` (`npm start`), `bun runtime/entry/server.ts`
 * (`npm run start:bun`), `deno run … runtime/entry/server.ts` with the V8 options and permissions
 * `npm run start:deno` gives the environment `env`.
 */
export function sourceCommand(runtime: "node" | "bun" | "deno", env: Record<string, string | undefined>): { command: string; args: string[] } {
  const entry = "runtime/entry/server.ts";
  if (runtime === "node") return { command: process.execPath, args: ["--import", "tsx", entry] };
  if (runtime === "bun") return { command: BUN, args: [entry] };
  return { command: DENO, args: ["run", ...DENO_V8_OPTIONS, ...denoPermissions(env), entry] };
}

function source(runtime: "node" | "bun" | "deno"): StartServer {
  return (env, options) => spawnServer({ ...sourceCommand(runtime, environment(env)), env: environment(env), ...options });
}

/** How a server command that must not start serving ended: its exit code and its output. */
export interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a server command to its exit (within 30 s), in `cwd`, as another uid and gid when `user` says so. */
export function runToExit(
  command: string,
  args: readonly string[],
  env: Record<string, string | undefined>,
  cwd: string,
  user: { uid?: number; gid?: number } = {},
): Promise<Exited> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, timeout: 30_000, ...user }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

export const nodeSource = source("node");
export const bunSource = source("bun");
export const denoSource = source("deno");

/**
 * The esbuild bundle on `runtime`, built into a fresh folder inside the project (Node 20 resolves
 * the external `better-sqlite3` from the project's node_modules); the bundle finds dist/ by
 * walking up from its own folder, so no `DIST_DIR` is set, and runs from the database folder.
 */
export function bundled(runtime: "node" | "bun" | "deno"): StartServer {
  return (env, options) => {
    mkdirSync(join(ROOT, ".cache"), { recursive: true });
    const dir = mkdtempSync(join(ROOT, ".cache", "conformance-bundle-"));
    return startCleaningUp(
      [dir],
      async () => {
        const file = await bundle(join(dir, "hanja-api.mjs"));
        const [command, args] =
          runtime === "node"
            ? [process.execPath, [file]]
            : runtime === "bun"
              ? [BUN, [file]]
              : [DENO, ["run", ...DENO_V8_OPTIONS, ...denoPermissions(environment(env), [dir, join(ROOT, "dist")]), file]];
        return { command, args, cwd: dbDir(env), env: environment(env) };
      },
      options,
    );
  };
}

/**
 * The `bun build --compile` executable, built into a temporary folder and run from another,
 * empty one, with no `DIST_DIR`: nothing beside it is needed to serve every operation.
 */
export const compiledBinary: StartServer = (env, options) => {
  const binDir = mkdtempSync(join(tmpdir(), "hanja-binary-"));
  const emptyDir = mkdtempSync(join(tmpdir(), "hanja-binary-cwd-"));
  return startCleaningUp(
    [binDir, emptyDir],
    async () => ({
      command: await buildBinary(join(binDir, "hanja-api")),
      args: [],
      cwd: emptyDir,
      env: environment(env),
    }),
    options,
  );
};

/** Builds what `prepare` needs and spawns the server; `stop` (or a failed start) also removes `dirs`. */
async function startCleaningUp(dirs: readonly string[], prepare: () => Promise<ServerCommand>, options?: LaunchOptions): Promise<RunningServer> {
  const remove = () => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  let server: RunningServer;
  try {
    server = await spawnServer({ ...(await prepare()), ...options });
  } catch (error) {
    remove();
    throw error;
  }
  const stop = server.stop.bind(server);
  return {
    ...server,
    async stop(graceMs?: number) {
      const code = await stop(graceMs);
      remove();
      return code;
    },
  };
}
