/** The URL parts the core takes from a request URL without parsing it, and the access log's redaction. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactedTarget } from "../../runtime/core/app.ts";
import { queryOf } from "../../runtime/core/http/params.ts";
import { pathOf, targetOf } from "../../runtime/core/http/respond.ts";
import { testApp } from "../helpers/app.ts";

describe("targetOf and pathOf", () => {
  it("cut the path and query from an absolute URL, without the fragment", () => {
    expect(targetOf("http://h:1/a/b?q=1&r=2#f")).toBe("/a/b?q=1&r=2");
    expect(pathOf("http://h:1/a/b?q=1&r=2#f")).toBe("/a/b");
    expect(targetOf("http://h/a/b#f?x")).toBe("/a/b");
    expect(pathOf("http://h/a/b#f?x")).toBe("/a/b");
    expect(targetOf("http://h")).toBe("/");
    expect(pathOf("http://h")).toBe("/");
    expect(pathOf("http://h/?q")).toBe("/");
  });
});

describe("queryOf", () => {
  /** What the URL parser reads as the query, repeated names collected in order. */
  const reference = (url: string) => {
    const out = Object.create(null) as Record<string, string | string[]>;
    for (const [name, value] of new URL(url).searchParams) {
      const seen = out[name];
      out[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
    }
    return out;
  };

  it("reads the same names and values as URL.searchParams, repeated and empty ones included", () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
        expect({ ...queryOf(url) }).toEqual(reference(url));
      }),
      { numRuns: 2000 },
    );
    expect({ ...queryOf("http://h/a?page=&page=2&q=%EA%B0%80+b") }).toEqual({ page: ["", "2"], q: "가 b" });
    expect({ ...queryOf("http://h/a#f?x=1") }).toEqual({});
    expect({ ...queryOf("http://h/a?x=1#f&y=2") }).toEqual({ x: "1" });
    expect({ ...queryOf("http://h/a") }).toEqual({});
  });
});

describe("redactedTarget (the access log's path)", () => {
  it("replaces every api_key value, spelled plainly or percent-encoded, and keeps the rest", () => {
    expect(redactedTarget("http://h/quiz/v1/quiz?api_key=hj_secret&count=2")).toBe("/quiz/v1/quiz?api_key=REDACTED&count=2");
    expect(redactedTarget("http://h/quiz/v1/me?count=2&API_KEY=hj_secret&api%5Fkey=hj_other")).toBe("/quiz/v1/me?count=2&API_KEY=REDACTED&api%5Fkey=REDACTED");
    expect(redactedTarget("http://h/quiz/v1/quiz?my_api_key=kept")).toBe("/quiz/v1/quiz?my_api_key=kept");
    expect(redactedTarget("http://h/hanja/v1/meta")).toBe("/hanja/v1/meta");
  });

  it("is what the access log records: no key in any entry", async () => {
    const entries: { path: string; status: number }[] = [];
    const app = testApp({ log: (entry) => void entries.push(entry) });
    await app.fetch(new Request("http://localhost/quiz/v1/quiz?api_key=hj_0123456789abcdefghijABCDEFGHIJ01"), { clientAddress: "192.0.2.1" });
    expect(entries).toHaveLength(1);
    expect(entries[0]?.path).toBe("/quiz/v1/quiz?api_key=REDACTED");
    expect(entries[0]?.status).toBe(401);
  });
});
