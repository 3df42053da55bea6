/**
 * Distinct request targets, as a client trying to fill a server's caches sends them: each request
 * a target not sent before, on every route of interface A whose answers are remembered. Misses
 * (searches matching nothing, which are cheap to answer) and hits (pages of searches that match,
 * details with a junk parameter, word pages) alternate. `driveDistinct` sends them over a few
 * keep-alive connections for a bounded time and count.
 */
import { Agent, request } from "node:http";

const enc = encodeURIComponent;
/** Hangul syllables from a number: distinct numbers give distinct runs, three syllables long. */
const syllables = (n: number) => String.fromCharCode(0xac00 + (n % 11172), 0xac00 + (Math.floor(n / 11172) % 11172), 0xac00 + ((n * 7919) % 11172));
const HAN = ["水", "人", "學", "國", "日", "山", "大", "心"];

/**
 * The `n`-th distinct target (`base` is interface A's path, `/hanja/v1` by default). Of every ten,
 * three are word searches matching nothing (the cheapest to send and, before the caches counted
 * bytes, the costliest to remember), then one of each other kind.
 */
export function distinctTarget(n: number, base = "/hanja/v1"): string {
  const i = Math.floor(n / 10);
  const han = HAN[i % HAN.length] as string;
  switch (n % 10) {
    case 0:
    case 1:
    case 2:
      return `${base}/words?q=${enc(syllables(3 * i + (n % 10)))}`;
    case 3:
      return `${base}/idioms?q=zq${i.toString(36)}`;
    case 4:
      return `${base}/hanja?q=zq${i.toString(36)}`;
    case 5:
      return `${base}/hanja/${enc(han)}?junk=${i}`;
    case 6:
      return `${base}/words?char=${enc(han)}&page=${1 + (i % 10_000)}&per_page=${1 + (Math.floor(i / 10_000) % 50)}`;
    case 7:
      return `${base}/idioms?q=${enc(syllables(i).slice(0, 2))}`;
    case 8:
      return `${base}/hanja?q=water&page=${1 + (i % 10_000)}&per_page=${1 + (Math.floor(i / 10_000) % 50)}`;
    default:
      return `${base}/words?q=${enc(String.fromCharCode(0xac00 + (i % 11172)))}&page=${1 + (Math.floor(i / 11172) % 10_000)}`;
  }
}

/** What `driveDistinct` did: requests answered, by status class, and the time it took. */
export interface Driven {
  requests: number;
  statuses: Record<string, number>;
  failures: number;
  ms: number;
}

/**
 * Sends distinct targets (from `from`, in order) to `url` over `connections` keep-alive
 * connections until `seconds` have passed or `count` requests were answered.
 */
export async function driveDistinct(url: string, options: { seconds: number; count: number; connections?: number; from?: number }): Promise<Driven> {
  const { hostname, port } = new URL(url);
  const connections = options.connections ?? 4;
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  let next = options.from ?? 0;
  const last = next + options.count;
  const driven: Driven = { requests: 0, statuses: {}, failures: 0, ms: 0 };
  const one = (path: string) =>
    new Promise<void>((resolve) => {
      const req = request({ hostname, port, path, agent, timeout: 10_000 }, (res) => {
        res.resume();
        res.on("end", () => {
          const status = `${String(res.statusCode).slice(0, 1)}xx`;
          driven.statuses[status] = (driven.statuses[status] ?? 0) + 1;
          driven.requests++;
          resolve();
        });
        res.on("error", () => (driven.failures++, resolve()));
      });
      req.on("timeout", () => req.destroy());
      req.on("error", () => (driven.failures++, resolve()));
      req.end();
    });
  const worker = async () => {
    while (next < last && performance.now() < deadline) await one(distinctTarget(next++));
  };
  await Promise.all(Array.from({ length: connections }, worker));
  agent.destroy();
  driven.ms = performance.now() - started;
  return driven;
}
