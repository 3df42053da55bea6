/**
 * When the Redis store owes an undo (runtime/stores/redis/undo.ts), against a fake connection: a
 * late answer or a lost one is undone, an answer in time or Redis's own refusal is not; an undo
 * that fails is sent again once the connection is back; one that cannot be made within the
 * window is dropped and logged. (The undo scripts themselves run on a real Redis in
 * redisUndo.test.ts.)
 */
import { ErrorReply } from "@redis/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { UNDO_COUNTS, UNDO_WINDOW_SECONDS, type Undo, Undos } from "../../runtime/stores/redis/undo.ts";

const UNDO: Undo = { script: UNDO_COUNTS, keys: ["m:undo:1", "m:count"], args: [String(UNDO_WINDOW_SECONDS)] };

/** A connection that records what it is sent and answers as `answer` says. */
function fakeConnection() {
  const sent: string[][] = [];
  const connection = {
    isReady: true,
    answer: (): Promise<unknown> => Promise.resolve("undone"),
    sendCommand(args: string[]) {
      sent.push(args);
      return connection.answer();
    },
  };
  return { connection, sent };
}

/** Undos on a fake connection that is down, owing one for a script lost with its connection; their log lines in `lines`. */
function owingOneWhileDisconnected() {
  const { connection, sent } = fakeConnection();
  const lines: string[] = [];
  const undos = new Undos(connection, (line) => lines.push(line));
  connection.isReady = false;
  undos.watch(
    Promise.reject(new Error("Connection reset")),
    () => false,
    () => UNDO,
  );
  return { undos, connection, sent, lines };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => vi.useRealTimers());

describe("the undos a Redis store owes", () => {
  it("a script answered after its caller was answered 503 is undone once, with the undo's keys and arguments", async () => {
    const { connection, sent } = fakeConnection();
    const undos = new Undos(connection, () => {});
    let late = false;
    let answer: (value: unknown) => void = () => {};
    undos.watch(
      new Promise((resolve) => (answer = resolve)),
      () => late,
      () => UNDO,
    );
    late = true;
    answer([1, 1]);
    await settle();
    expect(sent).toEqual([["EVAL", UNDO_COUNTS.lua, "2", "m:undo:1", "m:count", String(UNDO_WINDOW_SECONDS)]]);
    await settle();
    expect([undos.made, undos.owed]).toEqual([1, 0]);
  });

  it("a script answered in time, or refused by Redis itself (it did not run), is not undone", async () => {
    const { connection, sent } = fakeConnection();
    const undos = new Undos(connection, () => {});
    undos.watch(
      Promise.resolve([1, 1]),
      () => false,
      () => UNDO,
    );
    undos.watch(
      Promise.reject(new ErrorReply("BUSY Redis is busy running a script")),
      () => true,
      () => UNDO,
    );
    undos.watch(
      Promise.reject(new ErrorReply("NOSCRIPT No matching script")),
      () => false,
      () => UNDO,
    );
    await settle();
    expect(sent).toEqual([]);
    expect(undos.owed).toBe(0);
  });

  it("a script lost with its connection (it may have run) is undone once the connection is back; a failed undo is sent again", async () => {
    const { connection, sent } = fakeConnection();
    const undos = new Undos(connection, () => {});
    connection.isReady = false;
    undos.watch(
      Promise.reject(new Error("Socket closed unexpectedly")),
      () => false,
      () => UNDO,
    );
    await settle();
    expect(sent).toEqual([]);
    expect(undos.owed).toBe(1);

    connection.isReady = true;
    connection.answer = () => Promise.reject(new Error("Socket closed unexpectedly"));
    undos.flush();
    await settle();
    expect(sent).toHaveLength(1);
    expect(undos.owed).toBe(1);

    connection.answer = () => Promise.resolve("undone");
    undos.flush();
    await settle();
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
    expect([undos.made, undos.owed]).toEqual([1, 0]);
  });

  it("a failed undo is retried by itself a second later", async () => {
    vi.useFakeTimers();
    const { connection, sent } = fakeConnection();
    const undos = new Undos(connection, () => {});
    connection.answer = () => Promise.reject(new ErrorReply("LOADING Redis is loading the dataset in memory"));
    undos.watch(
      Promise.reject(new Error("Connection reset")),
      () => false,
      () => UNDO,
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(1);
    connection.answer = () => Promise.resolve("undone");
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toHaveLength(2);
    expect([undos.made, undos.owed]).toEqual([1, 0]);
  });

  it("an undo that cannot be made within the window is dropped, and the log says the call may stay counted", async () => {
    vi.useFakeTimers();
    const { undos, sent, lines } = owingOneWhileDisconnected();
    await vi.advanceTimersByTimeAsync(UNDO_WINDOW_SECONDS * 1000 + 2000);
    expect(sent).toEqual([]);
    expect(undos.owed).toBe(0);
    expect(lines).toEqual([`redis store: an undo of a call answered 503 could not be made within ${UNDO_WINDOW_SECONDS} s; that call may stay counted`]);
  });

  it("a store closing with undos owed says how many, stops retrying, and reports a call counted after it closed", async () => {
    vi.useFakeTimers();
    const { undos, connection, sent, lines } = owingOneWhileDisconnected();
    await vi.advanceTimersByTimeAsync(0);
    undos.stop();
    let answer: (value: unknown) => void = () => {};
    undos.watch(
      new Promise((resolve) => (answer = resolve)),
      () => true,
      () => UNDO,
    );
    answer([1, 1]);
    connection.isReady = true;
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent).toEqual([]);
    expect(undos.owed).toBe(0);
    expect(lines).toEqual([
      "redis store: closed with 1 undo(s) of calls answered 503 not made; those calls may stay counted",
      "redis store: a call answered 503 was counted after the store closed, and cannot be undone",
    ]);
  });
});
