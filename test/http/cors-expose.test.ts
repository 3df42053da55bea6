/**
 * `Access-Control-Expose-Headers` (docs/rules.md "Headers"): every response names exactly the headers it carries
 * that a script on another origin could not read without it (ETag, Allow, WWW-Authenticate, the
 * rate-limit headers, Retry-After, X-Request-Id), and omits the field when it carries none of them.
 */
import { describe, expect, test } from "vitest";
import { call, testApp } from "../helpers/app.ts";
import { RATE_LIMIT_HEADERS as RATE_LIMIT, carriedNames, exposedNames } from "../helpers/cors.ts";
import { BASE } from "./hanja-expect.ts";
import { Q } from "./quiz-helpers.ts";

const exposed = (response: Response) => exposedNames(response.headers);
const carried = (response: Response) => carriedNames(response.headers);

describe("Access-Control-Expose-Headers names what each response carries", () => {
  const app = testApp({ adminToken: "admin-token-for-cors-tests-0123" });
  const origin = { Origin: "https://app.example" };
  const detail = `${BASE}/hanja/%E6%B0%B4`;

  test("a character's detail exposes ETag alone, in every encoding and as a 304", async () => {
    const plain = await call(app, detail, { headers: origin });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("access-control-expose-headers")).toBe("ETag");
    const gzip = await call(app, detail, { headers: { ...origin, "Accept-Encoding": "gzip" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    expect(gzip.headers.get("access-control-expose-headers")).toBe("ETag");
    const notModified = await call(app, detail, { headers: { ...origin, "If-None-Match": plain.headers.get("etag") ?? "" } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("access-control-expose-headers")).toBe("ETag");
  });

  test("a quiz exposes the rate-limit headers, and a used-up demo quota adds Retry-After and X-Request-Id", async () => {
    const quiz = await call(app, `${Q}/quiz`, { headers: origin, clientAddress: "10.9.0.1" });
    expect(quiz.status).toBe(200);
    expect(exposed(quiz)).toEqual([...RATE_LIMIT].sort());
    let last = quiz;
    for (let i = 0; i < 40 && last.status !== 429; i++) last = await call(app, `${Q}/quiz`, { headers: origin, clientAddress: "10.9.0.2" });
    expect(last.status).toBe(429);
    expect(exposed(last)).toEqual([...RATE_LIMIT, "retry-after", "x-request-id"].sort());
  });

  test("errors expose X-Request-Id, with Allow on a 405 and WWW-Authenticate on a 401", async () => {
    expect(exposed(await call(app, `${BASE}/nope`))).toEqual(["x-request-id"]);
    expect(exposed(await call(app, detail, { method: "DELETE" }))).toEqual(["allow", "x-request-id"]);
    expect(exposed(await call(app, `${Q}/quiz`, { headers: { "X-API-Key": "hj_not-a-key" } }))).toEqual(["www-authenticate", "x-request-id"]);
  });

  test("a response that carries none of them has no Expose-Headers field, but still Allow-Origin", async () => {
    const health = await call(app, "/healthz", { headers: origin });
    expect(health.status).toBe(200);
    expect(health.headers.get("access-control-allow-origin")).toBe("*");
    expect(health.headers.has("access-control-expose-headers")).toBe(false);
  });

  test("across routes, methods, encodings and errors, the exposed names are exactly the carried ones", async () => {
    const requests: [string, RequestInit?][] = [
      [detail],
      [detail, { method: "HEAD" }],
      [detail, { headers: { "Accept-Encoding": "br" } }],
      [`${BASE}/hanja?q=water`],
      [`${BASE}/hanja?page=0`],
      [`${BASE}/idioms?q=%EC%88%98`],
      [`${BASE}/meta`],
      [`${Q}/idioms?limit=2`],
      [`${Q}/idioms/1`],
      [`${Q}/idioms/99999`],
      [`${Q}/key`],
      [`${Q}/subscribe`, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "x" }],
      [`${Q}/admin/keys`],
      [`${Q}/quiz`, { headers: { Authorization: "Bearer hj_x" } }],
      [detail, { method: "OPTIONS" }],
      [detail, { method: "OPTIONS", headers: { "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "X-API-Key" } }],
      ["/openapi.json"],
      ["/docs"],
      ["/healthz", { method: "POST" }],
    ];
    for (const [path, init] of requests) {
      const response = await call(app, path, { clientAddress: "10.9.0.3", ...init });
      const label = `${init?.method ?? "GET"} ${path} → ${response.status}`;
      expect(response.headers.get("access-control-allow-origin"), label).toBe("*");
      expect(exposed(response), label).toEqual(carried(response));
    }
  });
});
