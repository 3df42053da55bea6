/** Shared benchmark machinery: start servers as real processes, load them, read their memory. */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";

export const ROOT = join(import.meta.dirname, "../..");
export const BIN = join(ROOT, "node_modules/.bin");

/**
 * Each runtime's name, command and the arguments before a program that reads `dataDir` and
 * listens on loopback with a memory store (a bundled server or a harness): Deno with only those
 * permissions.
 */
export function runtimeCommands(dataDir: string): [string, string, string[]][] {
  return [
    ["node", "node", []],
    ["bun", join(BIN, "bun"), []],
    ["deno", join(BIN, "deno"), ["run", `--allow-read=${dataDir}`, "--allow-env", "--allow-net=127.0.0.1"]],
  ];
}

export interface Started {
  url: string;
  proc: ChildProcess;
  /** Milliseconds from spawn to the first 200 on `readyPath`. */
  coldStartMs: number;
  stop(): Promise<void>;
}

// Servers this process started: killed when it exits, even after a failed run.
const children = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

/**
 * Spawns a server (PORT=0) and waits for its first successful answer on `readyPath`. The service
 * runs as it is configured by default, so with its access log (`ACCESS_LOG=0` in the environment
 * turns it off); stdout, where the log goes, is /dev/null.
 */
export async function startServer(command: string, args: string[], env: Record<string, string>, readyPath: string): Promise<Started> {
  const t0 = performance.now();
  const proc = spawn(command, args, { env: { ...process.env, PORT: "0", ...env }, stdio: ["ignore", "ignore", "pipe"] });
  children.add(proc);
  proc.on("exit", () => children.delete(proc));
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    proc.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /"url":"(http:\/\/[^"]+)"/.exec(stderr);
      if (match?.[1]) resolve(match[1]);
    });
    proc.on("exit", (code) => reject(new Error(`${command} ${args.join(" ")} exited with ${code}: ${stderr}`)));
  });
  for (;;) {
    try {
      if ((await fetch(url + readyPath)).status === 200) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 2));
  }
  const coldStartMs = performance.now() - t0;
  return {
    url,
    proc,
    coldStartMs,
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.on("exit", () => resolve());
        proc.kill("SIGTERM");
        setTimeout(() => proc.kill("SIGKILL"), 5000).unref();
      }),
  };
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** Requests answered during the run. */
  requests: number;
  /** CPU time the server process spent per answered request, in µs (when `server` was given). */
  cpuUs?: number;
}

/** The load generator: wrk (Debian package `wrk`, C, light on the shared CPU) when installed, else autocannon. */
export const LOAD_TOOL = spawnSync("wrk", ["--version"]).error ? "autocannon" : "wrk";

export interface LoadOptions {
  seconds?: number;
  /** Headers per path (round-robin with the paths). */
  headers?: Record<string, string>[];
  connections?: number;
  /**
   * The server's process: its CPU time (user + system, all threads) during the load is reported
   * per request. On a shared machine other tenants slow a server down by taking the CPU, which
   * lowers its requests/second but hardly changes the CPU each request takes.
   */
  server?: ChildProcess;
}

/** Loads `paths` (round-robin) with 50 connections for `seconds`. */
export async function load(url: string, paths: string[], options: LoadOptions = {}): Promise<LoadResult> {
  const before = options.server ? cpuMs(options.server.pid) : 0;
  const result = await (LOAD_TOOL === "wrk" ? loadWithWrk(url, paths, options) : loadWithAutocannon(url, paths, options));
  if (!options.server) return result;
  return { ...result, cpuUs: ((cpuMs(options.server.pid) - before) * 1000) / result.requests };
}

// Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on every Linux build in use).
const TICKS_PER_SECOND = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

/** User + system CPU time of a process so far, in ms (Linux /proc); NaN when unknown. */
export function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  // Fields after the command name (which may contain spaces) start at field 3; utime and stime are fields 14 and 15.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

async function loadWithWrk(url: string, paths: string[], options: LoadOptions): Promise<LoadResult> {
  const lua = join(tmpdir(), `hanja-bench-${process.pid}.lua`);
  const requests = paths.map((path, i) => {
    // wrk.format sends only the headers it is given: Host must be among them.
    const headers = { Host: new URL(url).host, ...(options.headers?.[i % options.headers.length] ?? {}) };
    const luaHeaders = Object.entries(headers)
      .map(([k, v]) => `[${JSON.stringify(k)}]=${JSON.stringify(v)}`)
      .join(",");
    return `wrk.format("GET", ${JSON.stringify(path)}, {${luaHeaders}})`;
  });
  writeFileSync(
    lua,
    `local reqs = {${requests.join(",")}}\nlocal i = 0\nrequest = function() i = i + 1; return reqs[(i % #reqs) + 1] end\n` +
      `done = function(s, latency, r) io.write(string.format('RESULT {"requests":%d,"us":%d,"p50":%f,"p99":%f,"non2xx":%d,"errors":%d}\\n', ` +
      `s.requests, s.duration, latency:percentile(50) / 1000, latency:percentile(99) / 1000, s.errors.status, s.errors.connect + s.errors.read + s.errors.write + s.errors.timeout)) end\n`,
  );
  const out = spawnSync("wrk", ["-t1", `-c${options.connections ?? 50}`, `-d${options.seconds ?? 5}s`, "-s", lua, url], { encoding: "utf8" });
  const line = /RESULT (\{.*\})/.exec(out.stdout)?.[1];
  if (!line) throw new Error(`wrk failed: ${out.stdout}${out.stderr}`);
  const r = JSON.parse(line) as { requests: number; us: number; p50: number; p99: number; non2xx: number; errors: number };
  return { rps: r.requests / (r.us / 1e6), p50: r.p50, p99: r.p99, non2xx: r.non2xx + r.errors, requests: r.requests };
}

async function loadWithAutocannon(url: string, paths: string[], options: LoadOptions): Promise<LoadResult> {
  const requests = paths.map((path, i) => ({ method: "GET" as const, path, headers: options.headers?.[i % options.headers.length] }));
  const result = await autocannon({ url, connections: options.connections ?? 50, duration: options.seconds ?? 5, requests });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, requests: result.requests.total };
}

/** Resident set size of a process in MB (Linux /proc). */
export function rssMb(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** One case's figures over the rounds of a benchmark, one entry per round. */
export interface Samples {
  rps: number[];
  p50: number[];
  p99: number[];
  /** NaN for a round measured without the server's process. */
  cpuUs: number[];
}

/** Load results collected by case over a benchmark's rounds, for their medians. */
export class Results {
  private readonly cases = new Map<string, Samples>();

  add(name: string, { rps, p50, p99, cpuUs = Number.NaN }: LoadResult): void {
    let samples = this.cases.get(name);
    if (samples === undefined) this.cases.set(name, (samples = { rps: [], p50: [], p99: [], cpuUs: [] }));
    samples.rps.push(rps);
    samples.p50.push(p50);
    samples.p99.push(p99);
    samples.cpuUs.push(cpuUs);
  }

  /** A case's figures; empty for a case never measured. */
  get(name: string): Samples {
    return this.cases.get(name) ?? { rps: [], p50: [], p99: [], cpuUs: [] };
  }

  /** Every case, in the order each was first measured. */
  entries(): IterableIterator<[string, Samples]> {
    return this.cases.entries();
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Prints rows as an aligned text table. */
export function table(rows: (string | number)[][]): string {
  const text = rows.map((r) => r.map((c) => (typeof c === "number" ? (Number.isInteger(c) ? String(c) : c.toFixed(c < 10 ? 2 : 0)) : c)));
  const widths = text[0]?.map((_, i) => Math.max(...text.map((r) => (r[i] ?? "").length))) ?? [];
  return text.map((r) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ")).join("\n");
}

/**
 * Creates `n` annual keys on a server started with ADMIN_TOKEN and TRUST_PROXY_HOPS=1 (each
 * application from its own forwarded address, then confirmed), so a load test is not cut off by
 * one key's daily limit.
 */
export async function annualKeys(url: string, n: number, adminToken: string, quizBase = "/quiz/v1"): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < n; i++) {
    const response = await fetch(`${url}${quizBase}/subscribe`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": `10.77.${i >> 8}.${i & 255}` },
      body: JSON.stringify({ name: `bench ${i}`, email: `bench${i}-${Date.now()}@example.com` }),
    });
    const body = (await response.json()) as { api_key: string; key: { id: string } };
    if (response.status !== 201) throw new Error(`subscribe failed: ${response.status} ${JSON.stringify(body)}`);
    const confirm = await fetch(`${url}${quizBase}/admin/keys/${body.key.id}/confirm`, { method: "POST", headers: { authorization: `Bearer ${adminToken}` } });
    if (confirm.status !== 200) throw new Error(`confirm failed: ${confirm.status}`);
    keys.push(body.api_key);
  }
  return keys;
}
