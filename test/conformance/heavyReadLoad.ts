/**
 * The reader's heavy load, for the fairness test and its benchmark: clients posting long texts to
 * `POST /read` in a loop (each on a keep-alive connection of its own, its answers read and
 * dropped, a `429` sent again at once as an adversary would), and a client timing one light
 * request after another beside them. Raw node:http, so the load costs the measuring process little.
 */
import { execFile } from "node:child_process";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { loadData } from "../../runtime/core/data/load.ts";
import { loadDistFiles } from "../../runtime/entry/loadDist.ts";
import { ROOT } from "../helpers/app.ts";

/** The answer to one request: its status, `Retry-After`, and the milliseconds from sending to the answer's last byte. */
export interface Timed {
  status: number;
  retryAfter: string | undefined;
  ms: number;
}

/** Sends one request on `agent` and reads its whole answer (dropping it). */
export function timedRequest(url: string, agent: Agent, method: string, path: string, body?: string, contentType = "text/plain"): Promise<Timed> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? {} : { "Content-Type": contentType, "Content-Length": String(Buffer.byteLength(body)) };
    const sent = request(`${url}${path}`, { method, agent, headers }, (response) => {
      response.on("data", () => {});
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, retryAfter: response.headers["retry-after"] as string | undefined, ms: performance.now() - started }),
      );
      response.on("error", reject);
    });
    sent.on("error", reject);
    sent.end(body);
  });
}

/** What the heavy clients got. */
export interface HeavyOutcome {
  /** Count of answers by status. */
  statuses: Record<number, number>;
  /** The `Retry-After` values the `429`s carried. */
  retryAfter: Set<string>;
}

/** Runs `heavyClients` in a process of its own at a lower priority (`nice`) for `ms`; resolves with its outcome. */
export function heavyLoadProcess(url: string, clients: number, ms: number): Promise<{ statuses: Record<number, number>; retryAfter: string[] }> {
  return new Promise((resolve, reject) => {
    execFile(
      "nice",
      ["-n", "10", process.execPath, "--import", "tsx", import.meta.filename, url, String(clients), String(ms)],
      { cwd: ROOT, timeout: ms + 20_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout))),
    );
  });
}

/** `clients` loops posting `text` to `/hanja/v1/read?format=ruby` until `stop()`; resolves when every loop has its last answer. */
export function heavyClients(url: string, text: string, clients: number): { stop(): Promise<HeavyOutcome> } {
  const outcome: HeavyOutcome = { statuses: {}, retryAfter: new Set() };
  let stopping = false;
  const loops = Array.from({ length: clients }, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      while (!stopping) {
        const answer = await timedRequest(url, agent, "POST", "/hanja/v1/read?format=ruby", text);
        outcome.statuses[answer.status] = (outcome.statuses[answer.status] ?? 0) + 1;
        if (answer.status === 429) {
          outcome.retryAfter.add(String(answer.retryAfter));
          // Sent again at once: a client that ignores Retry-After must not get more than its share.
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    } finally {
      agent.destroy();
    }
  });
  return {
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
      return outcome;
    },
  };
}

/** GETs `path` one after the other for `forMs` (a pause of `pauseMs` between two), and gives each answer's time. */
export async function lightRequests(url: string, path: string, forMs: number, pauseMs = 10): Promise<Timed[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const answers: Timed[] = [];
  const until = performance.now() + forMs;
  try {
    while (performance.now() < until) {
      answers.push(await timedRequest(url, agent, "GET", path));
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  } finally {
    agent.destroy();
  }
  return answers;
}

/** The `p`-th percentile (0–100) of `values`, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

const data = once(() => loadData(loadDistFiles(join(ROOT, "dist"))));

/** The characters of the dataset (its 8,525 records). */
export function datasetCharacters(): string[] {
  return [...data().characters.characters];
}

/** `length` characters of `characters` drawn in a seeded order (the "random Han characters"). */
export function randomText(characters: readonly string[], length: number, seed = 1): string {
  let state = seed;
  return Array.from({ length }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return characters[Math.floor((state / 2 ** 31) * characters.length)] as string;
  }).join("");
}

/** The dictionary's words of two or more characters, in listed order: `[hanja, readings]`. */
export function dictionaryWords(): [string, string[]][] {
  const { words } = data();
  const found: [string, string[]][] = [];
  for (let position = 0; position < words.count; position++) {
    const { hanja, readings } = words.word(position);
    if ([...hanja].length >= 2) found.push([hanja, readings]);
  }
  return found;
}

function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/**
 * Run as a program (`node --import tsx heavyReadLoad.ts <url> <clients> <ms>`): `clients` heavy
 * clients posting 20,000 random characters for `ms`, then the outcome as JSON on stdout. The tests
 * run it as a process of its own, at a lower priority, so that the load it makes is the server's
 * to bear and not the measuring process's.
 */
if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  const [url, clients, ms] = process.argv.slice(2);
  const heavy = heavyClients(url as string, randomText(datasetCharacters(), 20_000), Number(clients));
  setTimeout(async () => {
    const outcome = await heavy.stop();
    process.stdout.write(JSON.stringify({ statuses: outcome.statuses, retryAfter: [...outcome.retryAfter] }));
  }, Number(ms));
}

/**
 * The reader's three loads: every character of the dataset as one text; 300 words of several
 * readings drawn across the dictionary as one text (each word's reading is chosen); and five texts
 * of distinct words of one reading, each under 20,000 characters (about 28,000 words in all).
 */
export function readerLoadTexts(): { everyCharacter: string; severalText: string; distinctTexts: string[] } {
  const words = dictionaryWords();
  const several = words.filter(([, readings]) => readings.length > 1);
  const severalText = Array.from({ length: 300 }, (_, i) => (several[Math.floor((i * several.length) / 300)] as [string, string[]])[0]).join(" ");
  const single = words.filter(([, readings]) => readings.length === 1).map(([hanja]) => hanja);
  const distinctTexts: string[] = [];
  let at = 0;
  for (let n = 0; n < 5; n++) {
    let text = "";
    while (at < single.length && text.length + (single[at] as string).length < 19_900) text += `${single[at++]} `;
    distinctTexts.push(text);
  }
  return { everyCharacter: datasetCharacters().join(""), severalText, distinctTexts };
}
