/** The access log's lines, their batching, and the clock that stamps them. */
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import type { AccessLogEntry } from "../../runtime/core/appOptions.ts";
import { isoClock } from "../../runtime/core/handler.ts";
import { BATCH_BYTES, BATCH_ROOM, MAX_LOGGED_TARGET, createAccessLog, logLine, loggedTarget } from "../../runtime/entry/accessLog.ts";
import { call, testApp } from "../helpers/app.ts";

const entry = (fields: Partial<AccessLogEntry> = {}): AccessLogEntry => ({
  time: "2026-11-22T18:00:00.123Z",
  request_id: "k3x9q0-1a",
  method: "GET",
  path: "/hanja/v1/hanja/%E6%B0%B4",
  status: 200,
  duration_ms: 0.05,
  ...fields,
});

describe("logLine", () => {
  it("is JSON.stringify of the record, its path as loggedTarget writes it, and a newline, whatever the text in it", () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.constantFrom('"', "\\", "\u0000", "\u007f", "\u2028", "\ud800", "가", "𝄞", " "));
    const number = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 0.1 + 0.2, 1e21, 1e-7));
    fc.assert(
      fc.property(
        text,
        text,
        text,
        text,
        number,
        number,
        fc.option(text, { nil: undefined }),
        fc.option(text, { nil: undefined }),
        fc.option(text, { nil: undefined }),
        (time, id, method, path, status, duration, plan, problem, param) => {
          const record: AccessLogEntry = {
            time,
            request_id: id,
            method,
            path,
            status,
            duration_ms: duration,
            ...(plan === undefined ? {} : { plan }),
            ...(problem === undefined ? {} : { problem }),
            ...(param === undefined ? {} : { param }),
          };
          expect(logLine(record)).toBe(`${JSON.stringify({ ...record, path: loggedTarget(path) })}\n`);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("leaves a target of visible ASCII as it is, up to MAX_LOGGED_TARGET characters", () => {
    const visible = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 300 });
    fc.assert(
      fc.property(visible, (target) => {
        expect(loggedTarget(target)).toBe(target);
      }),
      { numRuns: 1000 },
    );
    const longest = `/hanja/v1/hanja?q=${"a".repeat(MAX_LOGGED_TARGET - 18)}`;
    expect(loggedTarget(longest)).toBe(longest);
  });

  it("percent-encodes what a target cannot hold as it is (raw UTF-8 as Deno hands it over, spaces, controls), as Bun and the URL parser do", () => {
    expect(loggedTarget("/hanja/v1/hanja?q=수")).toBe("/hanja/v1/hanja?q=%EC%88%98");
    expect(loggedTarget("/hanja/v1/hanja/𝄞")).toBe("/hanja/v1/hanja/%F0%9D%84%9E");
    expect(loggedTarget("/a b?q=\u0001\u007f")).toBe("/a%20b?q=%01%7F");
    expect(loggedTarget("/x?q=\ud800")).toBe("/x?q=%EF%BF%BD");
    // Escapes already there, and ASCII JSON escapes, stay as they are.
    expect(loggedTarget('/x?q=%EC%88%98&r="\\')).toBe('/x?q=%EC%88%98&r="\\');
    expect(JSON.parse(logLine(entry({ path: "/hanja/v1/hanja?q=\u0001水" }))).path).toBe("/hanja/v1/hanja?q=%01%E6%B0%B4");
  });

  it("cuts a target longer than MAX_LOGGED_TARGET there, never inside an escape, and marks the cut with …", () => {
    const long = `/hanja/v1/hanja?q=${"a".repeat(20_000)}`;
    expect(loggedTarget(long)).toBe(`${long.slice(0, MAX_LOGGED_TARGET)}…`);
    const line = logLine(entry({ path: long }));
    expect(JSON.parse(line).path).toBe(`${long.slice(0, MAX_LOGGED_TARGET)}…`);
    expect(Buffer.byteLength(line)).toBeLessThan(MAX_LOGGED_TARGET + 300);
    // Raw 수 (three escapes, nine characters each encoded) from the start: the cut falls between escapes.
    for (const lead of [0, 1, 2]) {
      const cut = loggedTarget(`/${"x".repeat(lead)}?q=${"수".repeat(2_000)}`);
      expect(cut.endsWith("…")).toBe(true);
      const kept = cut.slice(0, -1);
      expect(kept.length).toBeLessThanOrEqual(MAX_LOGGED_TARGET);
      expect(kept.length).toBeGreaterThan(MAX_LOGGED_TARGET - 3);
      expect(kept).toMatch(/(%[0-9A-F]{2})+$/);
      expect(kept).not.toMatch(/%[0-9A-F]?$/);
    }
  });

  it("writes the usual record exactly, with and without a plan", () => {
    expect(logLine(entry())).toBe(
      '{"time":"2026-11-22T18:00:00.123Z","request_id":"k3x9q0-1a","method":"GET","path":"/hanja/v1/hanja/%E6%B0%B4","status":200,"duration_ms":0.05}\n',
    );
    expect(logLine(entry({ path: '/quiz/v1/quiz?q=a"b\\c', plan: "annual" }))).toBe(
      '{"time":"2026-11-22T18:00:00.123Z","request_id":"k3x9q0-1a","method":"GET","path":"/quiz/v1/quiz?q=a\\"b\\\\c","status":200,"duration_ms":0.05,"plan":"annual"}\n',
    );
    expect(logLine(entry({ path: "/quiz/v1/quiz?count=abc", status: 400, plan: "free", problem: "invalid_parameter", param: "count" }))).toBe(
      '{"time":"2026-11-22T18:00:00.123Z","request_id":"k3x9q0-1a","method":"GET","path":"/quiz/v1/quiz?count=abc","status":400,"duration_ms":0.05,"plan":"free","problem":"invalid_parameter","param":"count"}\n',
    );
  });
});

describe("the app's records", () => {
  it("name the problem of an error reply, and the parameter or field a 400 names; a success names none", async () => {
    const entries: AccessLogEntry[] = [];
    const app = testApp({ log: (logged) => void entries.push(logged) });
    const at = { clientAddress: "192.0.2.77" };
    // Twice: the second is answered the same way (an error is never replayed without its problem).
    expect((await call(app, "/quiz/v1/quiz?count=abc", at)).status).toBe(400);
    expect((await call(app, "/quiz/v1/quiz?count=abc", at)).status).toBe(400);
    expect((await call(app, "/quiz/v1/quiz?type=nope", at)).status).toBe(400);
    expect(
      (await call(app, "/quiz/v1/subscribe", { ...at, method: "POST", headers: { "Content-Type": "application/json" }, body: '{"name":""}' })).status,
    ).toBe(400);
    expect((await call(app, "/no/such/path")).status).toBe(404);
    expect((await call(app, "/hanja/v1/meta")).status).toBe(200);
    expect(entries.map(({ status, problem, param }) => ({ status, problem, param }))).toEqual([
      { status: 400, problem: "invalid_parameter", param: "count" },
      { status: 400, problem: "invalid_parameter", param: "count" },
      { status: 400, problem: "invalid_parameter", param: "type" },
      { status: 400, problem: "invalid_parameter", param: "name" },
      { status: 404, problem: "not_found", param: undefined },
      { status: 200, problem: undefined, param: undefined },
    ]);
    expect(logLine(entries[0] as AccessLogEntry)).toMatch(/"status":400,"duration_ms":[\d.]+,"problem":"invalid_parameter","param":"count"}\n$/);
  });
});

/** A log whose batches are kept as the text they encode, with the byte arrays as they were handed over. */
function recordedLog() {
  const batches: Uint8Array[] = [];
  const texts: string[] = [];
  const log = createAccessLog(true, (bytes) => {
    batches.push(bytes);
    texts.push(new TextDecoder().decode(bytes));
  });
  return { log, batches, texts };
}

const records = (text: string) => {
  const lines = text.split("\n");
  expect(lines.pop()).toBe("");
  return lines.map((line) => JSON.parse(line) as AccessLogEntry);
};

describe("createAccessLog", () => {
  it("writes nothing when off", () => {
    const out = vi.fn();
    const log = createAccessLog(false, out);
    log.write(entry());
    log.flush();
    expect(out).not.toHaveBeenCalled();
  });

  it("writes the lines in order, as UTF-8, when flushed", () => {
    const { log, texts } = recordedLog();
    log.write(entry({ request_id: "a-1", path: "/hanja/v1/hanja?q=물" }));
    log.write(entry({ request_id: "a-2", status: 404 }));
    expect(texts).toEqual([]);
    log.flush();
    log.flush();
    expect(texts).toHaveLength(1);
    expect(records(texts[0] ?? "")).toEqual([entry({ request_id: "a-1", path: "/hanja/v1/hanja?q=%EB%AC%BC" }), entry({ request_id: "a-2", status: 404 })]);
  });

  it("writes a batch once it reaches 64 KiB, and the rest within 100 ms", async () => {
    vi.useFakeTimers();
    try {
      const { log, texts } = recordedLog();
      const line = logLine(entry());
      const perBatch = Math.ceil(BATCH_BYTES / line.length);
      for (let i = 0; i < perBatch + 3; i++) log.write(entry());
      expect(texts).toEqual([line.repeat(perBatch)]);
      vi.advanceTimersByTime(99);
      expect(texts).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(texts).toEqual([line.repeat(perBatch), line.repeat(3)]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("never splits a line between batches, nor reuses the bytes it handed over", () => {
    const { log, batches, texts } = recordedLog();
    // Lines of many lengths, multi-byte text included, up to 30 KB: batch ends fall everywhere,
    // and some lines do not fit in what is left of a batch.
    const written = Array.from({ length: 2000 }, (_, i) =>
      entry({ request_id: `r-${i}`, path: `/hanja/v1/hanja?q=${"水물".repeat(i % 5 === 0 ? (i * 7919) % 5000 : i % 97)}` }),
    );
    for (const record of written) log.write(record);
    log.flush();
    expect(batches.length).toBeGreaterThan(10);
    // Each batch, decoded again now, still holds what it held when written, and only whole lines.
    const again = batches.map((bytes) => new TextDecoder().decode(bytes));
    expect(again).toEqual(texts);
    // A batch ends early only where the next line would not fit.
    for (const [i, text] of again.slice(0, -1).entries()) {
      const next = new TextEncoder().encode(`${JSON.stringify(records(again[i + 1] ?? "")[0])}\n`).length;
      const size = new TextEncoder().encode(text).length;
      if (size < BATCH_BYTES) expect(size + next).toBeGreaterThan(BATCH_ROOM);
    }
    expect(again.flatMap(records)).toEqual(written.map((record) => ({ ...record, path: loggedTarget(record.path) })));
  });

  it("writes a line longer than a batch on its own, in order", () => {
    const { log, texts } = recordedLog();
    // The target is cut to MAX_LOGGED_TARGET characters; a method is not (a server may accept a long one).
    const long = entry({ request_id: "b-2", method: `X${"\u0001水".repeat(20_000)}` });
    log.write(entry({ request_id: "b-1" }));
    log.write(long);
    log.write(entry({ request_id: "b-3" }));
    log.flush();
    expect(texts.map(records)).toEqual([[entry({ request_id: "b-1" })], [long], [entry({ request_id: "b-3" })]]);
  });
});

describe("isoClock", () => {
  it("gives new Date(now).toISOString(), formatted again only when the millisecond changes", () => {
    let now = Date.UTC(2026, 10, 22, 23, 59, 59, 999);
    const spy = vi.spyOn(Date.prototype, "toISOString");
    try {
      const clock = isoClock(() => now);
      expect(clock()).toBe("2026-11-22T23:59:59.999Z");
      expect(clock()).toBe("2026-11-22T23:59:59.999Z");
      expect(spy).toHaveBeenCalledTimes(1);
      now += 1;
      expect(clock()).toBe("2026-11-23T00:00:00.000Z");
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });
});
