/**
 * The documented response shapes against REAL responses: every example request of every
 * operation, the error statuses of each operation, and a check that every documented
 * (operation, status) pair was exercised.
 */
import { describe, expect, it } from "vitest";
import type { OpenApiDocument, Operation, RequestExample } from "../../runtime/core/docs/types.ts";
import { RATE_LIMIT } from "../../runtime/core/docs/responses.ts";
import { MemoryQuotaStore } from "../../runtime/core/quota/memoryStore.ts";
import { StoreUnavailableError } from "../../runtime/core/quota/store.ts";
import { call, testApp } from "../helpers/app.ts";
import { Contract, exchange, target } from "./contract.ts";

const ADMIN_TOKEN = "docs-test-admin-token-0123456789";
let now = new Date("2026-03-02T03:00:00Z");
const app = testApp({ adminToken: ADMIN_TOKEN, now: () => new Date(now.getTime()) });
const document = JSON.parse(await (await call(app, "/openapi.json")).text()) as OpenApiDocument;
const contract = new Contract(document);
const auth = { Authorization: `Bearer ${ADMIN_TOKEN}` };

let ipCounter = 0;
/** A client address of its own, so each caller has an untouched demo quota. */
const freshIp = () => `10.20.${++ipCounter >> 8}.${ipCounter & 255}`;

interface Sent {
  status: number;
  body: any;
  headers: Headers;
}

/** Sends, checks against the document, returns status, parsed body and headers. */
async function send(
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: unknown; ip?: string; rawBody?: string } = {},
): Promise<Sent> {
  const body = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  const headers = { ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}), ...init.headers };
  const result = await exchange(app, method, path, { headers, body, ip: init.ip ?? freshIp() });
  return { status: result.status, body: contract.check(result), headers: result.headers };
}

const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  (["get", "post"] as const).flatMap((method) => (item[method] ? [{ path, method: method.toUpperCase(), op: item[method] as Operation }] : [])),
);
const byId = (id: string) => {
  const found = operations.find((o) => o.op.operationId === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
};
const usesKey = (op: Operation) => (op.security ?? []).some((s) => "ApiKeyHeader" in s);

/** Issues a key through the API; returns it and its id. */
async function subscribe(email: string): Promise<{ key: string; id: string }> {
  const result = await send("POST", byId("subscribe").path, { body: { name: "Docs Test", email } });
  expect(result.status).toBe(201);
  return { key: result.body.api_key, id: result.body.key.id };
}

/** An example request with the placeholders replaced. */
function fill(example: RequestExample, values: { apiKey: string; keyId: string; quizId?: string; classCode?: string }) {
  const swap = (text: string) =>
    text
      .replace("$API_KEY", values.apiKey)
      .replace("$ADMIN_TOKEN", ADMIN_TOKEN)
      .replaceAll("$QUIZ_ID", values.quizId ?? "");
  const pathValue = (k: string, v: string) => (k === "id" ? values.keyId : k === "code" ? (values.classCode ?? `cq_${"A".repeat(22)}`) : v);
  const path = Object.fromEntries(Object.entries(example.path ?? {}).map(([k, v]) => [k, pathValue(k, v)]));
  const query = Object.fromEntries(Object.entries(example.query ?? {}).map(([k, v]) => [k, swap(v)]));
  const headers = Object.fromEntries(Object.entries(example.headers ?? {}).map(([k, v]) => [k, swap(v)]));
  return { path, query, headers, body: example.body === undefined ? undefined : (JSON.parse(swap(JSON.stringify(example.body))) as unknown) };
}

const first = (op: Operation) => op["x-request-examples"][0] ?? { description: "" };

describe("real responses match the OpenAPI document", () => {
  let main: { key: string; id: string };
  let expired: { key: string; id: string };
  /** A class quiz of three questions made with the main key. */
  let classCode: string;

  it("every example request of every operation answers 2xx as documented", async () => {
    main = await subscribe("main@example.com");
    const forAdmin = await subscribe("admin-examples@example.com");
    expect((await send("POST", target(byId("confirmKey").path, { id: main.id }), { headers: auth })).status).toBe(200);
    const quizId = (await send("GET", `${byId("getQuiz").path}?reveal=0`)).body.quiz.quiz_id;
    classCode = (await send("POST", byId("makeClassQuiz").path, { headers: { "X-API-Key": main.key }, body: { count: 3 } })).body.class.code;
    for (const { path, method, op } of operations) {
      expect(op["x-request-examples"].length, `${op.operationId} has examples`).toBeGreaterThan(0);
      for (const example of op["x-request-examples"]) {
        const request = fill(example, { apiKey: main.key, keyId: forAdmin.id, quizId, classCode });
        const result = await send(method, target(path, request.path, request.query), { headers: request.headers, body: request.body });
        expect(result.status, `${op.operationId}: ${example.description}`).toBeGreaterThanOrEqual(200);
        expect(result.status, `${op.operationId}: ${example.description}`).toBeLessThan(300);
      }
    }
  });

  it("HEAD answers every GET operation as documented, without a body", async () => {
    for (const { path, method, op } of operations.filter((o) => o.method === "GET")) {
      const request = fill(first(op), { apiKey: main.key, keyId: main.id, classCode });
      const url = target(path, request.path, request.query);
      const head = await exchange(app, "HEAD", url, { headers: { ...request.headers, ...(op.tags.includes("Admin") ? auth : {}) }, ip: freshIp() });
      expect(head.status, `${method} ${op.operationId}`).toBe(200);
      expect(head.text).toBe("");
      contract.check(head);
    }
  });

  it("interface A: 400, 404 and 304", async () => {
    const list = byId("searchCharacters").path;
    for (const query of ["per_page=51", "page=0", "strokes=1.5", "starter=2", "q=a&q=b", `q=${"a".repeat(81)}`, "radical_number=-1"]) {
      expect((await send("GET", `${list}?${query}`)).status, query).toBe(400);
    }
    // A trailing slash is ignored: `/hanja/` is the list.
    expect((await send("GET", `${list}/`)).status).toBe(200);
    expect((await send("GET", `${list}?q=zzqqxxjj`)).body.data).toEqual([]);
    expect((await send("GET", `${list}?page=10000`)).body.data).toEqual([]);
    const detail = byId("getCharacter").path;
    expect((await send("GET", target(detail, { character: "水水" }))).status).toBe(400);
    expect((await send("GET", detail.replace("{character}", "%E0%A4"))).status).toBe(400);
    expect((await send("GET", target(detail, { character: "A" }))).status).toBe(404);
    const strokes = byId("getCharacterStrokes").path;
    expect((await send("GET", target(strokes, { character: "水水" }))).status).toBe(400);
    expect((await send("GET", target(strokes, { character: "A" }))).status).toBe(404);
    expect((await send("GET", target(strokes, { character: "卽" }))).status).toBe(404);
    expect((await send("GET", target(strokes, { character: "値" }))).status).toBe(200);
    expect((await send("GET", `${byId("searchIdioms").path}?per_page=0`)).status).toBe(400);
    for (const query of ["q=water", `q=${encodeURIComponent("水")}&char=${encodeURIComponent("水")}`, `char=${encodeURIComponent("水道")}`]) {
      expect((await send("GET", `${byId("searchWords").path}?${query}`)).status, query).toBe(400);
    }
    for (const { path, op } of operations.filter((o) => "304" in o.op.responses)) {
      const request = fill(first(op), { apiKey: "", keyId: "" });
      const url = target(path, request.path, request.query);
      const fresh = await send("GET", url);
      const etag = fresh.headers.get("etag") ?? "";
      expect((await send("GET", url, { headers: { "If-None-Match": etag } })).status, op.operationId).toBe(304);
    }
  });

  it("interface B: 400 for bad parameters, 404 for an unknown idx", async () => {
    const cases: [string, string][] = [
      ["getQuiz", "?type=bogus"],
      ["getQuiz", "?choices=7"],
      ["getQuiz", "?count=0"],
      ["getRandomIdioms", "?count=51"],
      ["searchQuizIdioms", ""],
      ["searchQuizIdioms", "?q=%20%20"],
      ["searchQuizIdioms", `?q=${"가".repeat(81)}`],
    ];
    for (const [id, query] of cases) expect((await send("GET", `${byId(id).path}${query}`)).status, `${id}${query}`).toBe(400);
    const idiom = byId("getIdiom").path;
    for (const idx of ["0", "abc", "-1", "1.5"]) expect((await send("GET", target(idiom, { idx }))).status, idx).toBe(400);
    for (const idx of ["999999", "1000000"]) expect((await send("GET", target(idiom, { idx }))).status, idx).toBe(404);
    const unknown = await send("GET", target(idiom, { idx: "99999999999999999999" }));
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("x-ratelimit-remaining")).not.toBeNull();
    const me = byId("getKeyStatus").path;
    // Another key: the last character changed (to one it cannot already be).
    const other = `${main.key.slice(0, -1)}${main.key.endsWith("x") ? "y" : "x"}`;
    expect((await send("GET", `${me}?api_key=${main.key}`, { headers: { "X-API-Key": other } })).status).toBe(400);
    if (app.data.counts.idioms <= 200) {
      // With few enough idioms `exclude` can leave too few answers.
      const all = app.data.idioms.idioms.map((i) => i.idx).join(",");
      expect((await send("GET", `${byId("getQuiz").path}?exclude=${all}`)).body.param).toBe("exclude");
    }
  });

  it("POST /grade: 400 (body, answer, quiz_id), 413, 415", async () => {
    const path = byId("gradeQuiz").path;
    const id = (await send("GET", `${byId("getQuiz").path}?reveal=0`)).body.quiz.quiz_id as string;
    const tampered = `${id.slice(0, -4)}${id.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
    const cases: [unknown, string][] = [
      [[], "body"],
      ["text", "body"],
      [{ quiz_id: id, answer: 2 }, "answer"],
      [{ quiz_id: tampered, answer: "1" }, "quiz_id"],
      [{ quiz_id: "qz_0123456789abcdef", answer: "1" }, "quiz_id"],
    ];
    for (const [body, param] of cases) {
      const result = await send("POST", path, { body });
      expect(result.status, JSON.stringify(body)).toBe(400);
      expect(result.body.param).toBe(param);
    }
    expect((await send("POST", path, { rawBody: "{", headers: { "Content-Type": "application/json" } })).status).toBe(400);
    expect((await send("POST", path, { rawBody: `{"answer":"${"a".repeat(9000)}"}`, headers: { "Content-Type": "application/json" } })).status).toBe(413);
    expect((await send("POST", path, { rawBody: "{}", headers: { "Content-Type": "text/plain" } })).status).toBe(415);
  });

  it("the reader: 400 naming text, 413, 415", async () => {
    const read = byId("readText").path;
    for (const query of ["", "?text=", `?text=${"水".repeat(1001)}`, "?text=%00", "?text=水&format=html"]) {
      expect((await send("GET", `${read}${query}`)).status, query).toBe(400);
    }
    const plain = { "Content-Type": "text/plain" };
    expect((await send("POST", read, { rawBody: "", headers: plain })).status).toBe(400);
    expect((await send("POST", read, { rawBody: "水".repeat(20_001), headers: plain })).status).toBe(413);
    expect((await send("POST", read, { rawBody: "水", headers: { "Content-Type": "text/html" } })).status).toBe(415);
    expect((await send("POST", read, { rawBody: "六月", headers: plain })).body.hangul).toBe("유월");
  });

  it("POST /read: 429 with Retry-After for a third long text from one client while two are read, and not from another client", async () => {
    const read = byId("readLongText").path;
    const plain = { "Content-Type": "text/plain" };
    const long = "大韓民國".repeat(300);
    const ip = freshIp();
    const answers = await Promise.all([1, 2, 3].map(() => send("POST", read, { rawBody: long, headers: plain, ip })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 429]);
    const refused = answers.find((a) => a.status === 429) as Sent;
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.body.code).toBe("too_many_requests");
    expect(refused.body.detail).toMatch(/already has 2 texts of over 1,000 characters being read/);
    // Once they are answered the client has its share again; a short text is never counted.
    expect((await send("POST", read, { rawBody: long, headers: plain, ip })).status).toBe(200);
    const mixed = await Promise.all([long, long, "六月"].map((text) => send("POST", read, { rawBody: text, headers: plain, ip })));
    expect(mixed.map((a) => a.status)).toEqual([200, 200, 200]);
  });

  it("POST /subscribe: 400, 409, 413, 415, 429", async () => {
    const path = byId("subscribe").path;
    expect((await send("POST", path, { body: { name: "", email: "x@example.com" } })).status).toBe(400);
    expect((await send("POST", path, { body: { name: "A", email: "not-an-address" } })).status).toBe(400);
    expect((await send("POST", path, { rawBody: "{", headers: { "Content-Type": "application/json" } })).status).toBe(400);
    await subscribe("pending@example.com");
    expect((await send("POST", path, { body: { name: "A", email: "Pending@Example.com" } })).status).toBe(409);
    expect((await send("POST", path, { rawBody: "name=A", headers: { "Content-Type": "application/x-www-form-urlencoded" } })).status).toBe(415);
    expect((await send("POST", path, { body: { name: "A", email: "big@example.com", pad: "x".repeat(9000) } })).status).toBe(413);
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await send("POST", path, { body: { name: "A", email: `many${i}@example.com` }, ip })).status).toBe(201);
    expect((await send("POST", path, { body: { name: "A", email: "many5@example.com" }, ip })).status).toBe(429);
  });

  it("keys: 401 for an unknown key, 403 for expired and revoked keys, 429 when the day's quota is used up", async () => {
    const badKey = { "X-API-Key": `hj_${"0".repeat(32)}` };
    const revoked = await subscribe("revoked@example.com");
    expect((await send("POST", target(byId("revokeKey").path, { id: revoked.id }), { headers: auth })).status).toBe(200);
    expect((await send("POST", target(byId("confirmKey").path, { id: revoked.id }), { headers: auth })).status).toBe(409);
    expired = await subscribe("expired@example.com");
    expect((await send("POST", target(byId("confirmKey").path, { id: expired.id }), { headers: auth })).status).toBe(200);
    now = new Date(now.getTime() + 366 * 86_400_000);
    for (const { path, method, op } of operations.filter((o) => usesKey(o.op))) {
      const request = fill(first(op), { apiKey: "", keyId: "", classCode });
      const url = target(path, request.path, request.query);
      const body = method === "POST" ? request.body : undefined;
      expect((await send(method, url, { headers: badKey, body })).status, op.operationId).toBe(401);
      // A 403 for an inactive key (the results' 403 is for another key's class quiz: an expired key still reads its own).
      if (!("$ref" in (op.responses["403"] ?? {}))) continue;
      expect((await send(method, url, { headers: { "X-API-Key": expired.key }, body })).body.code, op.operationId).toBe("key_expired");
      expect((await send(method, url, { headers: { "X-API-Key": revoked.key }, body })).body.code, op.operationId).toBe("key_revoked");
    }
    // The day moved on: use the quota of a new demo caller up, then every metered call open to the demo is 429.
    const ip = freshIp();
    for (let i = 0; i < 30; i++) expect((await send("GET", byId("getRandomIdioms").path, { ip })).status).toBe(200);
    for (const { path, op } of operations.filter(
      (o) => usesKey(o.op) && (o.op.security ?? []).some((s) => Object.keys(s).length === 0) && "429" in o.op.responses,
    )) {
      const request = fill(first(op), { apiKey: "", keyId: "" });
      const result = await send("GET", target(path, request.path, request.query), { ip });
      expect(result.status, op.operationId).toBe(429);
    }
    const status = await send("GET", byId("getKeyStatus").path, { headers: { "X-API-Key": expired.key } });
    expect(status.body.key).toMatchObject({ status: "expired", daily_limit: 0 });
  });

  it("admin routes: 400, 401, 404", async () => {
    for (const { path, method, op } of operations.filter((o) => o.op.tags.includes("Admin"))) {
      const withId = target(path, { id: main.id });
      expect((await send(method, withId)).status, op.operationId).toBe(401);
      expect((await send(method, withId, { headers: { Authorization: "Bearer wrong" } })).status, op.operationId).toBe(401);
      if (path.includes("{id}")) {
        expect((await send(method, target(path, { id: "key_bad" }), { headers: auth })).status, op.operationId).toBe(400);
        expect((await send(method, target(path, { id: "key_000000000000" }), { headers: auth })).status, op.operationId).toBe(404);
      }
    }
    expect((await send("GET", `${byId("listKeys").path}?status=bogus`, { headers: auth })).status).toBe(400);
    const listed = await send("GET", byId("listKeys").path, { headers: auth });
    expect(listed.body.count).toBe(listed.body.keys.length);
  });

  it("outside the operations: 405 with Allow, 404 for unknown routes", async () => {
    const wrongMethod = await send("DELETE", byId("searchCharacters").path);
    expect(wrongMethod.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect((await send("GET", byId("subscribe").path)).status).toBe(405);
    expect((await send("GET", "/no/such/route")).status).toBe(404);
  });

  it("class quizzes: every refusal of making, opening, submitting and reading results", async () => {
    const make = byId("makeClassQuiz").path;
    const withKey = { "X-API-Key": main.key };
    const teacher = await subscribe("class-teacher@example.com");
    const own = { "X-API-Key": teacher.key };
    expect((await send("POST", make, { headers: withKey, body: { count: 21 } })).status).toBe(400);
    expect((await send("POST", make, { headers: { ...withKey, "Content-Type": "application/json" }, rawBody: `{"title":"${"a".repeat(9000)}"}` })).status).toBe(
      413,
    );
    expect((await send("POST", make, { headers: { ...withKey, "Content-Type": "text/plain" }, rawBody: "{}" })).status).toBe(415);
    const code = (await send("POST", make, { headers: own, body: { count: 1, open_hours: 1, students_max: 1 } })).body.class.code as string;
    const open = target(byId("getClassQuiz").path, { code });
    const submit = target(byId("submitClassQuiz").path, { code });
    const results = target(byId("getClassResults").path, { code });
    expect((await send("GET", target(byId("getClassQuiz").path, { code: "cq_bad" }))).status).toBe(400);
    expect((await send("GET", target(byId("getClassQuiz").path, { code: `cq_${"Z".repeat(22)}` }))).status).toBe(404);
    expect((await send("GET", target(byId("getClassResults").path, { code: "cq_bad" }), { headers: own })).status).toBe(400);
    expect((await send("GET", target(byId("getClassResults").path, { code: `cq_${"Z".repeat(22)}` }), { headers: own })).status).toBe(404);
    expect((await send("GET", results, { headers: withKey })).status).toBe(403);
    expect((await send("POST", submit, { body: { name: "", answers: ["1"] } })).status).toBe(400);
    expect((await send("POST", submit, { rawBody: `{"name":"${"a".repeat(9000)}"}`, headers: { "Content-Type": "application/json" } })).status).toBe(413);
    expect((await send("POST", submit, { rawBody: "{}", headers: { "Content-Type": "text/plain" } })).status).toBe(415);
    expect((await send("POST", target(byId("submitClassQuiz").path, { code: `cq_${"Z".repeat(22)}` }), { body: { name: "a", answers: ["1"] } })).status).toBe(
      404,
    );
    expect((await send("POST", submit, { body: { name: "a", answers: ["1"] } })).status).toBe(201);
    expect((await send("POST", submit, { body: { name: "A", answers: ["1"] } })).status).toBe(200);
    expect((await send("POST", submit, { body: { name: "a", answers: ["2"] } })).status).toBe(409);
    expect((await send("POST", submit, { body: { name: "b", answers: ["1"] } })).body.code).toBe("class_full");
    // The teacher's key with no calls left: a student's submission is 429 quota_exceeded, and so is making another class quiz.
    const second = (await send("POST", make, { headers: own, body: { count: 1 } })).body.class.code as string;
    for (let i = 0; i < 200 && (await send("GET", byId("getRandomIdioms").path, { headers: own })).status === 200; i++);
    const late = await send("POST", target(byId("submitClassQuiz").path, { code: second }), { body: { name: "c", answers: ["1"] } });
    expect(late.body.code).toBe("quota_exceeded");
    expect((await send("POST", make, { headers: own, body: { count: 1 } })).body.code).toBe("quota_exceeded");
    // A key at its limit of class quizzes: class_limit (a fresh app with a limit of 1).
    const small = testApp({ classQuizzesPerKey: 1, now: () => new Date(now.getTime()) });
    const issued = JSON.parse(
      await (
        await call(small, byId("subscribe").path, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ name: "A", email: "small@example.com" }),
        })
      ).text(),
    );
    const smallKey = { "X-API-Key": issued.api_key as string, "Content-Type": "application/json" };
    expect((await exchange(small, "POST", make, { headers: smallKey, body: "{}" })).status).toBe(201);
    const limited = await exchange(small, "POST", make, { headers: smallKey, body: "{}" });
    expect(limited.status).toBe(429);
    expect((contract.check(limited) as { code: string }).code).toBe("class_limit");
    // Closed: 410 to students, results still read; a revoked key's class quiz: 403.
    now = new Date(now.getTime() + 2 * 3_600_000);
    expect((await send("GET", open)).status).toBe(410);
    expect((await send("POST", submit, { body: { name: "d", answers: ["1"] } })).status).toBe(410);
    expect((await send("GET", results, { headers: own })).status).toBe(200);
    expect((await send("POST", target(byId("revokeKey").path, { id: teacher.id }), { headers: auth })).status).toBe(200);
    expect((await send("POST", target(byId("submitClassQuiz").path, { code: second }), { body: { name: "e", answers: ["1"] } })).status).toBe(403);
  });

  it("500 is a problem body without internals", async () => {
    const store = new MemoryQuotaStore();
    store.consume = () => {
      throw new Error("disk on fire at /secret/path");
    };
    const broken = testApp({ store });
    const result = await exchange(broken, "GET", byId("getQuiz").path);
    expect(result.status).toBe(500);
    expect(result.text).not.toContain("secret");
    contract.check(result);
  });

  it("503 service_unavailable with Retry-After wherever the quota store is read and cannot answer", async () => {
    const store = new MemoryQuotaStore();
    const unavailable = () => {
      throw new StoreUnavailableError("quota store: database is locked", 3);
    };
    for (const name of ["consume", "used", "insertKey", "keyByHash", "keyById", "keyPage", "updateKey", "classByCode"] as const) store[name] = unavailable;
    const down = testApp({ store, adminToken: ADMIN_TOKEN });
    const listing = operations.filter(({ op }) => "503" in op.responses);
    expect(listing.length).toBeGreaterThan(0);
    for (const { path, method, op } of listing) {
      const filled = fill(first(op), { apiKey: `hj_${"A".repeat(32)}`, keyId: "key_AbCdEf123456" });
      const body = filled.body === undefined ? undefined : JSON.stringify(filled.body);
      const headers = { ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...filled.headers };
      const result = await exchange(down, method, target(path, filled.path, filled.query), { headers, body, ip: freshIp() });
      expect(result.status, op.operationId).toBe(503);
      expect(result.headers.get("retry-after"), op.operationId).toBe("3");
      expect(result.text, op.operationId).not.toContain("locked");
      contract.check(result);
    }
  });

  it("every documented status of every operation was exercised (500 only on GET /quiz)", () => {
    const missing = contract.documentedPairs().filter((pair) => !contract.seen.has(pair) && !pair.endsWith(" 500"));
    expect(missing).toEqual([]);
    expect(contract.seen).toContain("getQuiz 500");
    expect(contract.seen).toContain("components MethodNotAllowed");
    expect(contract.seen).toContain("components NotFoundRoute");
  });

  it("documents the rate-limit headers on metered answers and ETag/Cache-Control on interface A", () => {
    for (const { op } of operations) {
      const ok = contract.resolve(op.responses["200"] ?? op.responses["201"] ?? { $ref: "" });
      const required = Object.entries(ok.headers ?? {})
        .filter(([, h]) => contract.resolve(h).required)
        .map(([name]) => name);
      // A POST answer (the reader's long texts) is no-store: HTTP caches do not keep POST answers.
      if (op.tags.includes("Characters"))
        expect(required, op.operationId).toEqual(expect.arrayContaining(op.requestBody ? ["Cache-Control"] : ["ETag", "Cache-Control"]));
      if (usesKey(op) && "429" in op.responses) {
        expect(required, op.operationId).toEqual(expect.arrayContaining([...RATE_LIMIT]));
        const tooMany = contract.resolve(op.responses["429"] ?? { $ref: "" });
        expect(Object.keys(tooMany.headers ?? {}), op.operationId).toEqual(expect.arrayContaining([...RATE_LIMIT, "Retry-After"]));
      }
    }
  });
});
