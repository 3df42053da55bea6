/** POST /subscribe with bad input (docs/rules.md "Interface B"): content type, body size, JSON, each field, duplicates, the per-IP limit. */
import { describe, expect, it } from "vitest";
import type { App } from "../../runtime/core/app.ts";
import { getJson, testApp } from "../helpers/app.ts";
import { Q, applicant, bearer, expectProblem, subscribe, testClock } from "./quiz-helpers.ts";

const encoder = new TextEncoder();
let ips = 0;
/** A fresh client address per request, so the per-IP application limit stays out of the way. */
const nextIp = () => `172.16.${(++ips >> 8) & 255}.${ips & 255}`;

function post(app: App, body: BodyInit | null, headers: Record<string, string> = {}, extra: RequestInit = {}) {
  return getJson(app, `${Q}/subscribe`, { method: "POST", headers, body, clientAddress: nextIp(), ...extra });
}

/** A body stream delivered in `chunk`-byte pieces (no Content-Length). */
function streamOf(bytes: Uint8Array, chunk = 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + chunk));
      offset += chunk;
    },
  });
}

/** A valid application padded with spaces to exactly `size` bytes. */
function paddedApplication(tag: string, size: number): Uint8Array<ArrayBuffer> {
  const json = JSON.stringify(applicant(tag));
  return new Uint8Array(encoder.encode(json + " ".repeat(size - encoder.encode(json).length)));
}

const app = testApp();

describe("POST /subscribe: content type", () => {
  for (const type of [
    "application/x-www-form-urlencoded",
    "text/plain",
    "text/plain;charset=UTF-8",
    "application/json-patch+json",
    "multipart/form-data; boundary=x",
    "application/jsonp",
    "application/json; charset=iso-8859-1",
    "application/json;charset=UTF-16",
    "application/json; charset=no-such-charset",
  ]) {
    it(`${type} → 415`, async () => {
      expectProblem(await post(app, JSON.stringify(applicant(type)), { "Content-Type": type }), 415, "unsupported_media_type");
    });
  }

  it("a string body without a type (sent as text/plain) → 415", async () => {
    expectProblem(await post(app, JSON.stringify(applicant("string-body"))), 415, "unsupported_media_type");
  });

  it("no Content-Type at all → 415", async () => {
    const result = await post(app, encoder.encode(JSON.stringify(applicant("no-type"))));
    expectProblem(result, 415, "unsupported_media_type");
  });

  for (const [n, type] of [
    "application/json",
    "application/json; charset=utf-8",
    "Application/JSON",
    "application/json;charset=UTF-8",
    'application/json; charset="utf-8"',
    "application/json; charset=utf8",
    "application/json; charset=unicode-1-1-utf-8",
  ].entries()) {
    it(`${type} is accepted`, async () => {
      expect((await post(app, JSON.stringify(applicant(`type-${n}`)), { "Content-Type": type })).status).toBe(201);
    });
  }

  it("GET /subscribe → 405 with Allow: POST, OPTIONS", async () => {
    const result = await getJson(app, `${Q}/subscribe`);
    expectProblem(result, 405, "method_not_allowed");
    expect(result.headers.get("allow")).toBe("POST, OPTIONS");
  });
});

describe("POST /subscribe: body size", () => {
  const json = { "Content-Type": "application/json" };

  it("8 KiB exactly is accepted", async () => {
    const bytes = paddedApplication("8k", 8192);
    expect((await post(app, bytes, { ...json, "Content-Length": "8192" })).status).toBe(201);
    expect((await post(app, streamOf(paddedApplication("8k-stream", 8192)), json, { duplex: "half" } as RequestInit)).status).toBe(201);
  });

  it("8 KiB + 1 with a Content-Length header → 413", async () => {
    expectProblem(await post(app, paddedApplication("big", 8193), { ...json, "Content-Length": "8193" }), 413, "payload_too_large");
  });

  it("a Content-Length far over the limit → 413 before reading", async () => {
    expectProblem(await post(app, paddedApplication("huge", 100_000), { ...json, "Content-Length": "100000" }), 413, "payload_too_large");
  });

  it("8 KiB + 1 streamed without Content-Length → 413", async () => {
    const result = await post(app, streamOf(paddedApplication("stream", 8193)), json, { duplex: "half" } as RequestInit);
    expectProblem(result, 413, "payload_too_large");
  });

  it("a body whose stream fails midway (the client went away) → 400 naming body, not a logged 500", async () => {
    const errors: unknown[] = [];
    const watched = testApp({ onError: (error) => void errors.push(error) });
    let sent = false;
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(new Error("connection reset by the client"));
        sent = true;
        controller.enqueue(encoder.encode('{"name":"Gone","email":"gone@exa'));
      },
    });
    const result = await post(watched, failing, json, { duplex: "half" } as RequestInit);
    expectProblem(result, 400, "invalid_parameter", "body");
    expect(result.body.detail).toBe("The body could not be read to its end.");
    expect(errors).toEqual([]);
  });

  it("a large stream in small chunks without Content-Length → 413", async () => {
    const result = await post(app, streamOf(paddedApplication("chunks", 64 * 1024), 100), json, { duplex: "half" } as RequestInit);
    expectProblem(result, 413, "payload_too_large");
  });

  it("a Content-Length that understates the body → 413 all the same", async () => {
    expectProblem(await post(app, paddedApplication("liar", 9000), { ...json, "Content-Length": "100" }), 413, "payload_too_large");
  });
});

describe("POST /subscribe: JSON", () => {
  const json = { "Content-Type": "application/json" };
  for (const [label, body] of [
    ["malformed JSON", '{"name": "x", "email": '],
    ["an empty body", ""],
    ["a JSON array", JSON.stringify([applicant("array")])],
    ["a JSON string", '"hello"'],
    ["JSON null", "null"],
    ["a JSON number", "42"],
    ["trailing garbage", `${JSON.stringify(applicant("trailing"))} x`],
  ] as const) {
    it(`${label} → 400 naming body`, async () => {
      expectProblem(await post(app, body, json), 400, "invalid_parameter", "body");
    });
  }

  it("invalid UTF-8 → 400 naming body", async () => {
    const bytes = encoder.encode(JSON.stringify(applicant("utf8")));
    const broken = new Uint8Array([...bytes.slice(0, 10), 0xff, 0xfe, ...bytes.slice(10)]);
    expectProblem(await post(app, broken, json), 400, "invalid_parameter", "body");
  });
});

describe("POST /subscribe: fields", () => {
  const base = (extra: Record<string, unknown>) => ({ ...applicant(`f${++ips}`), ...extra });
  const invalid: [string, Record<string, unknown>, string][] = [
    ["name missing", { name: undefined }, "name"],
    ["name null", { name: null }, "name"],
    ["name empty", { name: "" }, "name"],
    ["name blank", { name: "   \t " }, "name"],
    ["name 101 characters", { name: "가".repeat(101) }, "name"],
    ["name a number", { name: 42 }, "name"],
    ["name an array", { name: ["a"] }, "name"],
    ["name an object", { name: { first: "a" } }, "name"],
    ["name with a control character", { name: "a\u0000b" }, "name"],
    ["name with a C1 control character (NEL)", { name: "a\u0085b" }, "name"],
    ["name with a bidirectional override", { name: "\u202eevil" }, "name"],
    ["name with a bidirectional isolate", { name: "a\u2067b" }, "name"],
    ["name with an unpaired surrogate", { name: "a\ud800b" }, "name"],
    ["name of only a zero-width space", { name: "\u200b" }, "name"],
    ["name of only punctuation", { name: "---" }, "name"],
    ["email missing", { email: undefined }, "email"],
    ["email blank", { email: "  " }, "email"],
    ["email without @", { email: "someone.example.com" }, "email"],
    ["email without a domain dot", { email: "someone@localhost" }, "email"],
    ["email with spaces inside", { email: "some one@example.com" }, "email"],
    ["email with two @", { email: "a@b@example.com" }, "email"],
    ["email 255 characters", { email: `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(59)}.kr` }, "email"],
    ["email with a local part of 65 characters", { email: `${"a".repeat(65)}@example.com` }, "email"],
    ["email with a leading dot", { email: ".a@example.com" }, "email"],
    ["email with a trailing dot before @", { email: "a.@example.com" }, "email"],
    ["email with two dots in a row", { email: "a..b@example.com" }, "email"],
    ["email a number", { email: 7 }, "email"],
    ["phone with letters", { phone: "010-CALL-ME" }, "phone"],
    ["phone 21 characters", { phone: "0".repeat(21) }, "phone"],
    ["phone a number", { phone: 1012345678 }, "phone"],
    ["depositor 51 characters", { depositor: "김".repeat(51) }, "depositor"],
    ["depositor a boolean", { depositor: true }, "depositor"],
  ];
  for (const [label, extra, field] of invalid) {
    it(`${label} → 400 naming ${field}`, async () => {
      const result = await post(app, JSON.stringify(base(extra)), { "Content-Type": "application/json" });
      expectProblem(result, 400, "invalid_parameter", field);
    });
  }

  it("every bad field at once: param names the first, errors lists each, detail sums them up", async () => {
    const result = await post(app, JSON.stringify({ name: "", email: "not-an-address", phone: "010-CALL-ME", depositor: "김".repeat(51) }), {
      "Content-Type": "application/json",
    });
    expectProblem(result, 400, "invalid_parameter", "name");
    expect(result.body.errors.map((e: { param: string }) => e.param)).toEqual(["name", "email", "phone", "depositor"]);
    for (const error of result.body.errors as { param: string; detail: string }[]) {
      expect(error.detail.startsWith(error.param)).toBe(true);
      expect(result.body.detail).toContain(error.detail);
    }
    expect(result.body.detail).toMatch(/^4 fields are invalid: /);
    // One bad field: the problem as before, without `errors`.
    const one = await post(app, JSON.stringify(base({ email: "x" })), { "Content-Type": "application/json" });
    expectProblem(one, 400, "invalid_parameter", "email");
    expect(one.body.errors).toBeUndefined();
  });

  const valid: [string, Record<string, unknown>][] = [
    ["name 100 characters", { name: "가".repeat(100) }],
    ["name of astral characters (100 code points)", { name: "𠀀".repeat(100) }],
    ["email 254 characters", { email: `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(58)}.kr` }],
    ["email with a local part of 64 characters", { email: `${"a".repeat(64)}@example.com` }],
    ["name of Hangul with a middle dot and a hyphen", { name: "남궁·민-수" }],
    ["name with a zero-width joiner inside (emoji sequence)", { name: "Kim 👩\u200d💻" }],
    ["email with plus and subdomain", { email: "a.b+tag@mail.example.co.kr" }],
    ["phone 20 characters", { phone: "+82 (10) 1234-56789" }],
    ["phone omitted", { phone: undefined }],
    ["phone null", { phone: null }],
    ["phone blank", { phone: "  " }],
    ["depositor 50 characters", { depositor: "김".repeat(50) }],
    ["depositor omitted", { depositor: undefined }],
    ["unknown extra fields", { plan: "annual", admin: true }],
  ];
  for (const [label, extra] of valid) {
    it(`${label} is accepted`, async () => {
      const result = await post(app, JSON.stringify(base(extra)), { "Content-Type": "application/json" });
      expect(result.status, JSON.stringify(result.body)).toBe(201);
      expect(result.body.key.plan).toBe("free");
    });
  }

  it("the first bad field is named when several are bad", async () => {
    const result = await post(app, JSON.stringify({ name: "", email: "x", phone: "abc" }), { "Content-Type": "application/json" });
    expectProblem(result, 400, "invalid_parameter", "name");
  });
});

describe("POST /subscribe: duplicates and the per-IP limit", () => {
  it("a second pending application with the same e-mail (any case) → 409", async () => {
    const app = testApp();
    expect((await subscribe(app, applicant("dup", { email: "Dup.Person@Example.com" }), { clientAddress: "10.1.0.1" })).status).toBe(201);
    for (const email of ["Dup.Person@Example.com", "dup.person@example.com", "DUP.PERSON@EXAMPLE.COM", "  dup.person@example.com "]) {
      expectProblem(await subscribe(app, applicant("dup2", { email }), { clientAddress: "10.1.0.2" }), 409, "conflict", "email");
    }
    expect((await subscribe(app, applicant("dup3", { email: "other.person@example.com" }), { clientAddress: "10.1.0.3" })).status).toBe(201);
  });

  it("once the pending key is confirmed, the same e-mail may apply again", async () => {
    const token = "dup-admin-token-0123456789";
    const app = testApp({ adminToken: token });
    const first = await subscribe(app, applicant("again"), { clientAddress: "10.1.1.1" });
    await getJson(app, `${Q}/admin/keys/${first.body.key.id}/confirm`, { method: "POST", headers: bearer(token) });
    expect((await subscribe(app, applicant("again"), { clientAddress: "10.1.1.2" })).status).toBe(201);
  });

  it("the 6th application from one IP in a day → 429; the next day is fresh", async () => {
    const clock = testClock("2025-03-01T03:00:00Z");
    const app = testApp({ now: clock.now });
    for (let n = 0; n < 5; n++) expect((await subscribe(app, applicant(`ip-${n}`), { clientAddress: "10.2.0.1" })).status).toBe(201);
    const sixth = await subscribe(app, applicant("ip-6"), { clientAddress: "10.2.0.1" });
    expectProblem(sixth, 429, "quota_exceeded");
    expect(sixth.headers.get("retry-after")).toBe(String(12 * 3600));
    // Another address is not affected; the same one is, whatever it applies with.
    expect((await subscribe(app, applicant("ip-7"), { clientAddress: "10.2.0.2" })).status).toBe(201);
    expect((await subscribe(app, applicant("ip-8"), { clientAddress: "::ffff:10.2.0.1" })).status).toBe(429);
    clock.set("2025-03-01T15:00:00Z");
    expect((await subscribe(app, applicant("ip-9"), { clientAddress: "10.2.0.1" })).status).toBe(201);
  });

  it("rejected applications (400, 415) do not count toward the five", async () => {
    const app = testApp();
    for (let n = 0; n < 10; n++) {
      expect((await subscribe(app, { name: "", email: "x@example.com" }, { clientAddress: "10.3.0.1" })).status).toBe(400);
      expect((await getJson(app, `${Q}/subscribe`, { method: "POST", body: "x", clientAddress: "10.3.0.1" })).status).toBe(415);
    }
    for (let n = 0; n < 5; n++) expect((await subscribe(app, applicant(`after-${n}`), { clientAddress: "10.3.0.1" })).status).toBe(201);
  });

  it("a refused duplicate (409) counts toward the five, so e-mails cannot be probed without limit", async () => {
    const app = testApp();
    const ip = { clientAddress: "10.4.0.1" };
    expect((await subscribe(app, applicant("probe-0", { email: "probe@example.com" }), ip)).status).toBe(201);
    for (let n = 1; n < 5; n++) expect((await subscribe(app, applicant(`probe-${n}`, { email: "probe@example.com" }), ip)).status).toBe(409);
    expectProblem(await subscribe(app, applicant("probe-5", { email: "probe@example.com" }), ip), 429, "quota_exceeded");
    expectProblem(await subscribe(app, applicant("fresh"), ip), 429, "quota_exceeded");
  });
});
