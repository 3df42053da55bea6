/** `GET` and `POST /hanja/v1/read` in process: the answer, its forms, the links, and every refusal with its status and `param`. */
import { gunzipSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { readHanja } from "../../runtime/core/index.ts";
import { call, getJson, testApp } from "../helpers/app.ts";

const app = testApp({ mountPath: "" });
const READ = "/hanja/v1/read";
const get = (text: string, extra = "") => getJson(app, `${READ}?text=${encodeURIComponent(text)}${extra}`);
const post = (body: string, type = "text/plain; charset=utf-8", query = "") =>
  getJson(app, `${READ}${query}`, { method: "POST", headers: { "content-type": type }, body });

describe("GET /read", () => {
  test("reads a sentence: the reading, the words with their source, other readings, offsets and links", async () => {
    const { status, body, headers } = await get("大韓民國은 歷史에 民");
    expect(status).toBe(200);
    expect(body.text).toBe("大韓民國은 歷史에 民");
    expect(body.hangul).toBe("대한민국은 역사에 민");
    expect(body.segments).toEqual([
      { hanja: "大韓民國", hangul: "대한민국", source: "dictionary", other_readings: [], offset: 0 },
      { hanja: "歷史", hangul: "역사", source: "dictionary", other_readings: ["력사"], offset: 6 },
      { hanja: "民", hangul: "민", source: "characters", other_readings: [], offset: 10, href: `/hanja/v1/hanja/${encodeURIComponent("民")}` },
    ]);
    expect(headers.get("cache-control")).toBe("public, max-age=86400");
    expect(headers.get("etag")).toMatch(/^"/);
  });

  test("the answer is the reading's JSON in UTF-8: its Content-Length (HEAD), its gzip form and a POST's are those bytes", async () => {
    // Long enough for its answer to be compressed.
    const text = '大韓民國은 歷史에 民 "𠀀" 水 '.repeat(12);
    const path = `${READ}?text=${encodeURIComponent(text)}`;
    const expected = Buffer.from(JSON.stringify(readHanja(text, app.data)));
    const bytes = Buffer.from(await (await call(app, path)).arrayBuffer());
    expect(bytes).toEqual(expected);
    const head = await call(app, path, { method: "HEAD" });
    expect(head.headers.get("content-length")).toBe(String(expected.length));
    const zipped = await call(app, path, { headers: { "accept-encoding": "gzip" } });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await zipped.arrayBuffer()))).toEqual(expected);
    const posted = await call(app, READ, { method: "POST", headers: { "content-type": "text/plain" }, body: text });
    expect(Buffer.from(await posted.arrayBuffer())).toEqual(expected);
  });

  test("the issue's words, read as the standard does", async () => {
    const cases: [string, string][] = [
      ["樂山樂水", "요산요수"],
      ["六月 十月", "유월 시월"],
      ["比率 確率", "비율 확률"],
      ["不動産 不正", "부동산 부정"],
      ["便所 木瓜 菩提 議論", "변소 모과 보리 의논"],
      ["女子 來日 男女 經歷", "여자 내일 남녀 경력"],
      ["音樂 快樂", "음악 쾌락"],
      // After a number 年 is the bound noun 년 (제10항 다만), also where it starts a word; 兩 냥, 列 열.
      ["2025年度 1950年代 3年間 2年次 5年來", "2025년도 1950년대 3년간 2년차 5년래"],
      ["5兩 3列 10里", "5냥 3열 10리"],
    ];
    for (const [text, reading] of cases) expect((await get(text)).body.hangul, text).toBe(reading);
  });

  test("links an idiom to its idx", async () => {
    const { body } = await get("刻骨難忘");
    expect(body.segments[0]).toMatchObject({ hanja: "刻骨難忘", hangul: "각골난망", source: "dictionary" });
    expect(body.segments[0].idiom_idx).toBeGreaterThan(0);
    const idiom = await getJson(app, `/hanja/v1/idioms?q=${encodeURIComponent("刻骨難忘")}`);
    expect(String(body.segments[0].idiom_idx)).toBe(idiom.body.data[0].idx);
  });

  test("paren and ruby forms", async () => {
    expect((await get("大韓民國은", "&format=paren")).body.hangul).toBe("대한민국(大韓民國)은");
    expect((await get("<歷史>", "&format=ruby")).body.hangul).toBe("&#60;<ruby>歷史<rt>역사</rt></ruby>&#62;");
    const bad = await get("歷史", "&format=html");
    expect(bad.status).toBe(400);
    expect(bad.body.param).toBe("format");
  });

  test("answers what the package exports as readHanja returns", async () => {
    const text = "金大中과 李舜臣, 𠀀 and 樂";
    expect((await get(text)).body).toEqual(readHanja(text, app.data));
  });

  test("links each character under the base it is read for, the service's or an embedder's, in turn", async () => {
    const hrefs = (base?: string) => readHanja("民 水", app.data, base === undefined ? {} : { base }).segments.map((s) => s.href);
    const encoded = ["民", "水"].map((c) => encodeURIComponent(c));
    for (let turn = 0; turn < 2; turn++) {
      expect(hrefs()).toEqual(encoded.map((c) => `/hanja/v1/hanja/${c}`));
      expect(hrefs("/api/hanja")).toEqual(encoded.map((c) => `/api/hanja/hanja/${c}`));
      expect(hrefs("")).toEqual(encoded.map((c) => `/hanja/${c}`));
    }
    const mounted = testApp({ mountPath: "/svc" });
    const { body } = await getJson(mounted, `${READ}?text=${encodeURIComponent("民")}`);
    expect(body.segments[0].href).toBe(`/svc/hanja/v1/hanja/${encoded[0]}`);
  });

  test("refuses a missing, empty, too long or control-character text with 400 naming text and the rule", async () => {
    for (const [target, detail] of [
      [READ, "text is required"],
      [`${READ}?text=`, "text is required"],
      [`${READ}?text=${"水".repeat(1001)}`, "text is 1001 characters long; the limit is 1000"],
      [`${READ}?text=a%00b`, "control character U+0000"],
      [`${READ}?text=%ED%A0%80`, "not valid percent-encoded UTF-8"],
      [`${READ}?text=a&text=b`, "given 2 times"],
    ] as const) {
      const { status, body } = await getJson(app, target);
      expect(status, target).toBe(400);
      expect(body.param, target).toBe("text");
      expect(body.detail, target).toContain(detail);
    }
    expect((await get("水".repeat(1000))).status).toBe(200);
  });

  test("keeps the text as sent: spaces, line breaks and tabs around it included", async () => {
    const { body } = await get(" 水\n\t");
    expect(body.text).toBe(" 水\n\t");
    expect(body.hangul).toBe(" 수\n\t");
  });
});

describe("POST /read", () => {
  test("reads a text/plain body and a JSON body alike", async () => {
    const plain = await post("六月과 十月");
    const json = await post(JSON.stringify({ text: "六月과 十月" }), "application/json");
    expect(plain.status).toBe(200);
    expect(plain.body.hangul).toBe("유월과 시월");
    expect(json.body).toEqual(plain.body);
    expect(plain.headers.get("cache-control")).toBe("no-store");
    expect((await post("歷史", "text/plain", "?format=paren")).body.hangul).toBe("역사(歷史)");
  });

  test("takes 20,000 characters; more is 413", async () => {
    expect((await post("水".repeat(20_000))).status).toBe(200);
    const over = await post("水".repeat(20_001));
    expect(over.status).toBe(413);
    expect(over.body.code).toBe("payload_too_large");
    expect(over.body.detail).toContain("text is 20001 characters long");
    const huge = await post("a".repeat(300_000));
    expect(huge.status).toBe(413);
  });

  test("refuses an empty text, a lone surrogate, a control character, a text that is not a string: 400 naming text", async () => {
    for (const [body, type, detail] of [
      ["", "text/plain", "text is required"],
      ["{}", "application/json", "text is required"],
      [JSON.stringify({ text: "a\uD800" }), "application/json", "lone surrogate (U+D800) at index 1"],
      ["a\u0007", "text/plain", "control character U+0007"],
      [JSON.stringify({ text: 5 }), "application/json", "text must be a string; got number"],
    ] as const) {
      const answer = await post(body, type);
      expect(answer.status, body).toBe(400);
      expect(answer.body.param, body).toBe("text");
      expect(answer.body.detail, body).toContain(detail);
    }
    const notJson = await post("{", "application/json");
    expect([notJson.status, notJson.body.param]).toEqual([400, "body"]);
  });

  test("refuses other media types and charsets with 415", async () => {
    expect((await post("水", "application/x-www-form-urlencoded")).status).toBe(415);
    expect((await post("水", "text/plain; charset=euc-kr")).status).toBe(415);
    const none = await call(app, READ, { method: "POST", body: new Uint8Array([0xe6, 0xb0, 0xb4]) });
    expect(none.status).toBe(415);
  });

  test("other methods get 405 with Allow", async () => {
    const response = await call(app, READ, { method: "PUT", body: "x" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toContain("POST");
  });
});
