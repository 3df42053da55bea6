/**
 * The headers every answer carries, set in one place (`http/answerHeaders.ts`): on every kind of
 * answer — JSON, a problem, a preflight, the reference (`/docs`, `/openapi.json`), the page and its
 * assets, a HEAD, a 304, compressed and replayed answers — `X-Content-Type-Options: nosniff` and a
 * Content-Security-Policy that no other site may frame it under.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DATA_CSP } from "../../runtime/core/http/answerHeaders.ts";
import { PAGE_ASSETS, PAGE_CSP } from "../../runtime/page/page.ts";
import { call, testApp } from "../helpers/app.ts";

const app = testApp({ adminToken: "answer-headers-admin-token-0123456789" });
const HTML = { accept: "text/html" };
const GZIP = { "accept-encoding": "gzip" };

/** Every kind of answer: a name, the request, and the policy it must carry (undefined: its own, checked apart). */
const KINDS: [string, string, RequestInit, string | undefined][] = [
  ["JSON", "/hanja/v1/meta", {}, DATA_CSP],
  ["JSON, gzipped", "/hanja/v1/hanja?per_page=50", { headers: GZIP }, DATA_CSP],
  ["JSON, metered (no-store)", "/quiz/v1/idiom/1", {}, DATA_CSP],
  ["a problem (404)", "/nowhere", {}, DATA_CSP],
  ["a problem (400)", "/hanja/v1/hanja?page=0", {}, DATA_CSP],
  ["a problem (405)", "/hanja/v1/meta", { method: "POST" }, DATA_CSP],
  ["a problem (401)", "/quiz/v1/admin/keys", {}, DATA_CSP],
  ["a preflight", "/hanja/v1/meta", { method: "OPTIONS", headers: { origin: "https://example.org", "access-control-request-method": "GET" } }, DATA_CSP],
  ["a HEAD", "/hanja/v1/meta", { method: "HEAD" }, DATA_CSP],
  ["the OpenAPI document", "/openapi.json", {}, DATA_CSP],
  ["the page's script", PAGE_ASSETS.js, {}, DATA_CSP],
  ["the page's style sheet", PAGE_ASSETS.css, {}, DATA_CSP],
  ["the page", "/", { headers: HTML }, PAGE_CSP],
  ["the page, gzipped", "/", { headers: { ...HTML, ...GZIP } }, PAGE_CSP],
  ["the reference", "/docs", {}, undefined],
  ["the reference, gzipped", "/docs", { headers: GZIP }, undefined],
];

describe("every answer", () => {
  it.each(KINDS)("%s: nosniff, and a policy that forbids framing by another site", async (_, path, init, policy) => {
    // Twice: the second is built from what the first left (replayed or shared answers).
    for (const round of [1, 2]) {
      const response = await call(app, path, init);
      await response.arrayBuffer();
      expect(response.status, `${path} round ${round}`).toBeLessThan(500);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp).toMatch(/(^|; )frame-ancestors '(none|self)'(;|$)/);
      if (policy !== undefined) expect(csp).toBe(policy);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
    }
  });

  it("a 304 carries them too", async () => {
    const first = await call(app, "/hanja/v1/meta");
    const again = await call(app, "/hanja/v1/meta", { headers: { "if-none-match": first.headers.get("etag") ?? "" } });
    expect(again.status).toBe(304);
    expect(again.headers.get("x-content-type-options")).toBe("nosniff");
    expect(again.headers.get("content-security-policy")).toBe(DATA_CSP);
  });

  it("what a browser renders or loads from tells it to send no referrer; JSON needs no such header", async () => {
    for (const [path, init] of [
      ["/", { headers: HTML }],
      ["/docs", {}],
      [PAGE_ASSETS.js, {}],
      [PAGE_ASSETS.css, {}],
    ] as const) {
      expect((await call(app, path, init)).headers.get("referrer-policy"), path).toBe("no-referrer");
    }
    expect((await call(app, "/hanja/v1/meta")).headers.get("referrer-policy")).toBeNull();
  });

  it("/docs: its one style sheet is allowed by hash, nothing else runs or loads, and no site may frame it", async () => {
    const response = await call(app, "/docs");
    const html = await response.text();
    const csp = response.headers.get("content-security-policy") ?? "";
    const styles = [...html.matchAll(/<style>([^<]*)<\/style>/g)].map((m) => m[1] ?? "");
    expect(styles).toHaveLength(1);
    const hash = createHash("sha256")
      .update(styles[0] ?? "")
      .digest("base64");
    expect(csp).toBe(`default-src 'none'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`);
    // No inline style attribute or script, which the policy would block.
    expect(html).not.toMatch(/\sstyle="|<script/);
  });
});
