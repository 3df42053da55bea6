/**
 * GET / (the page for people) over HTTP: served to browsers only, from memory with ETag,
 * compression and a same-origin Content-Security-Policy, under a mount path, within its size
 * budget, and built from the committed sources.
 */
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { PAGE_CSS, PAGE_JS } from "../../web/assets.generated.ts";
import { buildPageAssets, generatedModule } from "../../web/build.ts";
import { readFileSync } from "node:fs";
import { GENERATED } from "../../web/build.ts";
import { PAGE_CSP, acceptsHtml } from "../../runtime/page/page.ts";
import { createBundledApp } from "../../runtime/entry/bundledData.ts";
import { nodeCompressors } from "../../runtime/entry/compressors.ts";
import { createApp } from "../../runtime/core/app.ts";
import { AppOptionError } from "../../runtime/core/appOptions.ts";
import { page } from "../../runtime/page/index.ts";
import { call, distFiles, testApp } from "../helpers/app.ts";

const app = testApp({ compressors: nodeCompressors });
/** What Chromium sends when it navigates to a page. */
const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
const html = (init: RequestInit & { headers?: Record<string, string> } = {}) => ({ ...init, headers: { Accept: BROWSER, ...init.headers } });

describe("GET / for browsers", () => {
  it("is the page: HTML with a same-origin CSP, nosniff, Vary: Accept and a strong ETag of its bytes", async () => {
    const response = await call(app, "/", html());
    const body = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toBe(PAGE_CSP);
    expect(PAGE_CSP).toContain("default-src 'none'");
    for (const directive of ["script-src", "style-src", "connect-src"]) expect(PAGE_CSP).toContain(`${directive} 'self';`);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    // The document is under 1 KiB, so it is never compressed and varies by Accept alone.
    expect(response.headers.get("vary")).toBe("Accept");
    expect(response.headers.get("etag")).toBe(`"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"`);
    expect(body.startsWith("<!doctype html>")).toBe(true);
    expect(body).toContain('<script defer src="/page/app.js"></script>');
    expect(body).toContain('<link rel="stylesheet" href="/page/app.css">');
    expect(body).toContain('data-root="" data-hanja="/hanja/v1" data-quiz="/quiz/v1"');
    // No inline script or style: the CSP forbids them, and the page needs none.
    expect(body).not.toMatch(/<script>|<style|style=/);
    // Nothing from another host.
    expect(body).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it("answers 304 to its ETag and compresses with brotli or gzip, each with its own tag", async () => {
    const plain = await call(app, "/", html());
    const etag = plain.headers.get("etag") ?? "";
    const again = await call(app, "/", html({ headers: { "If-None-Match": etag } }));
    expect(again.status).toBe(304);
    const gz = await call(app, "/page/app.js", { headers: { "Accept-Encoding": "gzip" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString("utf8")).toBe(PAGE_JS);
    expect(gz.headers.get("etag")).toMatch(/-gz"$/);
    const br = await call(app, "/page/app.css", { headers: { "Accept-Encoding": "br, gzip" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("etag")).toMatch(/-br"$/);
  });

  it("serves the script and stylesheet with their types, nosniff and caching", async () => {
    const js = await call(app, "/page/app.js");
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(js.headers.get("x-content-type-options")).toBe("nosniff");
    expect(js.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(await js.text()).toBe(PAGE_JS);
    const css = await call(app, "/page/app.css");
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(await css.text()).toBe(PAGE_CSS);
    expect((await call(app, "/page/other.js")).status).toBe(404);
  });

  it("HEAD / answers like GET without a body", async () => {
    const response = await call(app, "/", html({ method: "HEAD" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toBe("");
  });

  it("everything the page loads is within 60 KB gzipped (page, script, stylesheet)", async () => {
    let total = 0;
    for (const [path, init] of [
      ["/", html({ headers: { "Accept-Encoding": "gzip" } })],
      ["/page/app.js", { headers: { "Accept-Encoding": "gzip" } }],
      ["/page/app.css", { headers: { "Accept-Encoding": "gzip" } }],
    ] as const) {
      const response = await call(app, path, init);
      total += (await response.arrayBuffer()).byteLength;
    }
    console.log(`page size: ${total} bytes gzipped (html + js + css)`);
    expect(total).toBeLessThanOrEqual(60 * 1024);
  });
});

describe("GET / for clients that do not ask for HTML", () => {
  it("is the 404 problem it always was, pointing to /docs, with Vary: Accept — also after a browser got the page", async () => {
    await call(app, "/", html());
    for (const accept of [undefined, "*/*", "application/json", "application/problem+json", "text/html;q=0", "text/plain"]) {
      const response = await call(app, "/", accept === undefined ? {} : { headers: { Accept: accept } });
      expect(response.status, String(accept)).toBe(404);
      expect(response.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
      expect(response.headers.get("vary")).toBe("Accept");
      const problem = (await response.json()) as { code: string; detail: string };
      expect(problem.code).toBe("not_found");
      expect(problem.detail).toContain("/docs");
    }
  });

  it("reads Accept as browsers write it", () => {
    const with_ = (accept: string | null) =>
      acceptsHtml({ url: "http://h/", method: "GET", headers: new Headers(accept === null ? {} : { accept }), body: null });
    expect(with_(BROWSER)).toBe(true);
    expect(with_("TEXT/HTML")).toBe(true);
    expect(with_("application/xhtml+xml;q=0.5")).toBe(true);
    expect(with_("text/html;q=0")).toBe(false);
    expect(with_("text/html;q=0.0, */*")).toBe(false);
    expect(with_("*/*")).toBe(false);
    expect(with_(null)).toBe(false);
  });

  it("POST / is 405 with Allow, since / now exists", async () => {
    const response = await call(app, "/", { method: "POST" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});

describe("the page is mounted by whoever makes the app", () => {
  it("an app made without it (the portable core alone) answers /, its script and its stylesheet with the plain 404 of an unknown path", async () => {
    const bare = createApp({ dist: distFiles(), onError: () => {} });
    for (const path of ["/", "/page/app.js", "/page/app.css"]) {
      const response = await call(bare, path, html());
      expect(response.status, path).toBe(404);
      expect(response.headers.get("vary"), path).toBeNull();
      expect(((await response.json()) as { detail: string }).detail).toBe("No such route. See /docs for the API reference.");
    }
    expect((await call(bare, "/hanja/v1/hanja/%E6%B0%B4")).status).toBe(200);
    await bare.close();
  });

  it("an app given `page` (as the server programs and createBundledApp do) serves it", async () => {
    const withPage = createApp({ dist: distFiles(), onError: () => {}, page });
    expect((await call(withPage, "/", html())).status).toBe(200);
    expect(await (await call(withPage, "/page/app.js")).text()).toBe(PAGE_JS);
    await withPage.close();
    const bundled = createBundledApp();
    expect((await call(bundled, "/", html())).status).toBe(200);
    await bundled.close();
    const apiAlone = createBundledApp({ page: undefined });
    expect((await call(apiAlone, "/", html())).status).toBe(404);
    await apiAlone.close();
  });

  it("a `page` that is not the page's interface is refused, naming the option", () => {
    const made = () => createApp({ dist: distFiles(), page: "yes" as unknown as typeof page });
    expect(made).toThrow(AppOptionError);
    expect(made).toThrow("page: must be a function, got string");
  });
});

describe("under a mount path and other bases", () => {
  it("links its assets, the interfaces and /docs inside the mount", async () => {
    const mounted = testApp({ mountPath: "/lexicon", hanjaBase: "/h/v2", quizBase: "/q" });
    const body = await (await call(mounted, "/", html())).text();
    expect(body).toContain('<script defer src="/lexicon/page/app.js"></script>');
    expect(body).toContain('<link rel="stylesheet" href="/lexicon/page/app.css">');
    expect(body).toContain('data-root="/lexicon" data-hanja="/lexicon/h/v2" data-quiz="/lexicon/q"');
    expect(body).toContain('href="/lexicon/docs"');
  });

  it("/docs links to the page, inside the mount too", async () => {
    expect(await (await call(app, "/docs")).text()).toContain('<a href="/">Search, study and quiz in the browser</a>');
    expect(await (await call(testApp({ mountPath: "/lexicon" }), "/docs")).text()).toContain('href="/lexicon/">Search, study and quiz in the browser</a>');
  });
});

describe("the served assets", () => {
  it("are what web/src builds to (run `npm run build:page` after changing the page)", async () => {
    const fresh = generatedModule(await buildPageAssets());
    expect(readFileSync(GENERATED, "utf8") === fresh, "web/assets.generated.ts is stale: run `npm run build:page`").toBe(true);
  });

  it("carry the licence of every npm package bundled into the script, at its top", () => {
    expect(PAGE_JS.startsWith("/*! Third-party code in this script.")).toBe(true);
    const banner = PAGE_JS.slice(0, PAGE_JS.indexOf("*/"));
    for (const name of ["ts-fsrs"]) {
      const { version } = JSON.parse(readFileSync(`node_modules/${name}/package.json`, "utf8")) as { version: string };
      expect(banner).toContain(`${name} ${version}:\n`);
      expect(banner).toContain("Permission is hereby granted, free of charge");
    }
  });

  it("leave MiniSearch out of the script: the page never searches an index, and the quiz types it reads do not bring it", () => {
    // MiniSearch's own messages ("MiniSearch: duplicate ID …") survive minifying; its notice would head the script.
    expect(PAGE_JS).not.toContain("MiniSearch");
    expect(PAGE_JS.slice(0, PAGE_JS.indexOf("*/"))).not.toContain("minisearch");
  });
});
