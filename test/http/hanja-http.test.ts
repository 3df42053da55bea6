/**
 * HTTP behaviour of interface A (docs/rules.md "Errors", "Headers", "Runtimes and configuration"): routing errors, CORS, ETag/304, gzip, HEAD,
 * content type and plain UTF-8, configurable base path, refusal of an unknown dist format.
 */
import { gunzipSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { createApp } from "../../runtime/core/app.ts";
import { BODY_REVISION } from "../../runtime/format/dist.ts";
import { call, distFiles, distText, getJson, testApp } from "../helpers/app.ts";
import { BASE, expectProblem, fileRecords } from "./hanja-expect.ts";

const app = testApp();
const GZIP = { headers: { "Accept-Encoding": "gzip, deflate, br" } };
const LIST = `${BASE}/hanja?per_page=50`;
const ROUTES = [`${BASE}/hanja`, `${BASE}/hanja/%E6%B0%B4`, `${BASE}/idioms`, `${BASE}/meta`];

describe("routing errors", () => {
  test("an unknown route → 404 problem", async () => {
    for (const path of [`${BASE}/nope`, `${BASE}`, "/", "/hanja/v2/hanja", `${BASE}/hanjas`, `${BASE}/meta/x`]) {
      await expectProblem(await call(app, path), 404, "not_found");
    }
  });

  test("POST /hanja → 405 with Allow: GET, HEAD, OPTIONS", async () => {
    for (const path of ROUTES) {
      for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
        const response = await call(app, path, { method });
        expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
        await expectProblem(response, 405, "method_not_allowed");
      }
    }
  });
});

describe("content type and body encoding", () => {
  test("application/json; charset=utf-8 on every route", async () => {
    for (const path of ROUTES) expect((await call(app, path)).headers.get("content-type")).toBe("application/json; charset=utf-8");
  });

  test("non-ASCII is written as itself, not escaped", async () => {
    const text = await (await call(app, `${BASE}/hanja/%E6%B0%B4`)).text();
    expect(text).toContain('"character":"水"');
    expect(text).toContain('"meaning_ko":"물 수"');
    expect(text).not.toMatch(/\\u[0-9a-fA-F]{4}/);
    const list = await (await call(app, `${BASE}/hanja?q=%EC%88%98`)).text();
    expect(list).toContain('"수"');
    expect(list).not.toMatch(/\\u[0-9a-fA-F]{4}/);
  });

  test("errors are application/problem+json", async () => {
    const response = await call(app, `${BASE}/hanja?page=0`);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json(; charset=utf-8)?$/);
  });
});

describe("CORS", () => {
  test("Access-Control-Allow-Origin: * on successes and errors", async () => {
    for (const path of [...ROUTES, `${BASE}/hanja?page=0`, `${BASE}/hanja/a`, `${BASE}/nope`]) {
      const response = await call(app, path, { headers: { Origin: "https://example.org" } });
      expect(response.headers.get("access-control-allow-origin"), path).toBe("*");
    }
    expect((await call(app, `${BASE}/hanja`, { method: "POST" })).headers.get("access-control-allow-origin")).toBe("*");
  });

  test("ETag is exposed to scripts", async () => {
    const exposed = (await call(app, `${BASE}/meta`)).headers.get("access-control-expose-headers") ?? "";
    expect(exposed.split(/\s*,\s*/).map((h) => h.toLowerCase())).toContain("etag");
  });

  test("a preflight asking for X-API-Key → 204 with methods and headers", async () => {
    const response = await call(app, `${BASE}/hanja`, {
      method: "OPTIONS",
      headers: { Origin: "https://example.org", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "X-API-Key" },
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const methods = (response.headers.get("access-control-allow-methods") ?? "").split(/\s*,\s*/);
    expect(methods).toEqual(expect.arrayContaining(["GET", "HEAD"]));
    const headers = (response.headers.get("access-control-allow-headers") ?? "").split(/\s*,\s*/).map((h) => h.toLowerCase());
    expect(headers).toContain("x-api-key");
    expect(Number(response.headers.get("access-control-max-age"))).toBeGreaterThan(0);
  });

  test("a preflight passes on any path, so the page reads the real answer: 404 on an unknown route, 405 for another method", async () => {
    const preflight = await call(app, `${BASE}/nope`, {
      method: "OPTIONS",
      headers: { Origin: "https://example.org", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-api-key" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET");
    expect(preflight.headers.get("allow")).toBeNull();
    await expectProblem(await call(app, `${BASE}/nope`), 404, "not_found");

    const del = await call(app, `${BASE}/meta`, { method: "OPTIONS", headers: { "Access-Control-Request-Method": "DELETE" } });
    expect(del.status).toBe(204);
    expect(del.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS, DELETE");
    expect(del.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    const refused = await call(app, `${BASE}/meta`, { method: "DELETE" });
    await expectProblem(refused, 405, "method_not_allowed");
    // Allow is readable by the page.
    expect(refused.headers.get("access-control-expose-headers")?.split(/\s*,\s*/)).toContain("Allow");
  });

  test("a preflight allows the request headers it is asked for, besides the ones the service reads", async () => {
    const response = await call(app, `${BASE}/meta`, {
      method: "OPTIONS",
      headers: { "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-requested-with,sentry-trace, X-API-Key ,baggage" },
    });
    expect(response.headers.get("access-control-allow-headers")).toBe(
      "Content-Type, X-API-Key, Authorization, If-None-Match, x-requested-with, sentry-trace, baggage",
    );
    expect(response.headers.get("vary")).toBe("Access-Control-Request-Method, Access-Control-Request-Headers");
    // Not a list of header names: nothing is echoed.
    for (const asked of ["a b", "x-a,,x-b", "x-a\u00e9", "x-a;x-b"]) {
      const odd = await call(app, `${BASE}/meta`, {
        method: "OPTIONS",
        headers: { "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": asked },
      });
      expect(odd.headers.get("access-control-allow-headers"), asked).toBe("Content-Type, X-API-Key, Authorization, If-None-Match");
    }
    // A method that is no token is not echoed either.
    const badMethod = await call(app, `${BASE}/meta`, { method: "OPTIONS", headers: { "Access-Control-Request-Method": "GE T" } });
    expect(badMethod.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
  });

  test("a plain OPTIONS (no preflight) on an unknown route → 404; so is one whose requested method is empty or no token", async () => {
    await expectProblem(await call(app, `${BASE}/nope`, { method: "OPTIONS" }), 404, "not_found");
    for (const method of ["", "  ", "GE T", "G\u00e9T"]) {
      await expectProblem(await call(app, `${BASE}/nope`, { method: "OPTIONS", headers: { "Access-Control-Request-Method": method } }), 404, "not_found");
    }
  });
});

describe("caching", () => {
  test("a strong ETag and public caching on every route", async () => {
    for (const path of ROUTES) {
      const response = await call(app, path);
      expect(response.headers.get("etag"), path).toMatch(/^"[^"]+"$/);
      expect(response.headers.get("cache-control")).toBe("public, max-age=86400");
    }
  });

  test("If-None-Match with the ETag → 304 with no body", async () => {
    for (const path of ROUTES) {
      const first = await call(app, path);
      const etag = first.headers.get("etag")!;
      const again = await call(app, path, { headers: { "If-None-Match": etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("access-control-allow-origin")).toBe("*");
    }
  });

  test("If-None-Match with another tag → 200 with the body", async () => {
    const response = await call(app, `${BASE}/meta`, { headers: { "If-None-Match": '"something-else"' } });
    expect(response.status).toBe(200);
    expect(JSON.parse(await response.text())).toHaveProperty("counts");
  });

  test("a tag of the same data served by a release with other bytes (an older body revision) → 200 with the body", async () => {
    // Revision 1 tagged the same data with the data hash alone; its page of idioms said "Unicode Unihan".
    const hash = app.data.manifest.data_hash;
    const response = await call(app, `${BASE}/idioms`, { headers: { "If-None-Match": `"${hash.slice(0, 32)}"` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toMatch(new RegExp(`^"${hash.slice(0, 32)}-r${BODY_REVISION}`));
    // The docs of revision 2 were tagged by the data hash; they are now tagged by their own bytes.
    const docs = await call(app, "/docs", { headers: { "If-None-Match": `"${hash.slice(0, 24)}-r2-docs"` } });
    expect(docs.status).toBe(200);
  });

  test("errors are not cached and carry no ETag", async () => {
    const response = await call(app, `${BASE}/hanja?page=0`);
    expect(response.headers.get("etag")).toBeNull();
    expect(response.headers.get("cache-control")).toBe("no-store");
  });
});

describe("gzip", () => {
  test("a large list page is gzipped when accepted and decompresses to the identity body", async () => {
    const identity = await call(app, LIST);
    const identityText = await identity.text();
    expect(new TextEncoder().encode(identityText).length).toBeGreaterThan(1024);
    expect(identity.headers.get("content-encoding")).toBeNull();

    const zipped = await call(app, LIST, GZIP);
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")?.toLowerCase()).toContain("accept-encoding");
    expect(identity.headers.get("vary")?.toLowerCase()).toContain("accept-encoding");
    const bytes = new Uint8Array(await zipped.arrayBuffer());
    expect(Number(zipped.headers.get("content-length"))).toBe(bytes.length);
    expect(bytes.length).toBeLessThan(identityText.length);
    const unzipped = gunzipSync(bytes).toString("utf8");
    expect(unzipped).toBe(identityText);
    expect(JSON.parse(unzipped).data).toEqual(fileRecords().slice(0, 50));

    const identityTag = identity.headers.get("etag");
    const zippedTag = zipped.headers.get("etag");
    expect(zippedTag).toMatch(/^"[^"]+"$/);
    expect(zippedTag).not.toBe(identityTag);
  });

  test("a large detail body is gzipped too", async () => {
    // The largest detail body in UTF-8 bytes (a character with many idioms or a long definition).
    const bytes = (text: string) => new TextEncoder().encode(text).length;
    const largest = distText("details.jsonl")
      .split("\n")
      .reduce((a, b) => (bytes(b) > bytes(a) ? b : a));
    const character = (JSON.parse(largest) as { character: string }).character;
    const path = `${BASE}/hanja/${encodeURIComponent(character)}`;
    const identityText = await (await call(app, path)).text();
    expect(bytes(identityText)).toBeGreaterThanOrEqual(1024);
    const zipped = await call(app, path, GZIP);
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(new Uint8Array(await zipped.arrayBuffer())).toString("utf8")).toBe(identityText);
  });

  test("the gzip ETag revalidates to 304", async () => {
    const zipped = await call(app, LIST, GZIP);
    const tag = zipped.headers.get("etag")!;
    const again = await call(app, LIST, { headers: { ...GZIP.headers, "If-None-Match": tag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  test("bodies under 1 KiB are not compressed", async () => {
    for (const path of [`${BASE}/hanja?q=qqqqzzzz`, `${BASE}/hanja?q=%E6%B0%B4&per_page=1&page=2`]) {
      const response = await call(app, path, GZIP);
      const text = await response.text();
      expect(new TextEncoder().encode(text).length).toBeLessThan(1024);
      expect(response.headers.get("content-encoding")).toBeNull();
      expect(JSON.parse(text)).toHaveProperty("total");
    }
  });

  test("gzip;q=0 or another coding only → identity", async () => {
    for (const accept of ["gzip;q=0", "br;q=1, gzip;q=0", "identity", "deflate"]) {
      const response = await call(app, LIST, { headers: { "Accept-Encoding": accept } });
      expect(response.headers.get("content-encoding"), accept).toBeNull();
      expect(JSON.parse(await response.text()).per_page).toBe(50);
    }
  });
});

describe("HEAD", () => {
  test("same status and headers as GET, empty body", async () => {
    for (const path of [...ROUTES, LIST]) {
      for (const init of [{}, GZIP]) {
        const get = await call(app, path, init);
        const getBytes = new Uint8Array(await get.arrayBuffer());
        const head = await call(app, path, { ...init, method: "HEAD" });
        expect(head.status).toBe(get.status);
        expect(await head.text()).toBe("");
        for (const name of ["content-type", "etag", "cache-control", "access-control-allow-origin", "content-encoding", "vary"]) {
          expect(head.headers.get(name), `${path} ${name}`).toBe(get.headers.get(name));
        }
        const length = head.headers.get("content-length");
        if (length !== null) expect(Number(length)).toBe(getBytes.length);
      }
    }
  });

  test("HEAD of an error: same status, empty body", async () => {
    for (const [path, status] of [
      [`${BASE}/hanja?page=0`, 400],
      [`${BASE}/hanja/a`, 404],
      [`${BASE}/nope`, 404],
    ] as const) {
      const response = await call(app, path, { method: "HEAD" });
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(await response.text()).toBe("");
    }
  });

  test("HEAD with If-None-Match → 304", async () => {
    const etag = (await call(app, `${BASE}/meta`)).headers.get("etag")!;
    expect((await call(app, `${BASE}/meta`, { method: "HEAD", headers: { "If-None-Match": etag } })).status).toBe(304);
  });
});

describe("configuration", () => {
  test("a custom base path serves interface A there; the default base then 404s", async () => {
    const custom = testApp({ hanjaBase: "/api/chars" });
    const list = await getJson(custom, "/api/chars/hanja?q=%E6%B0%B4");
    expect(list.status).toBe(200);
    expect(list.body.data[0].character).toBe("水");
    expect((await getJson(custom, "/api/chars/hanja/%E6%B0%B4")).body.character).toBe("水");
    expect((await getJson(custom, "/api/chars/idioms")).status).toBe(200);
    const meta = await getJson(custom, "/api/chars/meta");
    expect(meta.body.licenses.idioms.url).toBe("/api/chars/terms");
    expect((await call(custom, "/api/chars/terms")).status).toBe(200);
    expect((await getJson(custom, "/api/chars/hanja/?q=%E6%B0%B4")).body.data[0].character).toBe("水");
    for (const path of ROUTES) await expectProblem(await call(custom, path), 404, "not_found");
  });

  test("a trailing slash on the base is tolerated; a malformed base is refused", () => {
    expect(() => testApp({ hanjaBase: "/api/chars/" })).not.toThrow();
    expect(() => testApp({ hanjaBase: "api chars" })).toThrow(/hanjaBase/);
  });

  test("a dist with an unknown format version is refused with a clear message", () => {
    const files = distFiles();
    const manifest = JSON.parse(distText("manifest.json")) as Record<string, unknown>;
    const dist = { ...files, "manifest.json": JSON.stringify({ ...manifest, format: 999 }) };
    expect(() => createApp({ dist, onError: () => {} })).toThrow(/format/);
    expect(() => createApp({ dist, onError: () => {} })).toThrow(/999/);
  });

  test("a dist missing a file is refused naming it", () => {
    const { ["tables.json"]: _, ...rest } = distFiles();
    expect(() => createApp({ dist: rest, onError: () => {} })).toThrow(/tables\.json/);
  });
});
