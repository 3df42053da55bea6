/** The access log's lines, their batching, and the clock that stamps them. */
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import type { AccessLogEntry } from "../../runtime/core/app.ts";
import { isoClock } from "../../runtime/core/app.ts";
import { createAccessLog, logLine } from "../../runtime/entry/accessLog.ts";

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
  it("is JSON.stringify of the record and a newline, whatever the text in it", () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.constantFrom('"', "\\", "\u0000", "\u007f", "\u2028", "\ud800", "가", "𝄞"));
    const number = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 0.1 + 0.2, 1e21, 1e-7));
    fc.assert(
      fc.property(text, text, text, text, number, number, fc.option(text, { nil: undefined }), (time, id, method, path, status, duration, plan) => {
        const record: AccessLogEntry = { time, request_id: id, method, path, status, duration_ms: duration, ...(plan === undefined ? {} : { plan }) };
        expect(logLine(record)).toBe(`${JSON.stringify(record)}\n`);
      }),
      { numRuns: 3000 },
    );
  });

  it("writes the usual record exactly, with and without a plan", () => {
    expect(logLine(entry())).toBe('{"time":"2026-11-22T18:00:00.123Z","request_id":"k3x9q0-1a","method":"GET","path":"/hanja/v1/hanja/%E6%B0%B4","status":200,"duration_ms":0.05}\n');
    expect(logLine(entry({ path: '/quiz/v1/quiz?q=a"b\\c', plan: "annual" }))).toBe(
      '{"time":"2026-11-22T18:00:00.123Z","request_id":"k3x9q0-1a","method":"GET","path":"/quiz/v1/quiz?q=a\\"b\\\\c","status":200,"duration_ms":0.05,"plan":"annual"}\n',
    );
    expect(JSON.parse(logLine(entry({ path: "/hanja/v1/hanja?q=\u0001水" }))).path).toBe("/hanja/v1/hanja?q=\u0001水");
  });
});

describe("createAccessLog", () => {
  it("writes nothing when off", () => {
    const out = vi.fn();
    const log = createAccessLog(false, out);
    log.write(entry());
    log.flush();
    expect(out).not.toHaveBeenCalled();
  });

  it("writes the lines in order when flushed", () => {
    const out: string[] = [];
    const log = createAccessLog(true, (text) => out.push(text));
    log.write(entry({ request_id: "a-1", path: "/hanja/v1/hanja?q=물" }));
    log.write(entry({ request_id: "a-2", status: 404 }));
    expect(out).toEqual([]);
    log.flush();
    log.flush();
    expect(out).toHaveLength(1);
    const lines = (out[0] ?? "").split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((line) => JSON.parse(line))).toEqual([entry({ request_id: "a-1", path: "/hanja/v1/hanja?q=물" }), entry({ request_id: "a-2", status: 404 })]);
  });

  it("writes a batch once it passes 64 KiB, and the rest within 100 ms", async () => {
    vi.useFakeTimers();
    try {
      const out: string[] = [];
      const log = createAccessLog(true, (text) => out.push(text));
      const line = logLine(entry());
      const perBatch = Math.floor(65_536 / line.length) + 1;
      for (let i = 0; i < perBatch + 3; i++) log.write(entry());
      expect(out).toEqual([line.repeat(perBatch)]);
      vi.advanceTimersByTime(99);
      expect(out).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(out).toEqual([line.repeat(perBatch), line.repeat(3)]);
    } finally {
      vi.useRealTimers();
    }
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
