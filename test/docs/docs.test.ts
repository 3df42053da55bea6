/** GET /docs: a self-contained HTML reference with every path, the error anchors, escaped text. */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { curlCommand, shellQuote } from "../../runtime/core/docs/curl.ts";
import { buildOpenApi } from "../../runtime/core/docs/openapi.ts";
import { describedOperations } from "../../runtime/core/operations/interfaces.ts";
import { escapeHtml, renderDocs } from "../../runtime/core/docs/renderDocs.ts";
import type { OpenApiDocument } from "../../runtime/core/docs/types.ts";
import { ERROR_CODES } from "../../runtime/core/docs/errorCodes.ts";
import { ROOT, call, getJson, testApp } from "../helpers/app.ts";

const app = testApp({ adminToken: "docs-page-admin-token-0000" });

async function page(target = app): Promise<{ html: string; response: Response }> {
  const response = await call(target, "/docs");
  return { html: await response.text(), response };
}

describe("GET /docs", () => {
  it("is text/html, cacheable, and names every path of the document", async () => {
    const { html, response } = await page();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    // Tagged by its own bytes: a release or options that change the page change the tag.
    expect(response.headers.get("etag")).toBe(`"${createHash("sha256").update(html).digest("hex").slice(0, 32)}"`);
    expect(html.startsWith("<!doctype html>")).toBe(true);
    // The curl examples name a fixed address; the page says which and that it is to be replaced.
    expect(html).toContain("send their requests to the default address, <code>http://localhost:8080</code>: replace it with your server's.");
    const document = (await getJson<OpenApiDocument>(app, "/openapi.json")).body;
    for (const path of Object.keys(document.paths)) expect(html, path).toContain(`<code>${escapeHtml(path)}</code>`);
    for (const [, item] of Object.entries(document.paths)) {
      for (const op of [item.get, item.post]) if (op) expect(html).toContain(`id="op-${op.operationId}"`);
    }
  });

  it("tags the reference and the OpenAPI document by their own bytes: other options, other tags; a stale tag gets the page", async () => {
    const sha = (text: string) => `"${createHash("sha256").update(text).digest("hex").slice(0, 32)}"`;
    const openapi = await call(app, "/openapi.json");
    expect(openapi.headers.get("etag")).toBe(sha(await openapi.text()));
    const mounted = await page(testApp({ adminToken: "docs-page-admin-token-0000", mountPath: "/lexicon" }));
    const plain = await page();
    expect(mounted.html).not.toBe(plain.html);
    expect(mounted.response.headers.get("etag")).not.toBe(plain.response.headers.get("etag"));
    const stale = await call(app, "/docs", { headers: { "If-None-Match": mounted.response.headers.get("etag") ?? "" } });
    expect(stale.status).toBe(200);
    const fresh = await call(app, "/docs", { headers: { "If-None-Match": plain.response.headers.get("etag") ?? "" } });
    expect(fresh.status).toBe(304);
  });

  it("stacks the contents above the text on a narrow screen (a phone), instead of a fixed sidebar", async () => {
    const { html } = await page();
    const narrow = /@media \(max-width:(\d+)rem\)\{([^]*?)\}\s*<\/style>/.exec(html);
    expect(narrow).not.toBeNull();
    expect(Number(narrow?.[1])).toBeGreaterThanOrEqual(40);
    expect(narrow?.[2]).toContain(".layout{display:block}");
    expect(narrow?.[2]).toMatch(/nav\{position:static;width:auto/);
  });

  it("has an anchor for every error code, the target of the problem `type`", async () => {
    const { html } = await page();
    expect(html).toContain('id="error-invalid_parameter"');
    for (const { code } of ERROR_CODES) expect(html, code).toContain(`id="error-${code}"`);
    const problem = await getJson(app, "/hanja/v1/hanja?per_page=0");
    const anchor = String(problem.body.type).split("#")[1];
    expect(problem.body.type).toBe("/docs#error-invalid_parameter");
    expect(html).toContain(`id="${anchor}"`);
  });

  it("the error table names the status and the `param` of each problem the server sends with a key or a refused request", async () => {
    const documented = (code: string) => ERROR_CODES.find((e) => e.code === code);
    const cases: [string, RequestInit][] = [
      ["/quiz/v1/me?api_key=hj_nope", {}],
      ["/quiz/v1/me", { headers: { "X-API-Key": "hj_nope" } }],
      ["/quiz/v1/me", { headers: { Authorization: "Bearer hj_nope" } }],
      ["/quiz/v1/admin/keys/k_1/confirm", { method: "POST", headers: { Authorization: "Bearer wrong" } }],
    ];
    for (const [path, init] of cases) {
      const { status, body } = await getJson(app, path, init);
      expect(status, path).toBe(401);
      const doc = documented(body.code);
      expect(doc?.status, body.code).toContain(status);
      expect(doc?.description, `${body.code} with param ${body.param}`).toMatch(new RegExp(`\`(param: )?${body.param}\``));
    }
    // The Node server's refusals of what its parser cannot take (nodeListener.test.ts sends them).
    expect(documented("payload_too_large")?.status).toEqual([413, 431]);
    expect(documented("invalid_parameter")?.description).toContain("with no `param`");
    const { html } = await page();
    expect(html).toContain("<code>431</code>");
  });

  it("every in-page link has a target", async () => {
    const { html } = await page();
    const ids = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
    const links = [...html.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(50);
    expect(links.filter((l) => !ids.has(l))).toEqual([]);
  });

  it("is self-contained: no scripts, no external styles, images or fonts", async () => {
    const { html } = await page();
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/\bsrc=/i);
    expect(html).not.toMatch(/@import|url\(/i);
    expect(html).toContain("<style>");
  });

  it("covers authentication, quotas, parameters with bounds and defaults, responses and curl examples", async () => {
    const { html } = await page();
    for (const text of ["Authentication and quotas", "X-API-Key", "api_key", "RateLimit-Policy", "Retry-After", "10,000", "Problem details body"]) {
      expect(html, text).toContain(text);
    }
    // The /hanja parameter table: per_page 1–50, default 24.
    expect(html).toMatch(/<code>per_page<\/code><\/td><td>query<\/td><td>integer<\/td><td>1–50<\/td><td><code>24<\/code><\/td>/);
    expect(html).toContain("curl -G &#39;http://localhost:8080/hanja/v1/hanja&#39;");
    expect(html).toContain("-H &#34;X-API-Key: $API_KEY&#34;");
    expect(html).toContain("-H &#34;Authorization: Bearer $ADMIN_TOKEN&#34;");
  });

  it("describes literal, the synonym groups, difficulty, seed and the withheld idioms, with the quiz parameters' bounds", async () => {
    const { html } = await page();
    // The groups counted here from the data file itself.
    const groups = new Set(
      readFileSync(join(ROOT, "pipeline/data/idiom-groups.csv"), "utf8")
        .split("\n")
        .slice(1)
        .filter((line) => line !== "")
        .map((line) => line.slice(0, line.indexOf(","))),
    );
    for (const text of [
      "Idioms and quizzes",
      "<code>literal</code>",
      `Synonym groups: ${groups.size} groups`,
      "<code>difficulty</code>",
      "<code>seed</code>",
      "<code>mature</code>",
    ]) {
      expect(html, text).toContain(text);
    }
    expect(html).toContain(
      "<code>difficulty</code></td><td>query</td><td>string</td><td>one of <code>&#34;normal&#34;</code>, <code>&#34;hard&#34;</code></td><td><code>&#34;normal&#34;</code></td>",
    );
    expect(html).toMatch(/<code>seed<\/code><\/td><td>query<\/td><td>integer<\/td><td>0–4294967295<\/td>/);
  });

  it("follows the configured bases", async () => {
    const { html } = await page(testApp({ hanjaBase: "/api/chars" }));
    expect(html).toContain("<code>/api/chars/hanja/{character}</code>");
    expect(html).not.toContain("/hanja/v1/");
    expect(html).not.toContain("/admin/keys");
  });
});

describe("renderDocs", () => {
  it("escapes every text taken from the document", () => {
    const bases = { hanjaBase: "/hanja/v1", quizBase: "/quiz/v1", adminEnabled: false };
    const document = buildOpenApi(app.data, bases, describedOperations(app.data, bases));
    const evil = '<script>alert("x")</script>';
    document.info.title = evil;
    document.info.description = `Intro ${evil}\n\n- item ${evil}`;
    const op = document.paths["/hanja/v1/meta"]?.get;
    if (!op) throw new Error("no meta operation");
    op.summary = evil;
    op.description = `\`${evil}\``;
    op["x-request-examples"] = [{ description: evil, query: { q: "it's <b>" } }];
    document["x-error-codes"] = [{ code: "a<b", status: [400], title: evil, description: evil }];
    const html = renderDocs(document);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>");
    expect(html).toContain("&#60;script&#62;");
  });

  it("writes shell-safe curl commands", () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote("X-API-Key: $API_KEY")).toBe(`"X-API-Key: $API_KEY"`);
    expect(shellQuote("$(rm -rf ~) $API_KEY")).toBe(`'$(rm -rf ~) $API_KEY'`);
    expect(curlCommand("get", "/h/hanja/{character}", { description: "", path: { character: "水" } })).toBe("curl 'http://localhost:8080/h/hanja/%E6%B0%B4'");
    expect(
      curlCommand("post", "/q/admin/keys/{id}/confirm", { description: "", path: { id: "key_A" }, headers: { Authorization: "Bearer $ADMIN_TOKEN" } }),
    ).toBe(`curl -X POST 'http://localhost:8080/q/admin/keys/key_A/confirm' \\\n  -H "Authorization: Bearer $ADMIN_TOKEN"`);
    expect(curlCommand("post", "/q/subscribe", { description: "", headers: { "Content-Type": "application/json" }, body: { name: "O'Neil" } })).toBe(
      `curl 'http://localhost:8080/q/subscribe' \\\n  -H 'Content-Type: application/json' \\\n  --data-raw '{"name":"O'\\''Neil"}'`,
    );
  });
});
