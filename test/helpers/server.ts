/**
 * Real server processes for the slow tests, found from the `listening` line every server prints
 * on stderr (stdout, the access log, is ignored unless asked for): `startServer` runs the Node
 * entry (`runtime/entry/server.ts` through the tsx loader) on a free port; `spawnServer` runs any
 * server command (Bun, Deno, the bundle, the binary).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { connect } from "node:net";
import { ROOT } from "./app.ts";

/** A server process started by `startServer`. */
export interface RunningServer {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  pid: number;
  /** Everything the process wrote to stderr so far (for failure messages). */
  stderr(): string;
  /** Everything it wrote to stdout so far (the access log); empty unless the command kept stdout. */
  stdout(): string;
  /** SIGTERM, then waits for the exit (SIGKILL after `graceMs`); resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
  /** Sends a signal without waiting (see `exit`). */
  kill(signal: NodeJS.Signals): void;
  /** Resolves with the exit code (null when a signal ended the process). */
  exit: Promise<number | null>;
}

/** What `spawnServer` runs. */
export interface ServerCommand {
  command: string;
  args: readonly string[];
  /** Working directory, default the project root. */
  cwd?: string;
  /** The whole environment of the process: nothing is inherited. */
  env: Record<string, string | undefined>;
  /** How long to wait for the `listening` line, default 30 s. */
  timeoutMs?: number;
  /** Keep what the server writes to stdout (`RunningServer.stdout`); default: stdout is ignored. */
  keepStdout?: boolean;
}

const running = new Set<RunningServer>();

/**
 * Starts `node --import tsx runtime/entry/server.ts` with `PORT=0`, `HOST=127.0.0.1`,
 * `ACCESS_LOG=0` and `env` on top of this process's environment; resolves once it listens.
 */
export function startServer(env: Record<string, string>, timeoutMs = 30_000): Promise<RunningServer> {
  return spawnServer({
    command: process.execPath,
    args: ["--import", "tsx", "runtime/entry/server.ts"],
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ACCESS_LOG: "0", ...env },
    timeoutMs,
  });
}

/** Starts a server command (stderr kept, stdout when asked) and resolves once it prints its `listening` line. */
export function spawnServer({ command, args, cwd = ROOT, env, timeoutMs = 30_000, keepStdout = false }: ServerCommand): Promise<RunningServer> {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", keepStdout ? "pipe" : "ignore", "pipe"] });
  let err = "";
  let out = "";
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (chunk: string) => void (out += chunk));
  let exited = false;
  const exit = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      exited = true;
      resolve(code);
    }),
  );
  return new Promise<RunningServer>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not listen within ${timeoutMs} ms:\n${err}`));
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    void exit.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${err}`));
    });
    child.stderr?.setEncoding("utf8");
    let pending = "";
    child.stderr?.on("data", (chunk: string) => {
      err += chunk;
      pending += chunk;
      let newline: number;
      while ((newline = pending.indexOf("\n")) !== -1) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        const url = listeningUrl(line);
        if (url) {
          clearTimeout(timer);
          const server = serverHandle(
            child,
            url,
            exit,
            () => exited,
            () => err,
            () => out,
          );
          running.add(server);
          resolve(server);
        }
      }
    });
  });
}

function listeningUrl(line: string): string | null {
  if (!line.startsWith("{")) return null;
  try {
    const record = JSON.parse(line) as { msg?: string; url?: string };
    return record.msg === "listening" && typeof record.url === "string" ? record.url : null;
  } catch {
    return null;
  }
}

function serverHandle(
  child: ChildProcess,
  url: string,
  exit: Promise<number | null>,
  exited: () => boolean,
  stderr: () => string,
  stdout: () => string,
): RunningServer {
  const server: RunningServer = {
    url,
    pid: child.pid as number,
    stderr,
    stdout,
    exit,
    kill: (signal) => void child.kill(signal),
    async stop(graceMs = 10_000) {
      running.delete(server);
      if (exited()) return exit;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      const code = await exit;
      clearTimeout(timer);
      return code;
    },
  };
  return server;
}

/** Stops every server this module started that is still running. */
export async function stopAllServers(): Promise<void> {
  await Promise.all([...running].map((server) => server.stop()));
}

/**
 * Writes `request` (raw HTTP/1.1, text or bytes such as raw UTF-8 an HTTP client would encode) on a
 * new connection and resolves with everything the server sent until it closed the connection.
 */
export function rawExchange(port: number, request: string | Buffer, host = "127.0.0.1"): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", reject);
  });
}
