/**
 * Property tests of interface A: arbitrary query strings (any Unicode, lone surrogates, control
 * characters, stray `%`, bad UTF-8 escapes, very long values) never make the service fail — only
 * 200 or 400 — and valid filter/paging combinations always agree with the file.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { HanjaRecord } from "../../runtime/format/records.ts";
import { call, getJson, testApp } from "../helpers/app.ts";
import { BASE, type Envelope, type Filters, type FixedSort, expectEnvelope, fileRecords, passes, sortedBy } from "./hanja-expect.ts";

const errors: unknown[] = [];
const app = testApp({ onError: (error) => void errors.push(error) });

const HANJA_PARAMS = ["q", "page", "per_page", "strokes", "radical_number", "starter", "education", "school_level", "sort"];
const IDIOM_PARAMS = ["q", "page", "per_page"];
const WORD_PARAMS = ["q", "char", "page", "per_page"];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const control = fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c));
const special = fc.constantFrom(
  "%",
  "%%",
  "%E6%B0",
  "%ED%A0%80",
  "%FF",
  "%00",
  "&",
  "=",
  "+",
  "#",
  "?",
  "/",
  "\\",
  " ",
  "\u3000",
  "水",
  "𮕩",
  "수",
  "ㄱ",
  "U+",
  "reading",
  "strokes",
  "e",
  ".",
  "-",
);
/** Any text: every code point, lone surrogates and the characters that matter in a query string. */
const anyText = fc
  .array(fc.oneof(fc.string({ unit: "binary", maxLength: 8 }), loneSurrogate, control, special, fc.string({ unit: "grapheme", maxLength: 8 })), {
    maxLength: 40,
  })
  .map((parts) => parts.join(""));
const numberLike = fc.stringMatching(/^[+-]?\d{0,20}(\.\d{0,3})?([eE][+-]?\d{1,3})?$/);
const veryLong = fc
  .tuple(fc.oneof(fc.string({ unit: "binary", minLength: 1, maxLength: 4 }), special), fc.integer({ min: 70, max: 4000 }))
  .map(([s, n]) => s.repeat(n));
const value = fc.oneof({ arbitrary: anyText, weight: 4 }, { arbitrary: numberLike, weight: 2 }, { arbitrary: veryLong, weight: 1 });
const badEscapes = fc.uint8Array({ maxLength: 12 }).map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, "0")}`).join(""));

/** How a value reaches the URL: properly form-encoded, pasted raw, or as arbitrary percent-escaped bytes. */
type Encoding = "form" | "raw" | "bytes";

function encode(name: string, text: string, encoding: Encoding, bytes: string): string {
  if (encoding === "form") return new URLSearchParams([[name, text]]).toString();
  if (encoding === "raw") return `${name}=${text}`;
  return `${name}=${bytes}`;
}

function pairs(names: string[]) {
  return fc.array(
    fc.record({
      name: fc.oneof({ arbitrary: fc.constantFrom(...names), weight: 5 }, { arbitrary: fc.string({ maxLength: 6 }), weight: 1 }),
      text: value,
      encoding: fc.constantFrom<Encoding>("form", "raw", "bytes"),
      bytes: badEscapes,
    }),
    { minLength: 1, maxLength: 4 },
  );
}

/** The response is 200 with a consistent envelope or 400 naming a known parameter; nothing else. */
async function expectHandled(response: Response, names: string[]): Promise<void> {
  const text = await response.text();
  expect([200, 400]).toContain(response.status);
  const body = JSON.parse(text) as Envelope<unknown> & { code?: string; param?: string };
  if (response.status === 200) {
    expect(body.pages).toBe(Math.ceil(body.total / body.per_page));
    expect(body.data.length).toBeLessThanOrEqual(body.per_page);
  } else {
    expect(body.code).toBe("invalid_parameter");
    expect(names).toContain(body.param);
  }
}

describe("random query strings never fail the server", () => {
  test.each([
    ["hanja", HANJA_PARAMS],
    ["idioms", IDIOM_PARAMS],
    ["words", WORD_PARAMS],
  ] as const)("/%s", async (route, names) => {
    await fc.assert(
      fc.asyncProperty(pairs([...names]), async (list) => {
        const query = list.map((p) => encode(p.name, p.text, p.encoding, p.bytes)).join("&");
        await expectHandled(await call(app, `${BASE}/${route}?${query}`), [...names]);
      }),
      { numRuns: 300 },
    );
    expect(errors).toEqual([]);
  });

  test("/read: random texts and query strings are read (200) or refused naming text or format (400)", async () => {
    await fc.assert(
      fc.asyncProperty(pairs(["text", "format"]), async (list) => {
        const query = list.map((p) => encode(p.name, p.text, p.encoding, p.bytes)).join("&");
        const response = await call(app, `${BASE}/read?${query}`);
        const body = JSON.parse(await response.text()) as { text?: string; hangul?: string; segments?: unknown[]; code?: string; param?: string };
        expect([200, 400]).toContain(response.status);
        if (response.status === 200) expect(typeof body.hangul).toBe("string");
        else expect(["text", "format"]).toContain(body.param);
      }),
      { numRuns: 300 },
    );
    expect(errors).toEqual([]);
  });

  test("POST /read: any text of any script, astral, compatibility and combining characters included, is read or refused, never a 5xx", async () => {
    const scripts = fc.string({ unit: fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)), maxLength: 60 });
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyText, scripts), fc.constantFrom("text/plain", "application/json"), async (text, type) => {
        const body = type === "text/plain" ? text : JSON.stringify({ text });
        const response = await call(app, `${BASE}/read`, { method: "POST", headers: { "content-type": type }, body });
        const answer = JSON.parse(await response.text()) as { hangul?: string; param?: string };
        expect([200, 400]).toContain(response.status);
        if (response.status === 400) expect(["text", "body"]).toContain(answer.param);
        else expect([...(answer.hangul ?? "")].length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
    expect(errors).toEqual([]);
  });

  test("/radicals: a random query is ignored, the same 214 radicals answer", async () => {
    const plain = await (await call(app, `${BASE}/radicals`)).text();
    await fc.assert(
      fc.asyncProperty(pairs(["radical_number", "page"]), async (list) => {
        const query = list.map((p) => encode(p.name, p.text, p.encoding, p.bytes)).join("&");
        const response = await call(app, `${BASE}/radicals?${query}`);
        expect(response.status).toBe(200);
        expect(await response.text()).toBe(plain);
      }),
      { numRuns: 100 },
    );
    expect(JSON.parse(plain).data).toHaveLength(214);
    expect(errors).toEqual([]);
  });

  test("/hanja/{character}: random segments are 200, 400 or 404", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyText, badEscapes), fc.boolean(), async (text, raw) => {
        const segment = raw ? text.replace(/[/?#]/g, "") : new URLSearchParams([["", text]]).toString().slice(1);
        const response = await call(app, `${BASE}/hanja/${segment}`);
        expect([200, 400, 404]).toContain(response.status);
        JSON.parse(await response.text());
      }),
      { numRuns: 300 },
    );
    expect(errors).toEqual([]);
  });
});

describe("valid filters and paging agree with the file", () => {
  test("any combination, in any order", async () => {
    const filters = fc.record(
      {
        strokes: fc.integer({ min: 1, max: 64 }),
        radical_number: fc.integer({ min: 1, max: 214 }),
        starter: fc.constantFrom<0 | 1>(0, 1),
        education: fc.constantFrom<0 | 1>(0, 1),
        school_level: fc.constantFrom<"middle" | "high">("middle", "high"),
      },
      { requiredKeys: [] },
    );
    const paging = fc.record({
      page: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 10_000 })),
      per_page: fc.integer({ min: 1, max: 50 }),
    });
    const order = fc.record({ sort: fc.constantFrom<FixedSort | "relevance">("relevance", "reading", "strokes", "codepoint") }, { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(filters, paging, order, async (f: Filters, { page, per_page }, { sort }) => {
        const query = new URLSearchParams(
          Object.entries({ ...f, page, per_page, sort }).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
        ).toString();
        const { status, body } = await getJson<Envelope<HanjaRecord>>(app, `${BASE}/hanja?${query}`);
        expect(status).toBe(200);
        const matching = fileRecords().filter((r) => passes(r, f));
        // Without q, relevance is code point order.
        const expected = sort === undefined || sort === "relevance" ? matching : sortedBy(matching, sort);
        expect(body.total).toBe(expected.length);
        expectEnvelope(body, page, per_page);
        expect(body.data.map((r) => r.character)).toEqual(expected.slice((page - 1) * per_page, page * per_page).map((r) => r.character));
      }),
      { numRuns: 200 },
    );
  });
});
