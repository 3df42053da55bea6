/** Shared helpers of the interface B tests: paths, problem bodies, a settable clock, keys. */
import { expect } from "vitest";
import type { App } from "../../runtime/core/app.ts";
import type { IdiomRecord } from "../../runtime/format/records.ts";
import { call, getJson } from "../helpers/app.ts";

/** The default base path of interface B. */
export const Q = "/quiz/v1";

/** The problem-details shape of docs/rules.md "Errors", checked field by field. */
export function expectProblem(result: { status: number; body: any; headers: Headers }, status: number, code: string, param?: string): void {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  expect(result.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
  expect(result.body).toMatchObject({ status, code, success: false, type: `/docs#error-${code}` });
  expect(typeof result.body.title).toBe("string");
  expect(typeof result.body.detail).toBe("string");
  expect(typeof result.body.request_id).toBe("string");
  if (param !== undefined) expect(result.body.param).toBe(param);
  // RFC 9110 §15.5.2: every 401 says how to authenticate: the admin token, or an API key.
  if (status === 401) {
    expect(['Bearer realm="admin"', 'ApiKey realm="quiz", header="X-API-Key", query="api_key"']).toContain(result.headers.get("www-authenticate"));
  }
}

/** A clock tests move by hand. */
export interface TestClock {
  now: () => Date;
  set(iso: string): void;
  advance(ms: number): void;
  readonly current: Date;
}

export function testClock(iso: string): TestClock {
  let current = new Date(iso);
  return {
    now: () => new Date(current.getTime()),
    set(next) {
      current = new Date(next);
    },
    advance(ms) {
      current = new Date(current.getTime() + ms);
    },
    get current() {
      return new Date(current.getTime());
    },
  };
}

/** A distinct IPv4 address per `i` (0 ≤ i < 65536), for calls that must not share a demo quota. */
export function ipFor(i: number): string {
  return `10.${(i >> 8) & 255}.${i & 255}.7`;
}

/** A valid application body with a distinct e-mail per `tag`. */
export function applicant(tag: string | number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: `테스트 상사 ${tag}`, email: `applicant-${tag}@example.com`, phone: "010-1234-5678", depositor: `입금자${tag}`, ...extra };
}

/** POSTs an application (JSON) and returns status, body and headers. */
export function subscribe(app: App, body: unknown, init: { clientAddress?: string; headers?: Record<string, string> } = {}) {
  return getJson(app, `${Q}/subscribe`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...init.headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    clientAddress: init.clientAddress,
  });
}

/** Subscribes and returns the new key and its id (the application must be accepted). */
export async function newKey(app: App, tag: string | number, clientAddress?: string): Promise<{ key: string; id: string; body: any }> {
  const result = await subscribe(app, applicant(tag), { clientAddress });
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return { key: result.body.api_key as string, id: result.body.key.id as string, body: result.body };
}

/** `GET /me` as the caller (key or IP) and returns its `key` object. */
export async function me(app: App, init: { key?: string; clientAddress?: string } = {}): Promise<any> {
  const result = await getJson(app, `${Q}/me`, { headers: init.key ? { "X-API-Key": init.key } : {}, clientAddress: init.clientAddress });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.key;
}

/** A metered call that must succeed; returns its remaining count from `X-RateLimit-Remaining`. */
export async function meteredOk(app: App, init: { key?: string; clientAddress?: string } = {}): Promise<number> {
  const response = await call(app, `${Q}/idiom`, { headers: init.key ? { "X-API-Key": init.key } : {}, clientAddress: init.clientAddress });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  return Number(response.headers.get("x-ratelimit-remaining"));
}

/** The admin header for `token`. */
export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/** The idiom with this idx in the loaded data. */
export function idiomByIdx(app: App, idx: number): IdiomRecord {
  const found = app.data.idioms.idioms.find((i) => i.idx === idx);
  if (!found) throw new Error(`no idiom with idx ${idx}`);
  return found;
}

/** Chi-square statistic of observed counts against a uniform expectation. */
export function chiSquare(counts: readonly number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const expected = total / counts.length;
  return counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
}

/** `calls` calls of `query` to `/quiz`, each from its own address; returns every quiz. */
export async function quizzes(app: App, query: string, calls: number): Promise<any[]> {
  const out: any[] = [];
  for (let n = 0; n < calls; n++) {
    const { status, body } = await getJson(app, `${Q}/quiz${query}`, { clientAddress: ipFor(n) });
    expect(status, JSON.stringify(body)).toBe(200);
    out.push(...(body.quizzes ?? [body.quiz]));
  }
  return out;
}

/** How many of the quizzes have their answer at each position. */
export function positionCounts(all: readonly any[], choices: number): number[] {
  const counts = new Array<number>(choices).fill(0);
  for (const q of all) counts[Number(q.answer) - 1]! += 1;
  return counts;
}
