/**
 * Query parameters of interface A (docs/rules.md "Interface A", "Errors"): integers are plain decimal digits within the
 * published bounds, a parameter given twice is 400, `q` is at most 80 code points, unknown
 * parameters are ignored. Every 400 is a problem+json body naming the parameter.
 */
import { describe, expect, test } from "vitest";
import { call, getJson, testApp } from "../helpers/app.ts";
import { BASE, expectProblem, qs } from "./hanja-expect.ts";

const app = testApp();

const INTEGERS = [
  { param: "page", min: 1, max: 10_000, routes: ["hanja", "idioms"] },
  { param: "per_page", min: 1, max: 50, routes: ["hanja", "idioms"] },
  { param: "strokes", min: 1, max: 64, routes: ["hanja"] },
  { param: "radical_number", min: 1, max: 214, routes: ["hanja"] },
  { param: "starter", min: 0, max: 1, routes: ["hanja"] },
  { param: "education", min: 0, max: 1, routes: ["hanja"] },
] as const;

/** Raw query text (already percent-encoded where needed) for each invalid form. */
function invalidForms(min: number, max: number): [string, string][] {
  return [
    ["letters", "abc"],
    ["digits then letters", "1a"],
    ["decimal", "1.5"],
    ["decimal zero fraction", "1.0"],
    ["plus sign", "%2B1"],
    ["minus sign", "-1"],
    ["exponent", "1e2"],
    ["hex", "0x1"],
    ["empty", ""],
    ["blank", "%20"],
    ["padded", "%201"],
    ["full-width digit", encodeURIComponent("１")],
    ["below min", String(min - 1)],
    ["above max", String(max + 1)],
    ["huge", "99999999999999999999"],
  ];
}

describe.each(INTEGERS)("$param", ({ param, min, max, routes }) => {
  for (const route of routes) {
    test.each(invalidForms(min, max))(`/${route}: %s → 400 naming ${param}`, async (form, raw) => {
      const body = await expectProblem(await call(app, `${BASE}/${route}?${param}=${raw}`), 400, "invalid_parameter", param);
      expect(body.detail).toContain(param);
      // Digits out of bounds are told the bounds, not to write digits.
      if (/^\d+$/.test(raw)) expect(body.detail, form).toBe(`${param} must be from ${min} to ${max}; got ${raw}`);
    });

    test(`/${route}: the bare name (?${param}) → 400`, async () => {
      await expectProblem(await call(app, `${BASE}/${route}?${param}`), 400, "invalid_parameter", param);
    });

    test.each([
      [`${param}=${min}&${param}=${max}`],
      [`${param}=${min}&${param}=${min}`],
      [`${param}=${min}&${param}=`],
      [`${param}=&${param}=${min}`],
      [`${param}=&${param}=`],
    ])(`/${route}: repeated (%s) → 400`, async (query) => {
      await expectProblem(await call(app, `${BASE}/${route}?${query}`), 400, "invalid_parameter", param);
    });

    test(`/${route}: the bounds ${min} and ${max} are accepted`, async () => {
      for (const value of [min, max]) {
        const { status, body } = await getJson(app, `${BASE}/${route}?${param}=${value}`);
        expect(status).toBe(200);
        if (param === "page" || param === "per_page") expect(body[param]).toBe(value);
      }
    });
  }
});

describe("q", () => {
  for (const route of ["hanja", "idioms"]) {
    test(`/${route}: 81 code points → 400 naming q (BMP and astral)`, async () => {
      for (const q of ["水".repeat(81), "𮕩".repeat(81), "a".repeat(41) + "𮕩".repeat(40)]) {
        const body = await expectProblem(await call(app, `${BASE}/${route}${qs({ q })}`), 400, "invalid_parameter", "q");
        expect(body.detail).toMatch(/80/);
      }
    });

    test(`/${route}: 80 code points (160 UTF-16 units) → 200; spaces around do not count`, async () => {
      for (const q of ["𮕩".repeat(80), `  ${"水".repeat(80)}  `, "x".repeat(80)]) {
        expect((await call(app, `${BASE}/${route}${qs({ q })}`)).status).toBe(200);
      }
    });

    test(`/${route}: repeated q → 400`, async () => {
      for (const query of ["q=%E6%B0%B4&q=%E7%81%AB", "q=&q=%E6%B0%B4", "q=%E6%B0%B4&q="]) {
        await expectProblem(await call(app, `${BASE}/${route}?${query}`), 400, "invalid_parameter", "q");
      }
    });

    test(`/${route}: blank q is the empty query`, async () => {
      const plain = await getJson(app, `${BASE}/${route}`);
      for (const query of ["q=", "q=%20%20", "q=%09"]) {
        const { status, body } = await getJson(app, `${BASE}/${route}?${query}`);
        expect(status).toBe(200);
        expect(body).toEqual(plain.body);
      }
    });
  }
});

describe("unknown parameters are ignored", () => {
  test.each(["hanja", "idioms"])("/%s", async (route) => {
    const plain = await getJson(app, `${BASE}/${route}?page=2&per_page=3`);
    const extra = await getJson(app, `${BASE}/${route}?page=2&foo=bar&per_page=3&foo=baz&PAGE=x&api_key=zzz&__proto__=1&constructor=2`);
    expect(extra.status).toBe(200);
    expect(extra.body).toEqual(plain.body);
  });

  test("/hanja filters are not parameters of /idioms", async () => {
    const plain = await getJson(app, `${BASE}/idioms`);
    const extra = await getJson(app, `${BASE}/idioms?strokes=abc&radical_number=0&starter=5&education=-1`);
    expect(extra.status).toBe(200);
    expect(extra.body).toEqual(plain.body);
  });

  test("/meta ignores parameters", async () => {
    const plain = await getJson(app, `${BASE}/meta`);
    const extra = await getJson(app, `${BASE}/meta?page=abc&q=x`);
    expect(extra.status).toBe(200);
    expect(extra.body).toEqual(plain.body);
  });
});

describe("several bad parameters", () => {
  test("the 400 names one of them", async () => {
    const response = await call(app, `${BASE}/hanja?strokes=0&page=0&q=${"a".repeat(81)}&education=2`);
    expect(response.status).toBe(400);
    const body = JSON.parse(await response.text()) as { param: string; code: string };
    expect(body.code).toBe("invalid_parameter");
    expect(["q", "page", "strokes", "education"]).toContain(body.param);
  });
});

describe("a broken percent-escape in a parameter the route reads", () => {
  test("→ 400 naming it on both interfaces (and not metered), instead of searching for U+FFFD or a literal %zz", async () => {
    const quiz = testApp();
    for (const bad of ["%E6%B0", "%zz", "%", "a%2", "%ED%A0%80", "%C0%AF"]) {
      const body = await expectProblem(await call(app, `${BASE}/hanja?q=${bad}`), 400, "invalid_parameter", "q");
      expect(body.detail, bad).toContain("percent-encoded UTF-8");
      await expectProblem(await call(app, `${BASE}/idioms?q=${bad}`), 400, "invalid_parameter", "q");
      await expectProblem(await call(quiz, `/quiz/v1/search?q=${bad}`, { clientAddress: "192.0.2.44" }), 400, "invalid_parameter", "q");
      await expectProblem(await call(app, `${BASE}/hanja?per_page=${bad}`), 400, "invalid_parameter", "per_page");
    }
    // An escaped name is read as the name it decodes to.
    await expectProblem(await call(app, `${BASE}/hanja?%71=%zz`), 400, "invalid_parameter", "q");
    expect((await getJson(quiz, "/quiz/v1/me", { clientAddress: "192.0.2.44" })).body.key.used_today).toBe(0);
  });

  test("in a parameter no route reads, it is ignored like the parameter; good escapes and + still decode", async () => {
    expect((await call(app, `${BASE}/meta?x=%zz`)).status).toBe(200);
    const found = await getJson(app, `${BASE}/hanja?q=${encodeURIComponent("수")}&unused=%E6%B0&per_page=2`);
    expect(found.status).toBe(200);
    expect(found.body.data).toHaveLength(2);
    expect((await getJson(app, `${BASE}/hanja?q=fresh+water`)).status).toBe(200);
  });
});

describe("q is matched in its composed form", () => {
  const nfd = (text: string) => text.normalize("NFD");
  test("Hangul sent as conjoining jamo (NFD, as macOS keeps text) finds what the syllables find, on every search", async () => {
    const quiz = testApp();
    expect(nfd("물")).not.toBe("물");
    for (const [path, word] of [
      [`${BASE}/hanja`, "물"],
      [`${BASE}/idioms`, "은혜"],
      [`${BASE}/hanja`, "하늘 천"],
    ] as const) {
      const composed = await getJson(app, `${path}?q=${encodeURIComponent(word)}`);
      expect(composed.body.total, word).toBeGreaterThan(0);
      expect((await getJson(app, `${path}?q=${encodeURIComponent(nfd(word))}`)).body, word).toEqual(composed.body);
    }
    const b = await getJson(quiz, `/quiz/v1/search?q=${encodeURIComponent(nfd("은혜"))}`, { clientAddress: "192.0.2.45" });
    expect(b.body.count).toBeGreaterThan(0);
    expect(b.body.query).toBe("은혜");
  });

  test("full-width ASCII reads as ASCII", async () => {
    const plain = await getJson(app, `${BASE}/hanja?q=water`);
    expect(plain.body.total).toBeGreaterThan(0);
    expect((await getJson(app, `${BASE}/hanja?q=${encodeURIComponent("ＷＡＴＥＲ")}`)).body).toEqual(plain.body);
    expect((await getJson(app, `${BASE}/hanja?q=${encodeURIComponent("Ｕ＋６Ｃ３４")}`)).body.data.map((r: { character: string }) => r.character)).toEqual([
      "水",
    ]);
  });

  test("a CJK compatibility ideograph stays itself (NFC would make it another character)", async () => {
    // U+F900 豈 is a record of its own; NFC maps it to U+8C48 豈.
    const compat = await getJson(app, `${BASE}/hanja?q=${encodeURIComponent("\uF900")}`);
    expect(compat.body.data.map((r: { codepoint: string }) => r.codepoint)).toEqual(["U+F900"]);
    const unified = await getJson(app, `${BASE}/hanja?q=${encodeURIComponent("\u8C48")}`);
    expect(unified.body.data.map((r: { codepoint: string }) => r.codepoint)).toEqual(["U+8C48"]);
  });
});

describe("punctuation around q is not part of it (text pasted from a sentence or a list)", () => {
  const body = async (path: string, q: string) => (await getJson(app, `${path}?q=${encodeURIComponent(q)}`)).body;
  test("each wrapped query answers what the bare one does, on every kind of match", async () => {
    const cases: [string, string, string[]][] = [
      [`${BASE}/hanja`, "水", ["(水)", "水.", "「水」"]],
      [`${BASE}/hanja`, "수", ["“수”", "수?", "'수',"]],
      [`${BASE}/hanja`, "U+6C34", ["U+6C34,", "[U+6C34]"]],
      [`${BASE}/hanja`, "water", ["'water'.", "water!"]],
      [`${BASE}/idioms`, "각골난망", ["각골난망.", "“각골난망”", " (각골난망) "]],
      [`${BASE}/idioms`, "刻骨難忘", ["「刻骨難忘」", "刻骨難忘!"]],
      [`${BASE}/idioms`, "ㄱㄱㄴㅁ", ["ㄱㄱㄴㅁ…"]],
    ];
    for (const [path, bare, wrapped] of cases) {
      const plain = await body(path, bare);
      expect(plain.total, bare).toBeGreaterThan(0);
      for (const q of wrapped) expect(await body(path, q), q).toEqual(plain);
    }
  });

  test("punctuation inside a query stays, and a query of punctuation alone matches nothing (not everything)", async () => {
    expect((await body(`${BASE}/idioms`, "각골.난망")).total).toBe(0);
    for (const q of ["...", "!", "“”"]) {
      for (const path of [`${BASE}/hanja`, `${BASE}/idioms`]) expect((await body(path, q)).total, `${path} ${q}`).toBe(0);
    }
  });

  test("quiz /search: the query reported is the one matched; punctuation alone is not blank", async () => {
    const quiz = testApp();
    const wrapped = await getJson(quiz, `/quiz/v1/search?q=${encodeURIComponent("“각골난망.”")}`, { clientAddress: "192.0.2.46" });
    expect(wrapped.status).toBe(200);
    expect(wrapped.body.query).toBe("각골난망");
    expect(wrapped.body.idioms[0].hangul).toBe("각골난망");
    const dots = await getJson(quiz, `/quiz/v1/search?q=...`, { clientAddress: "192.0.2.46" });
    expect(dots.status).toBe(200);
    expect(dots.body).toMatchObject({ query: "...", count: 0, total: 0 });
  });
});
