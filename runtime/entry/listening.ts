/** A server that is listening: its port, and how to stop it gracefully. */
export interface Listening {
  port: number;
  /**
   * Called at the signal, before `stop()`, while the server still accepts. The servers change
   * nothing here: an answer telling a client to close would have it reconnect at once, and a
   * connection still in the listen queue when the server stops accepting is reset (Deno.serve
   * drops one it took with no request read yet), its request cut.
   */
  drain(): void;
  /**
   * Stops accepting connections; from then on every answer carries `Connection: close` and its
   * connection closes after it, so that a kept-alive connection in use ends after an answer
   * rather than under a request its client is already sending. Resolves once in-flight requests
   * are answered.
   */
  stop(): Promise<void>;
  /**
   * Closes every connection still open, answered or not, after `stop()` has run out of time
   * (a client that never sends its request, or trickles it). Deno.serve has no way to: there the
   * process exits with them open.
   */
  abort(): void;
}

/** The runtime this code runs on, detected from its globals. */
export function detectRuntime(): "bun" | "deno" | "node" {
  if (typeof (globalThis as { Bun?: unknown }).Bun !== "undefined") return "bun";
  if (typeof (globalThis as { Deno?: unknown }).Deno !== "undefined") return "deno";
  return "node";
}
