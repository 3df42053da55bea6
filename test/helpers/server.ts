/**
 * Real server processes for the slow tests: the Node entry (`runtime/entry/node.ts` through the
 * tsx loader) on a free port, found from the `listening` line it prints on stderr.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { ROOT } from "./app.ts";

/** A server process started by `startServer`. */
export interface RunningServer {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  pid: number;
  /** Everything the process wrote to stderr so far (for failure messages). */
  stderr(): string;
  /** SIGTERM, then waits for the exit (SIGKILL after `graceMs`); resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

const running = new Set<RunningServer>();

/**
 * Starts `node --import tsx runtime/entry/node.ts` with `PORT=0`, `HOST=127.0.0.1`,
 * `ACCESS_LOG=0` and `env` on top of this process's environment; resolves once it listens.
 */
export function startServer(env: Record<string, string>, timeoutMs = 30_000): Promise<RunningServer> {
  const child = spawn(process.execPath, ["--import", "tsx", "runtime/entry/node.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ACCESS_LOG: "0", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
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
          const server = serverHandle(child, url, exit, () => exited, () => err);
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

function serverHandle(child: ChildProcess, url: string, exit: Promise<number | null>, exited: () => boolean, stderr: () => string): RunningServer {
  const server: RunningServer = {
    url,
    pid: child.pid as number,
    stderr,
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
