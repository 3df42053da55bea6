/** The URL parts the core takes from a request URL without parsing it, and the access log's redaction. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactedTarget } from "../../runtime/core/http/redact.ts";
import { assertWellFormed, queryOf } from "../../runtime/core/http/params.ts";
import { pathOf, targetOf } from "../../runtime/core/http/target.ts";
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

  /** URLSearchParams' names and values, and the names whose value `decodeURIComponent` refuses (`+` read as a space). */
  const searchParamsReading = (url: string) => {
    const hash = url.indexOf("#");
    const raw = url.slice(url.indexOf("?"), hash === -1 ? undefined : hash);
    const values = Object.create(null) as Record<string, string | string[]>;
    for (const [name, value] of new URLSearchParams(raw)) {
      const seen = values[name];
      values[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
    }
    const malformed = new Set<string>();
    for (const pair of raw.slice(1).split("&")) {
      const eq = pair.indexOf("=");
      if (eq === -1) continue;
      try {
        decodeURIComponent(pair.slice(eq + 1).replaceAll("+", " "));
      } catch {
        malformed.add(new URLSearchParams(`x=${pair.slice(0, eq)}`).get("x") as string);
      }
    }
    return { values, malformed };
  };
  const wellFormedNames = (query: ReturnType<typeof queryOf>, names: string[]) =>
    names.filter((name) => {
      try {
        assertWellFormed(query, name);
        return true;
      } catch {
        return false;
      }
    });

  it("decodes each value once as URLSearchParams does, and tells the values with a broken escape, whatever the query holds", () => {
    // Escapes whole, broken and of non-UTF-8 bytes, "+", "=", "&", "?", text outside ASCII and lone surrogates.
    const piece = fc.constantFrom(
      "a",
      "b",
      "=",
      "&",
      "+",
      "?",
      "%",
      "%2",
      "%41",
      "%2B",
      "%26",
      "%3D",
      "%EC%88%98",
      "%EC%88",
      "%zz",
      "%ED%A0%80",
      "%C0%AF",
      "é",
      "수",
      "\ud800",
      "#",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
        const url = `http://h/a?${pieces.join("")}`;
        const query = queryOf(url);
        const { values, malformed } = searchParamsReading(url);
        expect({ ...query }).toEqual(values);
        const names = Object.keys(values);
        expect(wellFormedNames(query, names)).toEqual(names.filter((name) => !malformed.has(name)));
      }),
      { numRuns: 5000 },
    );
    const read = queryOf("http://h/read?text=%EC%88%98+%EA%B0%80&format=ruby&x=%zz&x2=%E6%B0");
    expect({ ...read }).toEqual({ text: "수 가", format: "ruby", x: "%zz", x2: "\ufffd" });
    expect(wellFormedNames(read, ["text", "format", "x", "x2"])).toEqual(["text", "format"]);
  });
});

/** Whether a decoded parameter name is a credential's, told the long way round (the reference for SECRET_NAME). */
function isCredential(decoded: string): boolean {
  const name = decoded.replace(/\[\]$/, "").toLowerCase();
  const last = name.split(/[_.-]/).at(-1) ?? "";
  const whole = [
    "key",
    "apikey",
    "auth",
    "authorization",
    "sig",
    "signature",
    "session",
    "sessionid",
    "credential",
    "credentials",
    "pass",
    "pwd",
    "otp",
    "jwt",
  ];
  return (
    whole.includes(last) ||
    /(?:^|[_.-])(?:api_key|session_id)$/.test(name) ||
    ["token", "secret", "password", "passwd", "passphrase"].some((end) => name.endsWith(end))
  );
}

describe("redactedTarget (the access log's path)", () => {
  it("replaces every api_key value, spelled plainly or percent-encoded, and keeps the rest", () => {
    expect(redactedTarget("http://h/quiz/v1/quiz?api_key=hj_secret&count=2")).toBe("/quiz/v1/quiz?api_key=REDACTED&count=2");
    expect(redactedTarget("http://h/quiz/v1/me?count=2&API_KEY=hj_secret&api%5Fkey=hj_other")).toBe("/quiz/v1/me?count=2&API_KEY=REDACTED&api%5Fkey=REDACTED");
    expect(redactedTarget("http://h/quiz/v1/quiz?my_api_key=gone")).toBe("/quiz/v1/quiz?my_api_key=REDACTED");
    expect(redactedTarget("http://h/hanja/v1/hanja?q=monkey&monkey=kept&keys=kept&type=kept")).toBe("/hanja/v1/hanja?q=monkey&monkey=kept&keys=kept&type=kept");
    expect(redactedTarget("http://h/hanja/v1/meta")).toBe("/hanja/v1/meta");
  });

  it("replaces the value of every parameter that can carry a credential, whatever its case or encoding", () => {
    const names = [
      "token",
      "access_token",
      "admin_token",
      "refresh_token",
      "id_token",
      "accessToken",
      "key",
      "apikey",
      "api-key",
      "password",
      "passwd",
      "pwd",
      "pass",
      "secret",
      "client_secret",
      "auth",
      "authorization",
      "X-Amz-Signature",
      "sig",
      "session",
      "session_id",
      "credentials",
      "otp",
      "jwt",
      "TOKEN",
      "%74oken",
      "to%6Ben[]",
      "passphrase",
    ];
    for (const name of names) {
      expect(redactedTarget(`http://h/quiz/v1/me?count=2&${name}=s3cr3t-value&q=x`), name).toBe(`/quiz/v1/me?count=2&${name}=REDACTED&q=x`);
    }
    for (const name of [
      "q",
      "page",
      "per_page",
      "count",
      "type",
      "choices",
      "exclude",
      "strokes",
      "radical_number",
      "starter",
      "education",
      "keyword",
      "monkey",
      "passage",
      "signal",
    ]) {
      expect(redactedTarget(`http://h/hanja/v1/hanja?${name}=kept`), name).toBe(`/hanja/v1/hanja?${name}=kept`);
    }
  });

  it("replaces the admin token wherever it appears, as sent or percent-encoded", () => {
    const token = "adm1n-T0ken-value-0123456789";
    const encoded = [...token].map((c) => `%${c.charCodeAt(0).toString(16)}`).join("");
    expect(redactedTarget(`http://h/quiz/v1/admin/keys?q=${token}`, [token])).toBe("/quiz/v1/admin/keys?q=REDACTED");
    expect(redactedTarget(`http://h/quiz/v1/${token}/x`, [token])).toBe("/quiz/v1/REDACTED/x");
    expect(redactedTarget(`http://h/quiz/v1/me?x=${encoded}&q=%EC%88%98`, [token])).not.toContain(token.slice(6));
    expect(redactedTarget(`http://h/quiz/v1/me?x=${encoded}&q=%EC%88%98`, [token])).toBe("/quiz/v1/me?x=REDACTED&q=%EC%88%98");
    expect(redactedTarget(`http://h/quiz/v1/me?q=%EC%88%98`, [token])).toBe("/quiz/v1/me?q=%EC%88%98");
  });

  it("reads the name as the query parser does: any percent-encoding of api_key is redacted, and anything key-shaped anywhere", () => {
    const key = "hj_0123456789abcdefghijABCDEFGHIJ01";
    for (const name of ["%61pi_key", "api%5Fke%79", "a%70i_key", "%41PI_KEY", "api_key%5B%5D", "api_key[]"]) {
      expect(redactedTarget(`http://h/quiz/v1/me?${name}=${key}&count=2`), name).toBe(`/quiz/v1/me?${name}=REDACTED&count=2`);
    }
    expect(redactedTarget(`http://h/quiz/v1/me?;api_key=${key}`)).toBe("/quiz/v1/me?;api_key=REDACTED");
    expect(redactedTarget(`http://h/quiz/v1/me?api_key%3D${key}`)).toBe("/quiz/v1/me?api_key%3Dhj_REDACTED");
    expect(redactedTarget(`http://h/quiz/v1/idiom/${key}`)).toBe("/quiz/v1/idiom/hj_REDACTED");
    expect(redactedTarget("http://h/quiz/v1/me?api_key=%68j_0123")).toBe("/quiz/v1/me?api_key=REDACTED");
  });

  it("redacts a key shape written with any of its characters percent-encoded, in the path or any parameter", () => {
    const key = "hj_0123456789abcdefghijABCDEFGHIJ01";
    const encodeAll = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join("");
    const forms = [
      `%68j_${key.slice(3)}`,
      `hj%5f${key.slice(3)}`,
      `h%6A_${key.slice(3)}`,
      `hj_${encodeAll(key.slice(3))}`,
      encodeAll(key),
      `hj_0123%34${key.slice(8)}`,
    ];
    for (const form of forms) {
      expect(redactedTarget(`http://h/quiz/v1/me/${form}`), form).toBe("/quiz/v1/me/hj_REDACTED");
      expect(redactedTarget(`http://h/quiz/v1/me?id=${form}&count=2`), form).toBe("/quiz/v1/me?id=hj_REDACTED&count=2");
    }
    // Not a key: too short, or an escape of something that is no letter or digit.
    for (const kept of ["/hanja/v1/hanja/%E6%B0%B4", `/quiz/v1/me/%68j_${key.slice(4)}`, `/quiz/v1/me/hj_%2F${key.slice(4)}`]) {
      expect(redactedTarget(`http://h${kept}`)).toBe(kept);
    }
  });

  it("redacts exactly the pairs whose name the query parser reads as a credential's, for any query", () => {
    const key = "hj_0123456789abcdefghijABCDEFGHIJ01";
    /** Every pair checked by decoding its name as URLSearchParams does, and key shapes replaced first. */
    const reference = (target: string) => {
      const masked = target.replace(/hj_[0-9A-Za-z]{32}/g, "hj_REDACTED");
      const q = masked.indexOf("?");
      if (q === -1) return masked;
      const pairs = masked
        .slice(q + 1)
        .split("&")
        .map((pair) => {
          const eq = pair.indexOf("=");
          if (eq === -1) return pair;
          const name = [...new URLSearchParams(`${pair.slice(0, eq)}=`).keys()][0] ?? "";
          return isCredential(name) ? `${pair.slice(0, eq)}=REDACTED` : pair;
        });
      return `${masked.slice(0, q)}?${pairs.join("&")}`;
    };
    const name = fc.oneof(
      fc.constantFrom(
        "api_key",
        "API_Key",
        "api%5Fkey",
        "%61%70%69%5f%6b%65%79",
        "api_key[]",
        "api_key%5B%5D",
        "api+key",
        "apikey",
        "api_ke",
        "my_api_key",
        "q",
        "count",
        "exclude",
        "",
        "token",
        "to%6Ben",
        "x_token",
        "tokens",
        "session_id",
        "xsession_id",
        "monkey",
        "key_",
        "secret",
      ),
      fc.stringMatching(/^[a-z_%5F0-9+]{0,10}$/),
    );
    const value = fc.oneof(fc.constantFrom(key, "x", "", "a=b", "%EA%B0%80"), fc.stringMatching(/^[A-Za-z0-9%_.-]{0,12}$/));
    const pair = fc.oneof(
      fc.tuple(name, value).map(([n, v]) => `${n}=${v}`),
      name,
    );
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 5 }), fc.boolean(), (pairs, withQuery) => {
        const url = `http://h/quiz/v1/me${withQuery ? `?${pairs.join("&")}` : ""}`;
        expect(redactedTarget(url)).toBe(reference(targetOf(url)));
      }),
      { numRuns: 3000 },
    );
  });

  it("a key sent under an encoded name works, and the access log does not hold it", async () => {
    const entries: { path: string; status: number }[] = [];
    const app = testApp({ log: (entry) => void entries.push(entry) });
    const issued = await app.fetch(
      new Request("http://localhost/quiz/v1/subscribe", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: "Log Check", email: "log-check@example.com" }),
      }),
      { clientAddress: "192.0.2.9" },
    );
    const { api_key: key } = (await issued.json()) as { api_key: string };
    const me = await app.fetch(new Request(`http://localhost/quiz/v1/me?%61pi_key=${key}`), { clientAddress: "192.0.2.9" });
    expect(((await me.json()) as { key: { plan: string } }).key.plan).toBe("free");
    expect(entries.at(-1)?.path).toBe("/quiz/v1/me?%61pi_key=REDACTED");
    for (const entry of entries) expect(JSON.stringify(entry)).not.toContain(key);
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
