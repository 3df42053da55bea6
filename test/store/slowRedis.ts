/**
 * A slow spell of Redis under servers on several runtimes (`DEBUG SLEEP`), with applicants, keyed
 * calls and demo calls in flight, and what it left counted: the scenario of
 * test/store/redisSlowSpell.test.ts (which asserts) and test/bench/probes/slow-redis.ts (which
 * prints the figures, before and after a change). No assertion and no test runner here.
 */
import { createClient } from "@redis/client";

const Q = "/quiz/v1";
/** The demo client's address (`X-Forwarded-For`, the servers trusting one proxy). */
const DEMO_ADDRESS = "203.0.113.77";
/** The demo plan's daily limit. */
const DEMO_LIMIT = 30;

/** A distinct address per `i` (0 ≤ i < 65536), so applicants do not share the applications an address may make. */
function ipFor(i: number): string {
  return `10.${(i >> 8) & 255}.${i & 255}.9`;
}

/** What the servers are given beyond what each runtime's launcher sets. */
export function slowSpellEnv(redisUrl: string, adminToken: string): Record<string, string> {
  return { QUOTA_STORE: "redis", REDIS_URL: redisUrl, REDIS_PREFIX: "slow:", ADMIN_TOKEN: adminToken, TRUST_PROXY_HOPS: "1" };
}

/** What the spell left: each class of call, served and answered 503, against what was counted after. */
export interface SlowSpellFigures {
  sleepSeconds: number;
  /** Calls without a key from one address, all made during the first spell. */
  demo: { calls: number; served: number; unavailable: number; usedAfter: number; servedAfterOf31: number };
  /** One annual key per server, each called through every server from before the first spell to its end. */
  keys: { calls: number; served: number; unavailable: number; usedAfter: number }[];
  /** Applications from before the second spell to its end, each from its own address; those answered 503 apply again. */
  applicants: { total: number; created: number; unavailable: number; againCreated: number; againRefused409: number; againOther: number };
  /** Statuses other than 200, 201, 429 and 503 (none expected). */
  unexpected: number[];
  /** The slowest 503, in ms (the store's time bound is 1 s). */
  slowest503Ms: number;
}

interface Call {
  status: number;
  ms: number;
}

async function request(url: string, init: RequestInit = {}): Promise<Call & { body: unknown }> {
  const started = performance.now();
  try {
    const response = await fetch(url, init);
    const text = await response.text();
    return { status: response.status, ms: performance.now() - started, body: text.startsWith("{") ? JSON.parse(text) : text };
  } catch {
    return { status: 0, ms: performance.now() - started, body: null };
  }
}

function apply(url: string, tag: string, address: string) {
  return request(`${url}${Q}/subscribe`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": address },
    body: JSON.stringify({ name: `느린 ${tag}`, email: `slow-${tag}@example.com` }),
  });
}

async function usedToday(url: string, headers: Record<string, string>): Promise<number> {
  const reply = await request(`${url}${Q}/me`, { headers });
  return (reply.body as { key: { used_today: number } }).key.used_today;
}

/** Calls `one(i)` with `concurrency` loops until `until()`; returns every answer. */
async function loops<T>(concurrency: number, until: () => boolean, one: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!until()) results.push(await one(next++));
    }),
  );
  return results;
}

/**
 * Puts Redis to sleep `sleepSeconds` while `before` (started 300 ms earlier) and `during` (started
 * once Redis sleeps) run, and lets them end once it wakes; resolves with what each returned.
 */
async function spell<B, D>(
  redisUrl: string,
  sleepSeconds: number,
  before: (until: () => boolean) => Promise<B>,
  during: (until: () => boolean) => Promise<D>,
): Promise<[B, D]> {
  let over = false;
  const until = () => over;
  const early = before(until);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const sleeper = createClient({ url: redisUrl });
  await sleeper.connect();
  const sleeping = sleeper.sendCommand(["DEBUG", "SLEEP", String(sleepSeconds)]);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const late = during(until);
  await sleeping;
  await sleeper.close();
  over = true;
  return Promise.all([early, late]);
}

/**
 * Runs two spells against `urls` (servers sharing one Redis at `redisUrl`, started with
 * `slowSpellEnv`): in the first, keyed calls are under way when Redis falls asleep and demo calls
 * join while it sleeps; in the second, applications are under way (apart, because each
 * application changes the keys, and a server then reads a key's record again before counting
 * it). Once the servers have had `settleMs` to finish what they owe, the counts are read and every
 * applicant answered 503 applies again.
 */
export async function slowSpell(urls: string[], redisUrl: string, adminToken: string, sleepSeconds = 3, settleMs = 1500): Promise<SlowSpellFigures> {
  const run = Date.now().toString(36);
  const keys: { key: string; id: string }[] = [];
  for (const [i, url] of urls.entries()) {
    const issued = await apply(url, `${run}-key-${i}`, ipFor(60_000 + i));
    const body = issued.body as { api_key: string; key: { id: string } };
    if (issued.status !== 201) throw new Error(`the key of server ${i} was not issued: ${issued.status}`);
    const confirmed = await request(`${url}${Q}/admin/keys/${body.key.id}/confirm`, { method: "POST", headers: { Authorization: `Bearer ${adminToken}` } });
    if (confirmed.status !== 200) throw new Error(`the key of server ${i} was not confirmed: ${confirmed.status}`);
    keys.push({ key: body.api_key, id: body.key.id });
  }

  const server = (i: number) => urls[i % urls.length] as string;
  const [keyCalls, demoCalls] = await spell(
    redisUrl,
    sleepSeconds,
    (until) => Promise.all(keys.map((k) => loops(2 * urls.length, until, (i) => request(`${server(i)}${Q}/idiom`, { headers: { "X-API-Key": k.key } })))),
    (until) => loops(2 * urls.length, until, (i) => request(`${server(i)}${Q}/idiom`, { headers: { "X-Forwarded-For": DEMO_ADDRESS } })),
  );
  const [applied] = await spell(
    redisUrl,
    sleepSeconds,
    (until) =>
      loops(8 * urls.length, until, async (i) => {
        const tag = `${run}-${i}`;
        const address = ipFor(i % 50_000);
        return { tag, address, url: server(i), ...(await apply(server(i), tag, address)) };
      }),
    async () => undefined,
  );
  await new Promise((resolve) => setTimeout(resolve, settleMs));

  const all: Call[] = [...applied, ...keyCalls.flat(), ...demoCalls];
  const unavailable = applied.filter((a) => a.status === 503);
  const again = await Promise.all(unavailable.map((a) => apply(a.url, a.tag, a.address)));
  const demoHeaders = { "X-Forwarded-For": DEMO_ADDRESS };
  const demoUsed = await usedToday(urls[0] as string, demoHeaders);
  const demoAfter = await Promise.all(Array.from({ length: DEMO_LIMIT + 1 }, (_, i) => request(`${server(i)}${Q}/idiom`, { headers: demoHeaders })));
  const count = (calls: Call[], status: number) => calls.filter((c) => c.status === status).length;
  return {
    sleepSeconds,
    demo: {
      calls: demoCalls.length,
      served: count(demoCalls, 200),
      unavailable: count(demoCalls, 503),
      usedAfter: demoUsed,
      servedAfterOf31: count(demoAfter, 200),
    },
    keys: await Promise.all(
      keys.map(async (k, i) => {
        const calls = keyCalls[i] as Call[];
        return {
          calls: calls.length,
          served: count(calls, 200),
          unavailable: count(calls, 503),
          usedAfter: await usedToday(urls[0] as string, { "X-API-Key": k.key }),
        };
      }),
    ),
    applicants: {
      total: applied.length,
      created: count(applied, 201),
      unavailable: unavailable.length,
      againCreated: count(again, 201),
      againRefused409: count(again, 409),
      againOther: again.length - count(again, 201) - count(again, 409),
    },
    unexpected: all.map((c) => c.status).filter((s) => ![200, 201, 429, 503].includes(s)),
    slowest503Ms: Math.round(Math.max(0, ...all.filter((c) => c.status === 503).map((c) => c.ms))),
  };
}
