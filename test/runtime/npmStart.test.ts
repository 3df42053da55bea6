/**
 * `npm start` under a service manager: SIGTERM or SIGINT sent to the `npm` process (not to its
 * group) reaches the server, which stops gracefully and closes its port, and npm exits with the
 * server's status. The script is `exec tsx …`, so no shell stands between npm, which passes the
 * signal to its child, and tsx, which passes it to the server.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { connect } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { ROOT } from "../helpers/app.ts";

const started = new Set<ChildProcess>();

afterEach(() => {
  // Whatever a failed test left running: npm's whole process group (it was started as its leader).
  for (const child of started) {
    try {
      process.kill(-(child.pid as number), "SIGKILL");
    } catch {}
  }
  started.clear();
});

/** `npm start` as its own process group's leader, on a free port; resolves with its URL once it listens. */
function npmStart(env: Record<string, string>): Promise<{ child: ChildProcess; port: number; stderr: () => string; exit: Promise<number | null> }> {
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ACCESS_LOG: "0", QUOTA_STORE: "memory", DIST_DIR: join(ROOT, "dist"), ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  started.add(child);
  let err = "";
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not listen within 45 s:\n${err}`)), 45_000);
    void exit.then((code) => reject(new Error(`npm start exited with ${code} before listening:\n${err}`)));
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      err += chunk;
      const port = /"msg":"listening","url":"http:\/\/127\.0\.0\.1:(\d+)"/.exec(err)?.[1];
      if (port !== undefined) {
        clearTimeout(timer);
        resolve({ child, port: Number(port), stderr: () => err, exit });
      }
    });
  });
}

/** Whether something accepts connections on the port. */
function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("npm start", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    test(`${signal} to the npm process stops the server gracefully: its port closes and npm exits 0`, { timeout: 90_000 }, async () => {
      const { child, port, stderr, exit } = await npmStart({});
      expect((await fetch(`http://127.0.0.1:${port}/hanja/v1/meta`)).status).toBe(200);
      // To npm alone, as a service manager stopping it does (not to the process group, as a terminal's Ctrl-C).
      process.kill(child.pid as number, signal);
      const code = await Promise.race([exit, new Promise<"running">((resolve) => setTimeout(() => resolve("running"), 20_000))]);
      expect(code, stderr()).toBe(0);
      expect(stderr()).toContain(`${signal}: finishing in-flight requests`);
      // The server is gone with npm, not left running on its port.
      expect(await accepting(port)).toBe(false);
    });
  }

  test("exits with the server's status when the server stops on its own", { timeout: 60_000 }, async () => {
    const child = spawn("npm", ["start"], {
      cwd: ROOT,
      detached: true,
      env: { ...process.env, PORT: "not-a-port", DIST_DIR: join(ROOT, "dist") },
      stdio: ["ignore", "ignore", "pipe"],
    });
    started.add(child);
    let err = "";
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => void (err += chunk));
    const code = await new Promise<number | null>((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));
    expect(code, err).toBe(2);
    expect(err).toContain('PORT: must be a whole number from 0 to 65535, got "not-a-port"');
  });
});
