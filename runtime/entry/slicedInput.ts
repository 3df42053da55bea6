/**
 * Bounded reading of pipelined requests on a node:http server. node:http stops reading a
 * connection once answers back up unsent on it (its client does not read them), but only after
 * parsing the whole of what one read returned: up to 64 KiB, about 1,400 short GETs, each holding
 * about 1.5 KiB of request and response objects, and its answer, for as long as the client does
 * not read; and answering them all in one turn of the event loop held up every other client.
 * Here a read holding more than a few requests reaches the parser a few requests at a time, a few
 * connections a turn, and what is not parsed yet waits, as bytes, until node:http wants more.
 */
import type { Socket } from "node:net";
import { nextTurn } from "../core/util/nextTurn.ts";

/**
 * The most requests of one read parsed at once, counted by the blank lines ending header sections
 * (a body holding one only makes the slice shorter, which is harmless: the parser takes its input
 * in any pieces). A client that sends one request at a time is never held back.
 */
export const REQUESTS_PER_SLICE = 2;
/** And the most bytes, for a read without blank lines (a large body, or garbage). */
export const SLICE_BYTES = 16 * 1024;
/**
 * How many connections with input still to parse get a slice in one turn of the event loop: a
 * turn then answers at most 64 pipelined requests beside the ones just read, which keeps it to
 * milliseconds, so that node:http, which accepts one connection a turn, goes on accepting.
 */
export const SLICES_PER_TURN = 8;

/** What node:http keeps on a socket it serves (Node 18–24): its parser and whether it paused the socket. */
interface ServedSocket {
  parser?: unknown;
  _paused?: boolean;
}

/** A connection served in slices. */
interface Sliced {
  socket: Socket & ServedSocket;
  /** Input it read is waiting, unparsed, at the front of its stream. */
  pending: boolean;
  /** In `waiting`. */
  queued: boolean;
  /** Resumed for its next slice. */
  granted: boolean;
}

/** Connections with input waiting to be parsed, in the order they get their next slice. */
const waiting: Sliced[] = [];

/**
 * Makes a socket node:http has just taken (call it from the server's `connection` event, which
 * node:http handles first) hand its input to node:http's parser a slice at a time: the first slice
 * of a read at once, the rest in turn with the other connections', `SLICES_PER_TURN` a turn, and
 * none while node:http has paused the socket (when node:http resumes it, after its client read its
 * answers, it takes its place in the queue again). Adding a `data` listener is node:http's own
 * way to take a socket's input through the stream instead of straight from the handle. A socket
 * without node:http's parser (another version's internals) is left as it is.
 */
export function parseInSlices(socket: Socket): void {
  const sliced: Sliced = { socket, pending: false, queued: false, granted: false };
  const [parse] = socket.listeners("data");
  if (typeof parse !== "function" || !sliced.socket.parser) return;
  socket.removeListener("data", parse as (chunk: Buffer) => void);
  socket.on("data", (chunk: Buffer) => {
    if (sliced.pending && !sliced.granted) return void wait(sliced, chunk);
    sliced.pending = sliced.granted = false;
    const end = sliceEnd(chunk);
    if (end >= chunk.length) return void parse.call(socket, chunk);
    parse.call(socket, chunk.subarray(0, end));
    if (!socket.destroyed) wait(sliced, chunk.subarray(end));
  });
}

/** Puts `rest` back at the front of the connection's input, to be read again at its next slice. */
function wait(sliced: Sliced, rest: Buffer): void {
  // Paused first: unshifting into a flowing stream would hand the bytes straight back.
  sliced.socket.pause();
  sliced.socket.unshift(rest);
  sliced.pending = true;
  if (sliced.queued) return;
  sliced.queued = true;
  if (waiting.push(sliced) === 1) nextTurn(nextSlices);
}

/** Where the slice of `chunk` parsed at once ends. */
function sliceEnd(chunk: Buffer): number {
  let end = 0;
  for (let n = 0; n < REQUESTS_PER_SLICE; n++) {
    const blank = chunk.indexOf("\r\n\r\n", end);
    if (blank === -1 || blank + 4 > SLICE_BYTES) return Math.min(chunk.length, SLICE_BYTES);
    end = blank + 4;
  }
  return end;
}

/** Resumes the first `SLICES_PER_TURN` waiting connections; each parses a slice and, with more to parse, waits again at the back. */
function nextSlices(): void {
  for (const sliced of waiting.splice(0, SLICES_PER_TURN)) {
    sliced.queued = false;
    // One node:http paused waits until node:http resumes it, once its client has read its answers.
    if (sliced.socket._paused || sliced.socket.destroyed) continue;
    sliced.granted = true;
    sliced.socket.resume();
  }
  if (waiting.length > 0) nextTurn(nextSlices);
}
