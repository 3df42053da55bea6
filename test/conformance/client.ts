/**
 * A small HTTP client for the conformance suite: `fetch` with identity encoding (so bodies and
 * ETags do not depend on what the runtime's server negotiates), raw bytes over `node:http` for
 * content-coding checks, and the shared assertions on problem details and rate-limit headers.
 */
import { request as httpRequest } from "node:http";
import { expect } from "vitest";
import { rawExchange } from "../helpers/server.ts";

/** A response read to the end. */
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (null for an empty body). */
  body: any;
}

/** `fetch` on `base + path` with `Accept-Encoding: identity` unless the caller sets one; reads the whole body. */
export async function send(base: string, path: string, init: RequestInit = {}): Promise<Reply> {
  const headers = new Headers(init.headers);
  if (!headers.has("accept-encoding")) headers.set("accept-encoding", "identity");
  const response = await fetch(base + path, { ...init, headers });
  return replyOf(response.status, response.headers, await response.text());
}

/** A reply read to the end, its body parsed when it is JSON. */
function replyOf(status: number, headers: Headers, text: string): Reply {
  return { status, headers, text, body: text !== "" && /json/.test(headers.get("content-type") ?? "") ? JSON.parse(text) : null };
}

/** A response as bytes on the wire, with no decoding. */
export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

/** GET `base + path` over `node:http` and return the undecoded bytes. */
export function sendRaw(base: string, path: string, headers: Record<string, string>): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, base), { method: "GET", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** A request over `node:http` with any method, including those `fetch` refuses to send (TRACE, TRACK). */
export function sendMethod(base: string, path: string, method: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, base), { method }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
        resolve(replyOf(res.statusCode ?? 0, headers, text));
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/**
 * A GET whose request line carries `target` as raw UTF-8 bytes (what curl sends for `?q=수`),
 * over a plain socket because HTTP clients percent-encode it; the server is asked to close.
 */
export async function sendUnencoded(base: string, target: string): Promise<Reply> {
  const { hostname, port } = new URL(base);
  const request = Buffer.from(`GET ${target} HTTP/1.1\r\nHost: ${hostname}\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n`, "utf8");
  const answer = await rawExchange(Number(port), request, hostname);
  const split = answer.indexOf("\r\n\r\n");
  const [statusLine = "", ...fields] = answer.slice(0, split).split("\r\n");
  const headers = new Headers();
  for (const field of fields) headers.append(field.slice(0, field.indexOf(":")), field.slice(field.indexOf(":") + 1).trim());
  return replyOf(Number(statusLine.split(" ")[1]), headers, answer.slice(split + 4));
}

/** The problem-details shape of docs/rules.md "Errors". */
export function expectProblem(reply: Reply, status: number, code: string, param?: string): void {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
  expect(reply.body).toMatchObject({ status, code, success: false, type: `/docs#error-${code}` });
  expect(typeof reply.body.title).toBe("string");
  expect(typeof reply.body.detail).toBe("string");
  expect(typeof reply.body.request_id).toBe("string");
  if (param !== undefined) expect(reply.body.param).toBe(param);
}

/** The rate-limit headers of a metered response (docs/rules.md "Interface B") for `limit`, returning the remaining count. */
export function expectRateLimit(reply: Reply, limit: number): number {
  const remaining = Number(reply.headers.get("x-ratelimit-remaining"));
  const reset = Number(reply.headers.get("x-ratelimit-reset"));
  expect(reply.headers.get("x-ratelimit-limit")).toBe(String(limit));
  expect(Number.isInteger(remaining) && remaining >= 0 && remaining < limit + 1).toBe(true);
  expect(reset).toBeGreaterThan(Date.now() / 1000);
  expect(reply.headers.get("ratelimit-policy")).toBe(`"daily";q=${limit};w=86400`);
  expect(reply.headers.get("ratelimit")).toMatch(new RegExp(`^"daily";r=${remaining};t=\\d+$`));
  return remaining;
}

/** The metering day rolls over at 15:00 UTC (00:00 KST); a test that counts must not straddle it. */
export async function awayFromRollover(marginMs = 30_000): Promise<void> {
  const now = Date.now();
  const next = Math.ceil((now - 15 * 3600_000) / 86_400_000) * 86_400_000 + 15 * 3600_000;
  if (next - now < marginMs) await new Promise((resolve) => setTimeout(resolve, next - now + 1000));
}
