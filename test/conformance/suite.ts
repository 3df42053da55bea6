/**
 * The HTTP conformance suite (docs/rules.md "Interface A", "Interface B", "Errors", "Headers", "Runtimes and configuration"), run unchanged against every way the server ships by
 * six-line test files: a real process on a free port with a fresh SQLite quota store, asserted
 * on status codes, bodies and headers of every operation of both interfaces.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { Validator } from "@seriousme/openapi-schema-validator";
import { gzipSync as fflateGzip } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Reply, awayFromRollover, expectProblem, expectRateLimit, send, sendMethod, sendRaw, sendUnencoded } from "./client.ts";
import type { ConformanceServer, StartServer } from "./servers.ts";
import { RATE_LIMIT_HEADERS, carriedNames, exposedNames } from "../helpers/cors.ts";
import { CHARACTERS, EDUCATION_HANJA, PIN, UNIHAN_SOURCE, spotRecord } from "../helpers/pin.ts";
import { rawExchange } from "../helpers/server.ts";
import { parseSamples, promtoolCheck, sampleValue } from "../helpers/metrics.ts";

const A = "/hanja/v1";
const B = "/quiz/v1";
const ADMIN_TOKEN = "conformance-admin-token-0123456789";
const METRICS_TOKEN = "conformance-metrics-token-0123456789";
const JSON_TYPE = "application/json; charset=utf-8";
const WATER = encodeURIComponent("水");
const SU = encodeURIComponent("수");

/** Defines one `describe` of HTTP tests against the server `start` launches. */
export function conformanceSuite(label: string, start: StartServer): void {
  describe(`HTTP conformance: ${label}`, () => {
    let dir = "";
    let server: ConformanceServer;
    /** A free key for the interface B checks, so that only the quota test spends the demo quota. */
    let key = "";
    const get = (path: string, init?: RequestInit) => send(server.url, path, init);
    const withKey = (path: string, init: RequestInit = {}) =>
      get(path, { ...init, headers: { ...(init.headers as Record<string, string>), "X-API-Key": key } });
    const subscribe = (body: unknown, contentType = "application/json") =>
      get(`${B}/subscribe`, { method: "POST", headers: { "Content-Type": contentType }, body: JSON.stringify(body) });

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "hanja-conformance-"));
      server = await start({ QUOTA_DB: join(dir, "quota.sqlite"), ADMIN_TOKEN, METRICS_TOKEN });
      const issued = await subscribe({ name: "Conformance", email: "shapes@example.com" });
      expect(issued.status, issued.text).toBe(201);
      key = issued.body.api_key;
    });
    afterAll(async () => {
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    describe("interface A", () => {
      it("GET /hanja/{character}: the detail record of 水 with its idioms", async () => {
        const reply = await get(`${A}/hanja/${WATER}`);
        expect(reply.status).toBe(200);
        expect(reply.headers.get("content-type")).toBe(JSON_TYPE);
        expect(reply.headers.get("cache-control")).toBe("public, max-age=86400");
        expect(reply.headers.get("etag")).toMatch(/^"[^"]+"$/);
        expect(reply.text).toContain('"character":"水"'); // plain UTF-8, not \u escapes
        expect(reply.body).toMatchObject({
          ...spotRecord("水"),
          starter: true,
          meaning_ko: "물 수",
          source: UNIHAN_SOURCE,
        });
        const idioms = reply.body.idioms as { idx: string; hanja: string; chosung: string }[];
        expect(idioms.length).toBeGreaterThan(0);
        for (const idiom of idioms) {
          expect(idiom.hanja).toContain("水");
          expect(typeof idiom.idx).toBe("string");
        }
        expect(idioms.map((i) => Number(i.idx))).toEqual(idioms.map((i) => Number(i.idx)).sort((a, b) => a - b));
      });

      it("school levels and the words' English meanings: ?school_level= keeps 900, a detail carries its level, a word its meaning_en", async () => {
        const high = await get(`${A}/hanja?school_level=high&per_page=1`);
        expect(high.body).toMatchObject({ total: 900, data: [{ character: "丈", school_level: "high" }] });
        expect((await get(`${A}/hanja/${WATER}`)).body).toMatchObject({ school_level: "middle" });
        expectProblem(await get(`${A}/hanja?school_level=senior`), 400, "invalid_parameter", "school_level");
        // Every way the server ships reads dist/ (the binary embeds it): words-en.txt is there, unlike in the npm package.
        const words = await get(`${A}/words?q=${encodeURIComponent("水道")}&per_page=1`);
        expect(words.body.data[0]).toMatchObject({ hanja: "水道", meaning_en: "water supply; waterworks (municipal utility); tap water" });
      });

      it("GET /hanja?sort=reading: a school level in 가나다 order of reading, then strokes (加 可 佳 家 …), paged the same; sort=bogus 400 naming sort", async () => {
        const first = await get(`${A}/hanja?school_level=middle&sort=reading&per_page=8`);
        expect(first.body.total).toBe(900);
        expect(first.body.data.map((r: { character: string }) => r.character).join("")).toBe("加可佳家假街歌價");
        const second = await get(`${A}/hanja?school_level=middle&sort=reading&per_page=4&page=2`);
        expect(second.body.data.map((r: { character: string }) => r.character).join("")).toBe("假街歌價");
        const last = await get(`${A}/hanja?school_level=middle&sort=reading&per_page=50&page=18`);
        const readings = last.body.data.map((r: { reading: string }) => r.reading);
        expect(readings).toEqual([...readings].sort(new Intl.Collator("ko").compare));
        expect(readings.at(-1)).toBe("희");
        expectProblem(await get(`${A}/hanja?sort=bogus`), 400, "invalid_parameter", "sort");
      });

      it("GET /hanja/{character}/strokes: 水 Korean, 丁 Chinese, 値 Japanese (KanjiVG's centre lines, outline null), each with its source and licence, as the detail's stroke_order says; 卽 404 and two characters 400, naming character", async () => {
        for (const [character, form, name, license] of [
          ["水", "ko", "animCJK", "Arphic-1999"],
          ["丁", "zh", "hanzi-writer-data", "Arphic-1999"],
          ["値", "ja", "KanjiVG", "CC-BY-SA-3.0"],
        ] as const) {
          const reply = await get(`${A}/hanja/${encodeURIComponent(character)}/strokes`);
          expect(reply.status, character).toBe(200);
          expect(reply.headers.get("content-type")).toBe(JSON_TYPE);
          expect(reply.body).toMatchObject({ character, form, source: { name, license, attribution: expect.stringContaining(name) } });
          for (const stroke of reply.body.strokes) {
            expect(stroke.median.length).toBeGreaterThan(0);
            expect(stroke.outline === null).toBe(form === "ja");
          }
          expect((await get(`${A}/hanja/${encodeURIComponent(character)}`)).body.stroke_order, character).toBe(form);
        }
        expect((await get(`${A}/hanja/${WATER}/strokes`)).body.strokes).toHaveLength(4);
        expect((await get(`${A}/hanja/${encodeURIComponent("値")}/strokes`)).body.strokes).toHaveLength(10);
        const none = await get(`${A}/hanja/${encodeURIComponent("卽")}/strokes`);
        expectProblem(none, 404, "not_found", "character");
        expect(none.body.detail).toBe("卽 (U+537D) has no strokes in the stroke data");
        expect((await get(`${A}/hanja/${encodeURIComponent("卽")}`)).body.stroke_order).toBe(null);
        expectProblem(await get(`${A}/hanja/${encodeURIComponent("水火")}/strokes`), 400, "invalid_parameter", "character");
      });

      it("GET /hanja/{character}: an astral code point and a compatibility ideograph are their own records; others 404", async () => {
        expect((await get(`${A}/hanja/${encodeURIComponent("\u{200D7}")}`)).body).toMatchObject({ character: "\u{200D7}", codepoint: "U+200D7" });
        expect((await get(`${A}/hanja/${encodeURIComponent("\uF900")}`)).body).toMatchObject({ character: "\uF900", codepoint: "U+F900" });
        expectProblem(await get(`${A}/hanja/A`), 404, "not_found");
        expectProblem(await get(`${A}/hanja/${encodeURIComponent("水水")}`), 400, "invalid_parameter");
      });

      it("GET /hanja?q=수: the 91 characters read 수 first, then those with 수 in a gloss or 훈 (235 in all), paged 24 at a time", async () => {
        const reply = await get(`${A}/hanja?q=${SU}`);
        expect(reply.status).toBe(200);
        expect(reply.body).toMatchObject({ total: 235, page: 1, per_page: 24, pages: 10 });
        expect(reply.body.data).toHaveLength(24);
        expect(reply.body.data[0].readings).toContain("수");
        // The reading matches fill the first four pages; the later pages hold only gloss and 훈 matches.
        const pages = await Promise.all(Array.from({ length: 10 }, (_, i) => get(`${A}/hanja?q=${SU}&page=${i + 1}`)));
        const read = pages.map((p) => p.body.data.filter((r: { readings: string[] }) => r.readings.includes("수")).length);
        expect(read.reduce((a, b) => a + b, 0)).toBe(91);
        expect(read.slice(4).every((n) => n === 0) && read[3] > 0).toBe(true);
        expect(pages[9]?.body.data).toHaveLength(235 - 216);
        expect((await get(`${A}/hanja?q=${SU}&page=11`)).body).toMatchObject({ total: 235, data: [] });
      });

      it("GET /hanja: q as a character or a code point, and filters", async () => {
        expect((await get(`${A}/hanja?q=U%2B6C34`)).body).toMatchObject({ total: 1, data: [{ character: "水" }] });
        const filtered = await get(`${A}/hanja?q=${SU}&strokes=4&per_page=50`);
        expect(filtered.body.total).toBeGreaterThan(0);
        for (const item of filtered.body.data) expect(item.strokes).toBe(4);
      });

      it("GET /idioms: by hanja and by initial consonants", async () => {
        const byHanja = await get(`${A}/idioms?q=${WATER}`);
        expect(byHanja.status).toBe(200);
        expect(byHanja.body.total).toBeGreaterThan(0);
        for (const idiom of byHanja.body.data) expect(idiom.hanja).toContain("水");
        const byChosung = await get(`${A}/idioms?q=${encodeURIComponent("ㄱㅅㅇㅅ")}`);
        expect(byChosung.body.data).toContainEqual(expect.objectContaining({ idx: "70", hanja: "高山流水", hangul: "고산유수", chosung: "ㄱㅅㅇㅅ" }));
      });

      it("GET /meta: counts measured from the data", async () => {
        const reply = await get(`${A}/meta`);
        expect(reply.status).toBe(200);
        expect(reply.body.counts).toMatchObject({ characters: CHARACTERS, starters: 128, education_hanja: EDUCATION_HANJA, idioms: 910 });
        expect(reply.body.data).toMatchObject({ unihan_version: PIN.version });
      });

      it("GET /radicals: the 214 radicals, their characters counted in full", async () => {
        const reply = await get(`${A}/radicals`);
        expect(reply.status).toBe(200);
        expect(reply.body.data).toHaveLength(214);
        expect(reply.body.data[84]).toMatchObject({ radical_number: 85, radical: "水", strokes: 4 });
        expect(reply.body.data.reduce((sum: number, r: { character_count: number }) => sum + r.character_count, 0)).toBe(CHARACTERS);
      });

      it("400 problem details naming the parameter; a repeated parameter is 400", async () => {
        expectProblem(await get(`${A}/hanja?strokes=x`), 400, "invalid_parameter", "strokes");
        expectProblem(await get(`${A}/hanja?per_page=51`), 400, "invalid_parameter", "per_page");
        expectProblem(await get(`${A}/hanja?page=1&page=2`), 400, "invalid_parameter", "page");
        expectProblem(await get(`${A}/idioms?q=${"가".repeat(81)}`), 400, "invalid_parameter", "q");
      });
    });

    describe("interface B", () => {
      it("GET /quiz: one quiz, its choices, quota and rate-limit headers", async () => {
        const reply = await withKey(`${B}/quiz?type=meaning_to_idiom&choices=5`);
        expect(reply.status, reply.text).toBe(200);
        expect(reply.headers.get("cache-control")).toBe("no-store");
        expect(reply.body).toMatchObject({ success: true, quota: { plan: "free" } });
        expect(reply.body.quota.remaining).toBe(expectRateLimit(reply, 100));
        const quiz = reply.body.quiz;
        expect(quiz).toMatchObject({ type: "meaning_to_idiom", prompt: quiz.answer_idiom.meaning });
        expect(quiz.quiz_id).toMatch(/^qz_/);
        expect(typeof quiz.question).toBe("string");
        expect(quiz.choices.map((c: { key: string }) => c.key)).toEqual(["1", "2", "3", "4", "5"]);
        expect(new Set(quiz.choices.map((c: { text: string }) => c.text)).size).toBe(5);
        expect(quiz.choices.find((c: { key: string }) => c.key === quiz.answer)).toMatchObject({
          text: quiz.answer_idiom.hanja,
          hangul: quiz.answer_idiom.hangul,
        });
      });

      it("GET /quiz?count=3: three quizzes with distinct answers", async () => {
        const reply = await withKey(`${B}/quiz?count=3`);
        expect(reply.status).toBe(200);
        expect(reply.body.quiz).toBeUndefined();
        expect(reply.body.quizzes).toHaveLength(3);
        expect(new Set(reply.body.quizzes.map((q: { answer_idiom: { idx: number } }) => q.answer_idiom.idx)).size).toBe(3);
        for (const quiz of reply.body.quizzes) expect(["meaning_to_idiom", "idiom_to_meaning", "hangul_to_hanja"]).toContain(quiz.type);
      });

      it("GET /idiom and /idiom/{idx}", async () => {
        const one = await withKey(`${B}/idiom/1`);
        expect(one.body).toMatchObject({
          success: true,
          idiom: { idx: 1, hanja: "家家戶戶", hangul: "가가호호", chosung: "ㄱㄱㅎㅎ", literal: null },
          quota: { plan: "free" },
        });
        const withLiteral = await withKey(`${B}/idiom/87`);
        expect(withLiteral.body.idiom.literal).toMatch(/누각/);
        const some = await withKey(`${B}/idiom?count=5`);
        expect(some.body.idioms).toHaveLength(5);
        expect(new Set(some.body.idioms.map((i: { idx: number }) => i.idx)).size).toBe(5);
        expectProblem(await withKey(`${B}/idiom/0`), 400, "invalid_parameter");
        expectProblem(await withKey(`${B}/idiom/99999`), 404, "not_found");
      });

      it("GET /search: at most 30 idioms; q missing is 400", async () => {
        const reply = await withKey(`${B}/search?q=${SU}`);
        expect(reply.body).toMatchObject({ success: true, query: "수" });
        expect(reply.body.idioms.length).toBeGreaterThan(0);
        expect(reply.body.idioms.length).toBeLessThanOrEqual(30);
        expectProblem(await withKey(`${B}/search`), 400, "invalid_parameter", "q");
      });

      it("GET /me: the key's status, not metered", async () => {
        const before = await withKey(`${B}/me`);
        expect(before.body.key).toMatchObject({ plan: "free", status: "pending_deposit", daily_limit: 100 });
        expect(before.body.key.remaining).toBe(100 - before.body.key.used_today);
        expect((await withKey(`${B}/me`)).body.key.used_today).toBe(before.body.key.used_today);
        // The key also works as a query parameter; header and query disagreeing is 400.
        expect((await get(`${B}/me?api_key=${key}`)).body.key.id).toBe(before.body.key.id);
        expectProblem(await withKey(`${B}/me?api_key=hj_other`), 400, "invalid_parameter");
      });

      it("401 for an unknown key, never demo", async () => {
        expectProblem(await get(`${B}/quiz`, { headers: { "X-API-Key": "hj_notakey" } }), 401, "invalid_key");
        expectProblem(await get(`${B}/idiom?api_key=hj_notakey`), 401, "invalid_key");
      });

      it("GET /quiz?reveal=0 of a character type, graded by POST /grade: ids signed and checked through this runtime's Web Crypto", async () => {
        const drawn = await withKey(`${B}/quiz?type=hunum_to_hanja,hanja_to_reading&count=2&reveal=0&seed=37`);
        expect(drawn.status, drawn.text).toBe(200);
        const grade = (body: unknown) => get(`${B}/grade`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
        const answers = drawn.body.quizzes.map((quiz: { quiz_id: string; answer?: string }) => {
          expect(quiz.answer).toBeUndefined();
          return { quiz_id: quiz.quiz_id, answer: "1" };
        });
        const graded = await grade(answers);
        expect(graded.status, graded.text).toBe(200);
        const results = graded.body.results as { correct: boolean; answer: string; answer_character: { character: string } }[];
        expect(results.map((r) => r.correct)).toEqual(results.map((r) => r.answer === "1"));
        for (const result of results) expect(result.answer_character.character).toMatch(/^\p{Script=Han}$/u);
        const id = answers[0].quiz_id as string;
        expectProblem(await grade({ quiz_id: `${id.slice(0, -1)}${id.endsWith("A") ? "B" : "A"}`, answer: "1" }), 400, "invalid_parameter", "quiz_id");
      });

      it("GET /quiz?reveal=0: decoding the ids tells nothing of the answers (no byte, nor any 3 bits of one, is the right key in 40 quizzes)", async () => {
        const hidden: string[] = [];
        const answers: number[] = [];
        for (const seed of [46, 47]) {
          const ids = await withKey(`${B}/quiz?count=20&reveal=0&seed=${seed}`);
          expect(ids.status, ids.text).toBe(200);
          const quizIds = ids.body.quizzes.map((quiz: { quiz_id: string }) => quiz.quiz_id);
          // The right keys, as grading tells them.
          const graded = await get(`${B}/grade`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify(quizIds.map((quiz_id: string) => ({ quiz_id, answer: "1" }))),
          });
          expect(graded.status, graded.text).toBe(200);
          hidden.push(...quizIds);
          for (const result of graded.body.results as { answer: string }[]) answers.push(Number(result.answer));
        }
        const decoded = hidden.map((id) => Buffer.from(id.slice(3), "base64url"));
        for (let at = 0; at < (decoded[0] as Buffer).length; at++) {
          for (let shift = 0; shift <= 5; shift++) {
            const holds = decoded.every((bytes, n) => (((bytes[at] as number) >> shift) & 7) === answers[n]);
            expect(holds, `byte ${at}, bits ${shift}-${shift + 2}`).toBe(false);
          }
        }
      });

      it("a class quiz: made with the key, opened without answers, two students submit (the second name taken), the teacher reads the results; all in this runtime's store", async () => {
        const json = { "Content-Type": "application/json" };
        const made = await withKey(`${B}/classes`, {
          method: "POST",
          headers: json,
          body: JSON.stringify({ type: "hunum_to_hanja", count: 3, title: "반 퀴즈" }),
        });
        expect(made.status, made.text).toBe(201);
        const { code } = made.body.class;
        const shown = await get(`${B}/classes/${code}`);
        expect(shown.status, shown.text).toBe(200);
        expect(shown.text).not.toMatch(/"(answer|quiz_id|answer_character|hangul)"/);
        const submit = (name: string, answers: string[]) =>
          get(`${B}/classes/${code}/submissions`, { method: "POST", headers: json, body: JSON.stringify({ name, answers }) });
        const first = await submit("지우", ["1", "1", "1"]);
        expect(first.status, first.text).toBe(201);
        const right = first.body.result.answers.map((a: { answer: string }) => a.answer);
        expect((await submit("서연", right)).body.result.score).toBe(3);
        expectProblem(await submit("지우", ["2", "2", "2"]), 409, "conflict");
        const results = await withKey(`${B}/classes/${code}/results`);
        expect(results.status, results.text).toBe(200);
        expect(results.body.students.map((s: { name: string; score: number }) => [s.name, s.score])).toEqual([
          ["지우", first.body.result.score],
          ["서연", 3],
        ]);
        expect(results.body.questions.map((q: { answered: number }) => q.answered)).toEqual([2, 2, 2]);
      });

      it("POST /subscribe: 415 without JSON, 400 naming the field", async () => {
        expectProblem(await subscribe({ name: "x", email: "x@example.com" }, "text/plain"), 415, "unsupported_media_type");
        expectProblem(await subscribe({ name: "x", email: "not an address" }), 400, "invalid_parameter", "email");
      });
    });

    describe("HTTP behaviour", () => {
      it("404 for unknown routes, 405 with Allow for a wrong method", async () => {
        expectProblem(await get("/nope"), 404, "not_found");
        expectProblem(await get(`${A}/nope`), 404, "not_found");
        const post = await get(`${A}/meta`, { method: "POST" });
        expectProblem(post, 405, "method_not_allowed");
        expect(post.headers.get("allow")).toContain("GET");
        const getSubscribe = await get(`${B}/subscribe`);
        expectProblem(getSubscribe, 405, "method_not_allowed");
        expect(getSubscribe.headers.get("allow")).toContain("POST");
      });

      it("GET / is the page to a browser (with its script and stylesheet) and the 404 problem to an API client", async () => {
        const page = await get("/", { headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
        expect(page.status).toBe(200);
        expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
        expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
        expect(page.text).toContain('<script defer src="/page/app.js"></script>');
        const script = await get("/page/app.js", { headers: { "Accept-Encoding": "gzip" } });
        expect(script.status).toBe(200);
        expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
        expect(script.headers.get("content-encoding")).toBe("gzip");
        expect((await get("/page/app.css")).headers.get("content-type")).toBe("text/css; charset=utf-8");
        expectProblem(await get("/"), 404, "not_found");
      });

      it("methods no route serves, even those fetch cannot send, get 405 or 404 and the server serves on", async () => {
        for (const method of ["TRACE", "PURGE", "PUT", "DELETE"]) {
          const known = await sendMethod(server.url, `${B}/quiz`, method);
          expectProblem(known, 405, "method_not_allowed");
          expect(known.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
          expectProblem(await sendMethod(server.url, "/nope", method), 404, "not_found");
        }
        expect((await get("/healthz")).status).toBe(200);
      });

      it("CONNECT gets the service's answer, never a closed connection: this server is no proxy", async () => {
        const { port } = new URL(server.url);
        const exchange = (target: string, host = target) =>
          rawExchange(Number(port), `CONNECT ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        const problem = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as { status: number; code: string };
        // An authority-form target is the path /, the page (GET and HEAD): 405 with Allow.
        const tunnel = await exchange("example.com:443");
        expect(tunnel).toMatch(/^HTTP\/1\.1 405 /);
        expect(problem(tunnel)).toMatchObject({ status: 405, code: "method_not_allowed" });
        const known = await exchange(`${B}/quiz`, "localhost");
        // Deno's HTTP parser refuses a CONNECT with a path itself (a bare 400), before the service sees it.
        if (!known.startsWith("HTTP/1.1 400 ")) {
          expect(known).toMatch(/^HTTP\/1\.1 405 /);
          expect(known).toMatch(/\r\nallow: GET, HEAD, OPTIONS\r\n/i);
          expect(problem(known)).toMatchObject({ status: 405, code: "method_not_allowed" });
        }
        expect((await get("/healthz")).status).toBe(200);
      });

      it("raw UTF-8 in the query: answered as if encoded, or refused with a problem that says how to send it (Node's parser)", async () => {
        const encoded = await get(`${A}/hanja?q=${SU}&per_page=3`);
        const unencoded = await sendUnencoded(server.url, `${A}/hanja?q=수&per_page=3`);
        if (unencoded.status === 200) expect(unencoded.body).toEqual(encoded.body);
        else {
          expectProblem(unencoded, 400, "invalid_parameter");
          expect(unencoded.body.detail).toContain("Percent-encode");
        }
        expect((await get("/healthz")).status).toBe(200);
      });

      it("CORS on both interfaces and preflight", async () => {
        // Each response exposes the headers of these it carries, and no others.
        const origin = { Origin: "https://example.com" };
        const exposedBy: [string, Promise<Awaited<ReturnType<typeof get>>>, string[]][] = [
          [`${A}/meta`, get(`${A}/meta`, { headers: origin }), ["etag"]],
          [`${B}/idiom`, withKey(`${B}/idiom`, { headers: origin }), RATE_LIMIT_HEADERS],
          [`${B}/quiz`, get(`${B}/quiz`, { headers: { ...origin, "X-API-Key": "hj_notakey" } }), ["www-authenticate", "x-request-id"]],
          [`${A}/nope`, get(`${A}/nope`, { headers: origin }), ["x-request-id"]],
        ];
        for (const [path, sent, expected] of exposedBy) {
          const reply = await sent;
          expect(reply.headers.get("access-control-allow-origin")).toBe("*");
          expect(exposedNames(reply.headers), path).toEqual([...expected].sort());
          expect(carriedNames(reply.headers), path).toEqual([...expected].sort());
        }
        const preflight = await get(`${B}/quiz`, {
          method: "OPTIONS",
          headers: { Origin: "https://example.com", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "X-API-Key" },
        });
        expect([200, 204]).toContain(preflight.status);
        expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
        expect(preflight.headers.get("access-control-allow-headers")).toMatch(/X-API-Key/i);
        expect(preflight.headers.get("access-control-allow-methods")).toMatch(/GET/);
        // On an unknown path too: the page then reads the real 404.
        const unknown = await get("/nope", { method: "OPTIONS", headers: { Origin: "https://example.com", "Access-Control-Request-Method": "GET" } });
        expect(unknown.status).toBe(204);
        expect(unknown.headers.get("access-control-allow-origin")).toBe("*");
        expect((await get("/nope")).status).toBe(404);
      });

      it("ETag and 304 on interface A", async () => {
        const first = await get(`${A}/hanja/${WATER}`);
        const etag = first.headers.get("etag") as string;
        const again = await get(`${A}/hanja/${WATER}`, { headers: { "If-None-Match": etag } });
        expect(again.status).toBe(304);
        expect(again.text).toBe("");
        expect(again.headers.get("etag")).toBe(etag);
        expect((await get(`${A}/hanja/${WATER}`, { headers: { "If-None-Match": '"other"' } })).status).toBe(200);
      });

      it("gzip when accepted: the same bytes once decompressed, and the same gzip bytes on every runtime", async () => {
        for (const path of [`${A}/hanja/${WATER}`, `${A}/hanja?q=${SU}`, "/openapi.json"]) {
          const plain = await sendRaw(server.url, path, { "Accept-Encoding": "identity" });
          const gzip = await sendRaw(server.url, path, { "Accept-Encoding": "gzip" });
          expect(plain.headers["content-encoding"]).toBeUndefined();
          expect(gzip.headers["content-encoding"]).toBe("gzip");
          expect(gzip.headers["vary"]).toMatch(/Accept-Encoding/i);
          expect(gzip.bytes.length).toBeLessThan(plain.bytes.length);
          expect(gunzipSync(gzip.bytes).equals(plain.bytes)).toBe(true);
          // Its strong ETag promises these exact bytes: the same as fflate makes here, whatever the runtime.
          expect(gzip.headers.etag).toBe(`${String(plain.headers.etag).slice(0, -1)}-gz"`);
          expect(gzip.bytes.equals(fflateGzip(plain.bytes, { level: 6, mtime: 0 })), path).toBe(true);
        }
      });

      it("brotli only where offered: any br body decodes to the same bytes", async () => {
        const path = `${A}/hanja/${WATER}`;
        const plain = await sendRaw(server.url, path, { "Accept-Encoding": "identity" });
        const br = await sendRaw(server.url, path, { "Accept-Encoding": "br" });
        const coding = br.headers["content-encoding"];
        expect([undefined, "br"]).toContain(coding);
        expect((coding === "br" ? brotliDecompressSync(br.bytes) : br.bytes).equals(plain.bytes)).toBe(true);
      });

      it("HEAD: the headers of GET without a body, on both interfaces", async () => {
        const got = await get(`${A}/hanja/${WATER}`);
        const head = await get(`${A}/hanja/${WATER}`, { method: "HEAD" });
        expect(head.status).toBe(200);
        expect(head.text).toBe("");
        expect(head.headers.get("content-type")).toBe(JSON_TYPE);
        expect(head.headers.get("etag")).toBe(got.headers.get("etag"));
        expect((await get("/healthz", { method: "HEAD" })).status).toBe(200);
        const metered = await withKey(`${B}/idiom/1`, { method: "HEAD" });
        expect(metered.status).toBe(200);
        expect(metered.text).toBe("");
        expectRateLimit(metered, 100);
      });

      it("HEAD answers carry a Date, as GET answers do (RFC 9110 §6.6.1), errors and 304 too", async () => {
        const etag = (await get(`${A}/hanja/${WATER}`)).headers.get("etag") ?? "";
        const heads = [
          await get(`${A}/hanja/${WATER}`, { method: "HEAD" }),
          await get("/healthz", { method: "HEAD" }),
          await get("/nope", { method: "HEAD" }),
          await get(`${A}/hanja/${WATER}`, { method: "HEAD", headers: { "If-None-Match": etag } }),
          await withKey(`${B}/idiom/1`, { method: "HEAD" }),
        ];
        expect(heads.map((head) => head.status)).toEqual([200, 200, 404, 304, 200]);
        for (const head of heads) {
          const date = head.headers.get("date");
          expect(date, `HEAD answered ${head.status}`).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
          expect(Math.abs(Date.parse(date ?? "") - Date.now())).toBeLessThan(60_000);
        }
      });

      it("HEAD: Content-Length, when sent, is the length of the body GET sends (RFC 9110 §8.6), errors too", async () => {
        const bytes = (text: string) => Buffer.byteLength(text);
        const got = await get(`${A}/hanja/${WATER}`);
        const head = await get(`${A}/hanja/${WATER}`, { method: "HEAD" });
        expect(head.headers.get("content-length") ?? String(bytes(got.text))).toBe(String(bytes(got.text)));
        for (const path of [`${A}/hanja/a`, `${A}/hanja?strokes=0`, "/nope"]) {
          const error = await get(path);
          const headError = await get(path, { method: "HEAD" });
          expect(headError.status, path).toBe(error.status);
          expect(headError.text, path).toBe("");
          // The two bodies differ only in their request ids.
          const expected = bytes(error.text) - bytes(String(error.headers.get("x-request-id"))) + bytes(String(headError.headers.get("x-request-id")));
          expect(headError.headers.get("content-length") ?? String(expected), path).toBe(String(expected));
        }
      });

      it("/healthz, /openapi.json (OpenAPI 3.1) and /docs (HTML)", async () => {
        expect((await get("/healthz")).body).toMatchObject({ status: "ok" });
        const openapi = await get("/openapi.json");
        expect(openapi.status).toBe(200);
        expect(openapi.body.openapi).toBe("3.1.0");
        const validation = await new Validator().validate(openapi.body as Record<string, unknown>);
        expect(validation.errors ?? []).toEqual([]);
        expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining([`${A}/hanja`, `${A}/hanja/{character}`, `${B}/quiz`, `${B}/subscribe`]));
        const docs = await get("/docs");
        expect(docs.status).toBe(200);
        expect(docs.headers.get("content-type")).toMatch(/^text\/html/);
        expect(docs.text).toMatch(/<html/i);
      });
    });

    it("GET /metrics: without the token the 404 of an unknown path; with it, an exposition promtool accepts, of what the server did", async () => {
      const withoutId = (reply: Reply) => ({ ...reply.body, request_id: undefined });
      const unknown = await get("/no-such-path");
      expect(unknown.status).toBe(404);
      for (const init of [{}, { headers: { Authorization: "Bearer not-the-metrics-token" } }])
        expect(withoutId(await get("/metrics", init))).toEqual(withoutId(unknown));
      expect((await get(`${A}/hanja/${WATER}`)).status).toBe(200);
      const reply = await get("/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(reply.status).toBe(200);
      expect(reply.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
      expect(promtoolCheck(reply.text)).toEqual({ status: 0, output: "" });
      const samples = parseSamples(reply.text);
      expect(sampleValue(samples, "hanja_api_requests_total", { route: `${A}/hanja/{character}`, method: "GET", status: "200" })).toBeGreaterThan(0);
      expect(sampleValue(samples, "hanja_api_requests_total", { route: "none", method: "GET", status: "404" })).toBeGreaterThan(0);
      expect(sampleValue(samples, "hanja_api_store_operation_duration_seconds_count", { store: "sqlite", operation: "insertKey" })).toBeGreaterThan(0);
      expect(sampleValue(samples, "hanja_api_keys", { plan: "free", status: "pending_deposit" })).toBeGreaterThan(0);
      expect(samples.find((s) => s.name === "hanja_api_data_info")?.labels.unihan).toBe(PIN.version);
      expect(sampleValue(samples, "process_resident_memory_bytes")).toBeGreaterThan(1_000_000);
    });

    describe("quotas", () => {
      it("demo: 30 calls a day per client, then 429 with Retry-After", async () => {
        await awayFromRollover();
        expect((await get(`${B}/me`)).body.key).toMatchObject({ plan: "demo", used_today: 0, daily_limit: 30 });
        // 40 at once from one client: exactly 30 pass.
        const replies = await Promise.all(Array.from({ length: 40 }, () => get(`${B}/idiom/1`)));
        const ok = replies.filter((r) => r.status === 200);
        expect(ok).toHaveLength(30);
        expect(ok.map((r) => expectRateLimit(r, 30)).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
        const refused: Reply = await get(`${B}/quiz`);
        expectProblem(refused, 429, "quota_exceeded");
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(expectRateLimit(refused, 30)).toBe(0);
        expect((await get(`${B}/me`)).body.key).toMatchObject({ plan: "demo", used_today: 30, remaining: 0 });
      });

      it("subscribe → free key (100/day) → admin confirm → annual (10,000/day)", async () => {
        const issued = await subscribe({ name: "연결 시험", email: "annual@example.com", phone: "010-0000-0000", depositor: "홍길동" });
        expect(issued.status, issued.text).toBe(201);
        expect(issued.body).toMatchObject({
          success: true,
          key: { plan: "free", status: "pending_deposit", daily_limit: 100 },
          payment: { plan: "annual", price_krw: 9900, method: "bank_transfer" },
        });
        const {
          api_key: annualKey,
          key: { id },
        } = issued.body as { api_key: string; key: { id: string } };
        expect(annualKey).toMatch(/^hj_/);
        const free = await get(`${B}/idiom`, { headers: { "X-API-Key": annualKey } });
        expect(expectRateLimit(free, 100)).toBe(99);

        const confirm = `${B}/admin/keys/${id}/confirm`;
        expectProblem(await get(confirm, { method: "POST", headers: { Authorization: "Bearer wrong-token-0123456789" } }), 401, "invalid_key");
        const confirmed = await get(confirm, { method: "POST", headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
        expect(confirmed.status, confirmed.text).toBe(200);
        expect(confirmed.body.key).toMatchObject({ id, plan: "annual", status: "active" });

        const me = await get(`${B}/me`, { headers: { "X-API-Key": annualKey } });
        expect(me.body.key).toMatchObject({ id, plan: "annual", status: "active", daily_limit: 10_000, used_today: 1, remaining: 9_999 });
        expect(Date.parse(me.body.key.expires_at)).toBeGreaterThan(Date.now() + 364 * 86_400_000);
        const annual = await get(`${B}/quiz`, { headers: { "X-API-Key": annualKey } });
        expect(annual.status).toBe(200);
        expect(expectRateLimit(annual, 10_000)).toBe(9_998);
        expect(annual.body.quota).toEqual({ plan: "annual", remaining: 9_998 });
      });
    });

    it("SIGTERM: exits with status 0", async () => {
      expect(await server.stop()).toBe(0);
    });
  });
}
